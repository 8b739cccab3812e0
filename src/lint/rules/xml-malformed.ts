import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-malformed',
    description: 'The file is not well-formed XML (or is empty).',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'The parser refuses a file that is not well-formed and the context (or server) does not start.',
    category: 'correctness',
  },
};
