import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'duplicate-servlet-mapping',
    description: 'One url-pattern is mapped to two servlets (or twice) in one descriptor.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat refuses the descriptor ("both mapped to the url-pattern ... which is not permitted") and the context does not start.',
    category: 'correctness',
  },
};
