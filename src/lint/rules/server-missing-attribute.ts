import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'server-missing-attribute',
    description: 'A server.xml element lacks a required attribute.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'Tomcat cannot configure the element without it.',
    category: 'correctness',
  },
};
