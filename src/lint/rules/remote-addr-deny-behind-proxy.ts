import type { CompiledRegex } from '../../filters/index.js';
import type { Rule } from '../types.js';
import { afterRemoteIp } from './chain-order.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'remote-addr-deny-behind-proxy',
    description:
      'A RemoteAddrFilter deny list without an allow list runs after RemoteIpFilter: other spellings of a denied address pass.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat starts and matches the deny list against an address the client spells in X-Forwarded-For: other spellings of a denied address pass.',
    category: 'security',
    securitySeverity: 5.3,
  },
  visit(ctx) {
    const reported = new Set<string>();
    return {
      context: afterRemoteIp(ctx, 'remote-addr', (ip, after) => {
        for (const f of after) {
          if (f.checked?.spec?.id !== 'remote-addr') continue;
          const config = f.checked.config as { allow: CompiledRegex | null; deny: CompiledRegex | null } | null;
          const deny = paramOf(f.checked.def, 'deny');
          if (!config || config.deny === null || config.allow !== null || !deny) continue;
          const key = `${f.entry.filter.name}\0${deny.value.span.file}\0${deny.value.span.offset}`;
          if (reported.has(key)) continue;
          reported.add(key);
          ctx.report({
            message:
              `RemoteAddrFilter "${f.entry.filter.name}" denies by pattern and allows everything else, and runs after RemoteIpFilter "${ip.entry.filter.name}": ` +
              'for a request through a trusted proxy the address it judges is the X-Forwarded-For entry as the client wrote it, which Tomcat does not normalise, ' +
              'so "010.0.0.1" or "::ffff:10.0.0.1" passes a deny of 10\\.0\\.0\\.1. Allow the clients you mean instead (allow), or use RemoteCIDRFilter, which compares parsed addresses.',
            span: deny.value.span,
            related: [
              {
                message: `RemoteIpFilter "${ip.entry.filter.name}" is mapped here`,
                span: ip.entry.mapping.mapping.span,
              },
            ],
          });
        }
      }),
    };
  },
};
