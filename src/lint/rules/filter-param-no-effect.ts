import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-no-effect', description: 'An init-param value Tomcat accepts but that cannot do what it says.', defaultSeverity: 'warning', category: 'correctness', fixable: true },
};
