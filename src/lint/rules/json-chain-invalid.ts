import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'json-chain-invalid',
    description:
      'The JSON chain document does not have the shape of tollgate.chain.json (a wrong type, an unknown key, a missing name).',
    defaultSeverity: 'error',
    effect: 'tollgate',
    reason: 'The JSON chain document does not have the shape tollgate reads, so it is not used.',
    category: 'correctness',
  },
};
