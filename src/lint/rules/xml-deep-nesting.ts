import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-deep-nesting',
    description: 'Elements nested over 256 levels deep are not kept; past 10,000 reading stops.',
    defaultSeverity: 'warning',
    effect: 'tollgate',
    reason: 'tollgate keeps nothing below 256 levels; Tomcat reads and ignores such unknown elements.',
    category: 'correctness',
  },
};
