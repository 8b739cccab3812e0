import { connectors, isTrue } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-secure-without-tls',
    description: 'A connector without TLS claims secure="true" or scheme="https".',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat tells applications the request is secure although it arrived in clear text.',
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:6.3', 'cis-tomcat-10.1:6.4'],
    // Behind a proxy that terminates TLS these are the documented set-up; only CIS asks to keep them for TLS connectors.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      // With SSLEnabled="true" Tomcat 10.1 ignores both attributes and forces secure/https.
      if (c.tls) continue;
      const secure = c.def.attributes['secure'];
      const scheme = c.def.attributes['scheme'];
      if (isTrue(secure)) {
        ctx.report({
          message:
            'secure="true" on a connector without TLS: request.isSecure() is true for plain-text requests, so Secure cookies are issued and CONFIDENTIAL constraints are satisfied over HTTP. Keep it only if a proxy in front terminates TLS for every request (CIS 6.4).',
          span: secure!.span,
          benchmarks: ['cis-tomcat-10.1:6.4'],
        });
      }
      if (scheme && scheme.value.trim().toLowerCase() === 'https') {
        ctx.report({
          message:
            'scheme="https" on a connector without TLS: redirects and getRequestURL() say https for plain-text requests. Keep it only if a proxy in front terminates TLS for every request (CIS 6.3).',
          span: scheme.span,
          benchmarks: ['cis-tomcat-10.1:6.3'],
        });
      }
    }
  },
};
