import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-not-in-target', description: 'An init-param that is gone, or means something else, in the target Tomcat version.', defaultSeverity: 'warning', category: 'compatibility' },
};
