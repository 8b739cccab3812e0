import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-boolean-spelling', description: 'A boolean init-param written as something other than true or false.', defaultSeverity: 'warning', category: 'correctness', fixable: true },
};
