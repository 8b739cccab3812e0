import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'servlet-mapping-undefined-servlet',
    description: 'A servlet-mapping names a servlet no descriptor defines.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'Tomcat refuses the descriptor (a servlet-mapping for an unknown servlet) and the context does not start.',
    category: 'correctness',
  },
};
