import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'duplicate-servlet-mapping', description: 'One url-pattern is mapped to two servlets (or twice) in one descriptor.', defaultSeverity: 'error', category: 'correctness' },
};
