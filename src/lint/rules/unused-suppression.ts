import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'unused-suppression',
    description: 'A tollgate-disable comment that suppresses nothing.',
    defaultSeverity: 'warning',
    effect: 'tollgate',
    reason: 'A tollgate-disable comment that suppresses nothing (Tomcat ignores comments).',
    category: 'hygiene',
  },
};
