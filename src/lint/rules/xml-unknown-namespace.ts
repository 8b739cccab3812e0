import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-unknown-namespace',
    description: 'The deployment descriptor uses a namespace Tomcat does not know.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'Tomcat matches element names, not namespaces, and reads the file; validating parsers and editors reject it.',
    category: 'correctness',
  },
};
