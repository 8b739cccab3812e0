import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'file-unreadable',
    description: 'A configuration file exists but cannot be read.',
    defaultSeverity: 'error',
    effect: 'tollgate',
    reason:
      'tollgate cannot read the file, so it cannot tell what Tomcat makes of it, and does not run what depends on it (a WEB-INF/web.xml that is a directory, Tomcat skips and starts the context: observed).',
    category: 'correctness',
  },
};
