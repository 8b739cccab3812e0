import { connectors } from '../hardening.js';
import type { Rule } from '../types.js';

/** A Server header value that names the product or a version. */
const REVEALING = /tomcat|coyote|apache|catalina|jboss|jetty|\d+\.\d+/i;

export const rule: Rule = {
  meta: {
    id: 'connector-server-header',
    description: "A connector's server attribute names the server software or its version.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat names the server software in every response, which helps an attacker pick exploits.',
    category: 'security',
    securitySeverity: 3.7,
    benchmarks: ['cis-tomcat-10.1:2.7', 'cis-tomcat-10.1:2.4'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['server'];
      // Without the attribute Tomcat 10.1 sends no Server header at all (observed), which reveals less than any value.
      if (!a || !REVEALING.test(a.value)) continue;
      ctx.report({
        message: `server="${a.value}" is sent as the Server header of every response and names the software${/\d+\.\d+/.test(a.value) ? ' and its version' : ''}. Remove the attribute (Tomcat 10.1 then sends no Server header) or use a neutral value.`,
        span: a.span,
      });
    }
  },
};
