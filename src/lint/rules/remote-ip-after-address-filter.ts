import type { Rule } from '../types.js';
import { forEachChainOf, mayRunAfter, type Entries } from './chain-order.js';

const READS_ADDRESS = new Set(['remote-addr', 'remote-host', 'remote-cidr', 'rate-limit', 'http-header-security', 'rest-csrf-prevention', 'csrf-prevention']);

export const rule: Rule = {
  meta: { id: 'remote-ip-after-address-filter', description: 'RemoteIpFilter runs after a filter that reads the client address or the scheme.', defaultSeverity: 'error', category: 'security', securitySeverity: 7.0 },
  visit(ctx) {
    const reported = new Set<string>();
    const visit = (entries: Entries): void => {
      const ipAt = entries.findIndex((e) => e.checked?.spec?.id === 'remote-ip');
      if (ipAt <= 0) return;
      for (const before of entries.slice(0, ipAt)) {
        const id = before.checked?.spec?.id;
        if (!id || !READS_ADDRESS.has(id)) continue;
        const key = `${before.entry.filter.name}\0${entries[ipAt]!.entry.filter.name}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const ip = entries[ipAt]!;
        ctx.report({
          message: `RemoteIpFilter "${ip.entry.filter.name}" runs after ${before.checked!.spec!.simpleName} "${before.entry.filter.name}", which therefore sees the proxy's address and scheme, not the client's${id.startsWith('remote-') ? ': the allow/deny decision is made on the wrong address' : ''}. Map RemoteIpFilter first.`,
          span: ip.entry.mapping.mapping.span,
          related: [{ message: `${before.entry.filter.name} is mapped here`, span: before.entry.mapping.mapping.span }],
        });
      }
    };
    return {
      context(_c, i) {
        if (mayRunAfter(ctx, i, 'remote-ip', READS_ADDRESS)) forEachChainOf(ctx, i, visit);
      },
    };
  },
};
