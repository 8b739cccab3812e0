import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'file-too-large',
    description: 'A configuration file over 8 MiB, left unread.',
    defaultSeverity: 'error',
    effect: 'tollgate',
    reason: 'tollgate leaves a file over 8 MiB unread, so nothing in it is checked.',
    category: 'correctness',
  },
};
