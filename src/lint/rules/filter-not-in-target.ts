import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-not-in-target', description: 'A filter class that does not exist in the target Tomcat version.', defaultSeverity: 'error', category: 'compatibility' },
};
