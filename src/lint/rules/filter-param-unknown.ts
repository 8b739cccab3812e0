import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-unknown', description: 'An init-param name the filter does not have.', defaultSeverity: 'warning', category: 'correctness', fixable: true },
};
