import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'file-unreadable', description: 'A configuration file exists but cannot be read.', defaultSeverity: 'error', category: 'correctness' },
};
