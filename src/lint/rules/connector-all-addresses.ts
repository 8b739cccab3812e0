import { bindsAll, connectors, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-all-addresses',
    description: 'A connector listens on every network interface.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat listens on every network interface, including ones it need not be reached on.',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['stig-tomcat:V-223009'],
  },
  check(ctx) {
    // An HTTP connector on every interface is what a web server is for: only the STIG asks for an address.
    const strict = ctx.profile === 'stig';
    for (const c of connectors(ctx.base)) {
      if (!bindsAll(c) || (c.kind === 'http' && !strict)) continue;
      const address = c.def.attributes['address'];
      const port = c.def.attributes['port']?.value ?? '?';
      ctx.report({
        message:
          c.kind === 'ajp'
            ? `AJP connector on port ${port} listens on every interface (address="${address?.value}"): AJP trusts its peer with request attributes and the client's identity, so only the proxy may reach it. Bind it to the address the proxy connects to (Tomcat's default is the loopback address).`
            : `Connector on port ${port} has no address, so Tomcat binds every interface; the STIG (V-223009) asks for the interface the system security plan names. Set address="...".`,
        span: address?.span ?? startTag(c.def.span, 'Connector'),
      });
    }
  },
};
