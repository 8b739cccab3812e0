import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-denies-everything',
    description: 'An address or host filter with neither allow nor deny refuses every request.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts and the filter refuses every request it sees with 403.',
    category: 'correctness',
  },
};
