import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'war-not-read',
    description: 'A packed WAR whose descriptor tollgate does not read.',
    defaultSeverity: 'info',
    effect: 'tollgate',
    reason: "tollgate reads unpacked applications only; the WAR's descriptor is not checked.",
    category: 'correctness',
  },
};
