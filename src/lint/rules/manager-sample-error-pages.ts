import { join } from 'node:path';
import { fileStartSpan } from '../../model/index.js';
import { readTextInScope, scopeOf } from '../../parser/files.js';
import { isAdminApp } from '../hardening.js';
import type { Rule } from '../types.js';

/** The sample user the stock 401/403 pages print (`<user username="tomcat" password="s3cret" …/>`, HTML-escaped). */
const SAMPLE = /&lt;user\s+username="[^"]*"\s+password="[^"]*"/;

export const rule: Rule = {
  meta: {
    id: 'manager-sample-error-pages',
    description:
      "The manager's or host manager's 401/402/403 error pages still print Tomcat's sample user and password.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat shows every visitor refused by the manager a tomcat-users.xml line with a user name, a password and the role that opens it.',
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-222976'],
    // Tomcat ships these pages; only the STIG asks to change them.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const scope = scopeOf(ctx.base);
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (!isAdminApp(c)) continue;
        for (const page of ['401.jsp', '402.jsp', '403.jsp']) {
          const file = join(c.docBase, 'WEB-INF', 'jsp', page);
          const read = readTextInScope(file, scope, 'latin1');
          if (!('text' in read)) continue;
          const text = read.text;
          const m = SAMPLE.exec(text);
          if (!m) continue;
          const line = text.slice(0, m.index).split('\n').length;
          ctx.report({
            message: `${c.path}'s WEB-INF/jsp/${page} prints Tomcat's sample account (${m[0].replace(/&lt;/g, '<')} …) to everyone the manager refuses. Replace the example with a generic message.`,
            span: { ...fileStartSpan(file), line, endLine: line },
          });
        }
      }
    }
  },
};
