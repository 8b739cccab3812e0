import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'duplicate-filter-name', description: 'Two filters share a name.', defaultSeverity: 'error', category: 'correctness' },
};
