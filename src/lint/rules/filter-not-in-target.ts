import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-not-in-target',
    description: 'A filter class that does not exist in the target Tomcat version.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'The class does not exist in the target version: the filter fails to load (ClassNotFoundException) and the context does not start.',
    category: 'compatibility',
  },
};
