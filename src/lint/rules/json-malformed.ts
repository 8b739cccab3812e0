import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'json-malformed',
    description: 'The JSON chain document is not valid JSON.',
    defaultSeverity: 'error',
    effect: 'tollgate',
    reason: 'The JSON chain document cannot be parsed, so it is not used.',
    category: 'correctness',
  },
};
