import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'xml-malformed', description: 'The file is not well-formed XML (or is empty).', defaultSeverity: 'error', category: 'correctness' },
};
