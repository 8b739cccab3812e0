import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'invalid-url-pattern',
    description: 'A url-pattern Tomcat refuses.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'Tomcat refuses the descriptor ("Invalid url-pattern") and the context does not start.',
    category: 'correctness',
  },
};
