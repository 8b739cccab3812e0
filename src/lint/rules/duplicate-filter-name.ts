import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'duplicate-filter-name',
    description: 'Two filters share a name.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'Tomcat refuses the descriptor ("Duplicate filter name") and the context does not start.',
    category: 'correctness',
  },
};
