import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'webxml-missing-element',
    description: 'A required child element is missing (filter-name, filter-class, servlet-name...).',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat refuses a filter, servlet or mapping without its required name or class, and the context does not start.',
    category: 'correctness',
  },
};
