import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'server-no-host',
    description: 'The Engine declares no Host.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts, logs "Unknown default host" and has no host to answer any request with (observed).',
    category: 'correctness',
  },
};
