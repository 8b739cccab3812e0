import { allValves, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

/** Public addresses as a socket gives them: a proxy pattern that matches one trusts the internet. */
const PUBLIC_SAMPLES = ['203.0.113.9', '8.8.8.8', '198.51.100.23', '2001:db8:0:0:0:0:0:1'];

/** The first public sample a Java regular expression (matched whole, as Matcher.matches does) accepts. */
function publicMatch(pattern: string): string | null {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`);
  } catch {
    // A pattern JavaScript cannot read is left to the filter-param-regex family of checks.
    return null;
  }
  return PUBLIC_SAMPLES.find((a) => re.test(a)) ?? null;
}

export const rule: Rule = {
  meta: {
    id: 'remote-ip-valve-trusts-any',
    description:
      'A RemoteIpValve trusts public addresses as proxies (internalProxies or trustedProxies), so any client can choose the address Tomcat sees.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat takes the client address from X-Forwarded-For of any client the pattern accepts as a proxy.',
    category: 'security',
    securitySeverity: 6.5,
  },
  check(ctx) {
    const valves = allValves(ctx.base);
    for (const v of valves) {
      if (simpleName(v) !== 'RemoteIpValve') continue;
      for (const name of ['internalProxies', 'trustedProxies']) {
        const a = v.attributes[name];
        const address = a ? publicMatch(a.value) : null;
        if (!a || address === null) continue;
        ctx.report({
          message: `${name}="${a.value}" accepts ${address} as a proxy: any client can send X-Forwarded-For and Tomcat takes its value as the client address, so RemoteAddrValve/RemoteCIDRValve rules, access logs and getRemoteAddr() see whatever the client wrote. List only your own proxies.`,
          span: a.span,
        });
        break;
      }
    }
  },
};
