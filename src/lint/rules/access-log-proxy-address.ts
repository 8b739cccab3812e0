import { allValves, isTrue, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'access-log-proxy-address',
    description:
      "A RemoteIpValve finds the client address behind a proxy, but the access log still records the proxy's (requestAttributesEnabled is not true).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat logs the proxy's address instead of the client's.",
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['stig-tomcat:V-222937'],
  },
  check(ctx) {
    const valves = allValves(ctx.base);
    if (!valves.some((v) => simpleName(v) === 'RemoteIpValve')) return;
    for (const v of valves) {
      if (!/AccessLogValve$/.test(simpleName(v)) || isTrue(v.attributes['requestAttributesEnabled'])) continue;
      ctx.report({
        message:
          'This AccessLogValve logs the proxy\'s address, not the client\'s the RemoteIpValve found: it reads the request attributes the valve sets only with requestAttributesEnabled="true".',
        span: v.attributes['requestAttributesEnabled']?.span ?? v.className?.span ?? v.span,
      });
    }
  },
};
