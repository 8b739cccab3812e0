import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'base-unreadable',
    description: 'The CATALINA_BASE directory does not exist or cannot be read.',
    defaultSeverity: 'error',
    effect: 'tollgate',
    reason:
      'tollgate cannot read the CATALINA_BASE, so nothing in it is checked (Tomcat could not start from it either).',
    category: 'correctness',
  },
};
