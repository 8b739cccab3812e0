import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'webxml-invalid-value',
    description: 'A descriptor value Tomcat cannot read (e.g. a session-timeout that is not a number).',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat cannot read the value (e.g. a session-timeout that is not a number) and the context does not start.',
    category: 'correctness',
  },
};
