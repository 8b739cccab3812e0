import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-mapping-undefined-filter',
    description: 'A filter-mapping names a filter no descriptor defines.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat refuses the descriptor ("Filter mapping specifies an unknown filter name") and the context does not start.',
    category: 'correctness',
  },
};
