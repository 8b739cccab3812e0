import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-encoding',
    description: 'The declared encoding is unknown or the bytes are not valid in it.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'The parser cannot decode the file, so Tomcat refuses it.',
    category: 'correctness',
  },
};
