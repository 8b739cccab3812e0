import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'filter-param-cidr', description: 'A RemoteCIDRFilter entry that is not a valid address or mask.', defaultSeverity: 'error', category: 'correctness' },
};
