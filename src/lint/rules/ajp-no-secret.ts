import { bindsAll, connectors, isFalse, isLoopback, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'ajp-no-secret',
    description:
      'An AJP connector accepts requests without a shared secret (Ghostcat, CVE-2020-1938), or cannot start for want of one.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts an AJP connector that accepts requests from anyone who reaches it (Ghostcat, CVE-2020-1938).',
    variants: [
      {
        severity: 'error',
        effect: 'refuses',
        when: 'secretRequired without a secret: Tomcat does not start the connector ("Protocol handler start failed", observed) and the server runs without it',
      },
      {
        severity: 'warning',
        effect: 'weakens',
        when: 'secretRequired="false" on a loopback address: only local processes (or a request forgery through them) reach it',
      },
    ],
    category: 'security',
    securitySeverity: 9.8,
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      if (c.kind !== 'ajp') continue;
      const a = c.def.attributes;
      if ((a['secret']?.value ?? '') !== '') continue;
      const at = startTag(c.def.span, 'Connector');
      if (isFalse(a['secretRequired'])) {
        // Observed (scripts/observe-hardening.mjs): a forward request without any secret is answered 200.
        const reachable = !isLoopback(c);
        ctx.report({
          severity: reachable ? 'error' : 'warning',
          message: reachable
            ? `AJP connector with secretRequired="false" and no secret on ${bindsAll(c) ? 'every address' : `address ${a['address']!.value}`}: anyone who reaches the port is a trusted proxy, can read any file of any application and set request attributes (Ghostcat, CVE-2020-1938). Set a secret (and secretRequired="true"), or remove the connector.`
            : 'AJP connector with secretRequired="false" and no secret: any local process (or SSRF) that reaches the port is a trusted proxy, can read any file of any application and set request attributes (Ghostcat, CVE-2020-1938). Set a secret shared with the proxy.',
          span: a['secretRequired']!.span,
        });
      } else {
        ctx.report({
          effect: 'refuses',
          message:
            'AJP connector without a secret: Tomcat 10.1 refuses to start it ("secretRequired=\\"true\\" but the secret attribute is either null or \\"\\""), so the proxy in front gets no answer. Set secret="..." to the value the proxy sends.',
          span: at,
        });
      }
    }
  },
};
