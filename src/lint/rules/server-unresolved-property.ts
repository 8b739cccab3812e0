import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'server-unresolved-property',
    description: 'A ${...} reference in server.xml has no value.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat keeps the ${...} text literally as the value.',
    category: 'correctness',
  },
};
