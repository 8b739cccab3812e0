import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-invalid', description: 'An init-param value the filter cannot read.', defaultSeverity: 'error', category: 'correctness' },
};
