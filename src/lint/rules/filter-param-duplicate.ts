import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-duplicate',
    description: 'The same init-param is given twice.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat keeps the first value and silently ignores the other.',
    category: 'correctness',
  },
};
