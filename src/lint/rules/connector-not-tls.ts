import { connectors, isTrue, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-not-tls',
    description:
      'An HTTP connector is neither TLS (SSLEnabled) nor marked secure behind a TLS proxy (secure="true" scheme="https").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat serves the connector in clear text.',
    category: 'security',
    securitySeverity: 5.9,
    benchmarks: ['stig-tomcat:V-222935'],
    // Plain HTTP (Tomcat's shipped 8080 connector) is a sensible default; the STIG asks for every connector to be secured.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      if (c.kind !== 'http' || c.tls) continue;
      const a = c.def.attributes;
      if (isTrue(a['secure']) && a['scheme']?.value.trim().toLowerCase() === 'https') continue;
      ctx.report({
        message: `Connector on port ${a['port']?.value ?? '?'} serves plain HTTP: set SSLEnabled="true" with an SSLHostConfig (Tomcat 10.1 then forces secure="true" and scheme="https" itself), or, behind a proxy that terminates TLS, secure="true" scheme="https".`,
        span: startTag(c.def.span, 'Connector'),
      });
    }
  },
};
