import type { CompiledRegex } from '../../filters/index.js';
import type { Rule } from '../types.js';
import { afterRemoteIp, type Entries } from './chain-order.js';
import { paramOf } from './util.js';

/** Public addresses in the forms a socket gives them (IPv6 in the full form): a proxy list that matches one trusts the internet. */
const PUBLIC_SAMPLES = ['203.0.113.9', '8.8.8.8', '198.51.100.23', '2001:db8:0:0:0:0:0:1', '2606:4700:0:0:0:0:0:1111'];

const verdicts = new WeakMap<CompiledRegex, string | null>();

/** A public address the pattern accepts as a proxy, if any. */
function publicMatch(re: CompiledRegex): string | null {
  let found = verdicts.get(re);
  if (found === undefined) {
    const rx = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
    found = PUBLIC_SAMPLES.find((a) => rx.test(a)) ?? null;
    verdicts.set(re, found);
  }
  return found;
}

export const rule: Rule = {
  meta: {
    id: 'rate-limit-spoofable-client',
    description:
      'RateLimitFilter counts the address RemoteIpFilter takes from X-Forwarded-For while RemoteIpFilter trusts public addresses as proxies.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat starts and counts a client address any client can set in X-Forwarded-For, so the limit can be dodged.',
    category: 'security',
    securitySeverity: 5.3,
  },
  visit(ctx) {
    const reported = new Set<string>();
    const visit = (ip: Entries[number], after: Entries): void => {
      const config = ip.checked!.config as {
        internalProxies: CompiledRegex | null;
        trustedProxies: CompiledRegex | null;
      } | null;
      if (!config) return;
      let broad: { name: string; address: string } | null = null;
      for (const name of ['internalProxies', 'trustedProxies'] as const) {
        const re = config[name];
        const address = re ? publicMatch(re) : null;
        if (address !== null) {
          broad = { name, address };
          break;
        }
      }
      if (broad === null) return;
      const limiter = after.find((e) => e.checked?.spec?.id === 'rate-limit');
      if (limiter === undefined) return;
      const key = `${ip.entry.filter.name}\0${limiter.entry.filter.name}`;
      if (reported.has(key)) return;
      reported.add(key);
      const param = paramOf(ip.checked!.def, broad.name);
      ctx.report({
        message:
          `RemoteIpFilter "${ip.entry.filter.name}" accepts public addresses such as ${broad.address} as proxies (${broad.name}), and RateLimitFilter "${limiter.entry.filter.name}" runs after it: ` +
          'any client can send X-Forwarded-For, and each new value it sends is counted as a new client with a fresh window, so the limit holds back nobody who rotates the header. ' +
          'List only your own proxies and load balancers in internalProxies/trustedProxies.',
        span: param ? param.value.span : ip.entry.mapping.mapping.span,
        related: [
          {
            message: `RateLimitFilter "${limiter.entry.filter.name}" is mapped here`,
            span: limiter.entry.mapping.mapping.span,
          },
        ],
      });
    };
    return { context: afterRemoteIp(ctx, 'rate-limit', visit) };
  },
};
