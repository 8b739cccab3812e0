import type { Rule } from '../types.js';

const LEGACY = /\b(SSLv2|SSLv3|TLSv1(?![.\d])|TLSv1\.1)\b/;

export const rule: Rule = {
  meta: {
    id: 'connector-legacy-tls',
    description: 'A connector enables SSLv3, TLS 1.0 or TLS 1.1.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and offers the broken protocol versions to clients that ask for them.',
    category: 'security',
    securitySeverity: 6.0,
    benchmarks: ['cis-tomcat-10.1:6.5', 'stig-tomcat:V-222929'],
  },
  check(ctx) {
    for (const s of ctx.base.serverXml?.services ?? []) {
      for (const c of s.connectors) {
        for (const [name, a] of [c, ...c.children].flatMap((e) =>
          ['SSLProtocol', 'sslProtocol', 'sslEnabledProtocols', 'protocols'].map((n) => [n, e.attributes[n]] as const),
        )) {
          if (a && LEGACY.test(a.value)) {
            ctx.report({
              message: `${name}="${a.value}" enables ${LEGACY.exec(a.value)![1]}, which is broken and disabled by current clients. Allow TLSv1.2 and TLSv1.3 only.`,
              span: a.span,
            });
          }
        }
      }
    }
  },
};
