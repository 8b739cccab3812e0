import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-regex', description: 'A Java regex init-param that is invalid or cannot be translated exactly.', defaultSeverity: 'error', category: 'correctness' },
};
