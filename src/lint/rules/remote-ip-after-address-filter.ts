import type { Rule } from '../types.js';
import { forEachChainOf, mayRunAfter, type Entries } from './chain-order.js';

const READS_ADDRESS = new Set([
  'remote-addr',
  'remote-host',
  'remote-cidr',
  'rate-limit',
  'http-header-security',
  'rest-csrf-prevention',
  'csrf-prevention',
]);

export const rule: Rule = {
  meta: {
    id: 'remote-ip-after-address-filter',
    description: 'RemoteIpFilter runs after a filter that reads the client address or the scheme.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: "Tomcat starts and the earlier filter decides on the proxy's address and scheme, not the client's.",
    category: 'security',
    securitySeverity: 7.0,
  },
  visit(ctx) {
    const reported = new Set<string>();
    const visit = (entries: Entries): void => {
      const ipAt = entries.findIndex((e) => e.checked?.spec?.id === 'remote-ip');
      if (ipAt <= 0) return;
      for (const before of entries.slice(0, ipAt)) {
        const id = before.checked?.spec?.id;
        if (!id || !READS_ADDRESS.has(id)) continue;
        const ip = entries[ipAt]!;
        // Reported where the user acts: in the application's own file when one of the two mappings is there
        // (a conf/web.xml RemoteIpFilter comes after every application mapping, so the fix is in the
        // application), once per application; once for the shared file when both mappings are in it.
        const ipOwn = ip.entry.mapping.origin === 'app' || ip.entry.mapping.origin === 'tomcat-web';
        const beforeOwn = before.entry.mapping.origin === 'app' || before.entry.mapping.origin === 'tomcat-web';
        const atBefore = beforeOwn && !ipOwn;
        const here = atBefore ? before : ip;
        const there = atBefore ? ip : before;
        const span = here.entry.mapping.mapping.span;
        const key = `${span.file}\0${span.offset}\0${before.entry.filter.name}\0${ip.entry.filter.name}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const shared = there.entry.mapping.mapping.span.file !== span.file;
        ctx.report({
          message: `RemoteIpFilter "${ip.entry.filter.name}" runs after ${before.checked!.spec!.simpleName} "${before.entry.filter.name}", which therefore sees the proxy's address and scheme, not the client's${id.startsWith('remote-') ? ': the allow/deny decision is made on the wrong address' : ''}. Map RemoteIpFilter first.${
            atBefore
              ? ` The RemoteIpFilter is mapped in a shared descriptor, whose mappings Tomcat puts after the application's: map a RemoteIpFilter in this application, before "${before.entry.filter.name}".`
              : ''
          }`,
          span,
          related: [
            {
              message: atBefore
                ? `RemoteIpFilter "${ip.entry.filter.name}" is mapped here${shared ? ', after every mapping of the application' : ''}`
                : `${before.entry.filter.name} is mapped here`,
              span: there.entry.mapping.mapping.span,
            },
          ],
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
