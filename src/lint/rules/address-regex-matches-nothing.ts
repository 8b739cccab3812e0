import type { CompiledRegex } from '../../filters/index.js';
import { matchesAny, type AddressKind } from '../address-language.js';
import type { CatalinaBase, Param } from '../../model/index.js';
import type { CheckedFilter, Rule } from '../types.js';
import { paramOf } from './util.js';

/** The regex parameters compared with a client's address or host name, and what each is compared with. */
export const ADDRESS_PATTERNS: Record<string, Record<string, Exclude<AddressKind, 'condensed-ipv6'>>> = {
  'remote-addr': { allow: 'address', deny: 'address' },
  'remote-host': { allow: 'host', deny: 'host' },
  'remote-ip': { internalProxies: 'forwarded', trustedProxies: 'forwarded' },
};

const SEEN = {
  address: 'address in the form Tomcat gives it (127.0.0.1, 0:0:0:0:0:0:0:1)',
  forwarded: 'address (127.0.0.1, 0:0:0:0:0:0:0:1, or ::1 as a proxy may write it)',
  host: 'host name or address',
};

/** The address patterns a validated filter sets, each with the value Tomcat compares it with. */
export function addressPatternsOf(
  f: CheckedFilter,
): { name: string; kind: Exclude<AddressKind, 'condensed-ipv6'>; p: Param; re: CompiledRegex }[] {
  const config = f.config as Record<string, CompiledRegex | null> | null;
  const params = f.spec ? ADDRESS_PATTERNS[f.spec.id] : undefined;
  if (!config || !params) return [];
  const out: { name: string; kind: Exclude<AddressKind, 'condensed-ipv6'>; p: Param; re: CompiledRegex }[] = [];
  for (const [name, kind] of Object.entries(params)) {
    const p = paramOf(f.def, name);
    const re = config[name];
    if (p && re?.source) out.push({ name, kind, p, re });
  }
  return out;
}

// Identical declarations share one validated config (lintBase's validation cache): each pattern object is decided once
// per kind of value it is compared with.
const verdicts: Record<string, WeakMap<CompiledRegex, boolean>> = {};

/**
 * Whether RemoteHostFilter can see host names: only through a connector with enableLookups="true" (Tomcat's default is
 * false, and then request.getRemoteHost() is the address). Unknown without server.xml, so names are assumed possible.
 */
function namesResolved(base: CatalinaBase): boolean {
  if (!base.serverXml) return true;
  return base.serverXml.services.some((s) =>
    s.connectors.some((c) => c.attributes['enableLookups']?.value.trim().toLowerCase() === 'true'),
  );
}

export const rule: Rule = {
  meta: {
    id: 'address-regex-matches-nothing',
    description: 'An allow, deny or proxy regex that no client address (or host name) can match.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and the pattern matches no address: an allow list refuses everyone, a deny list denies no one, a proxy list trusts no proxy.',
    category: 'security',
    securitySeverity: 6.0,
  },
  visit: (ctx) => {
    const names = namesResolved(ctx.base);
    return {
      kinds: Object.keys(ADDRESS_PATTERNS),
      filter(f) {
        for (const { name, kind: written, p, re } of addressPatternsOf(f)) {
          // Without lookups a host-name pattern is compared with the address, and a name-only pattern matches no client.
          const kind = written === 'host' && !names ? 'address' : written;
          const known = (verdicts[kind] ??= new WeakMap());
          let none = known.get(re);
          if (none === undefined) {
            const r = matchesAny(re.source, re.flags, kind);
            // A pattern that matches only the condensed IPv6 form is remote-addr-ipv6-form's finding, with its own advice.
            none =
              r !== null && !r.any && !(kind === 'address' && matchesAny(re.source, re.flags, 'condensed-ipv6')?.any);
            known.set(re, none);
          }
          if (!none) continue;
          const effect =
            name === 'allow'
              ? 'every request is refused'
              : name === 'deny'
                ? 'it denies no one'
                : name === 'internalProxies'
                  ? "no proxy is trusted, so the client address stays the proxy's"
                  : 'no proxy in X-Forwarded-For is trusted';
          const why =
            kind !== written
              ? ` (no connector sets enableLookups="true", so RemoteHostFilter compares the client's address, not its host name)`
              : '';
          ctx.report({
            message: `${name} "${re.java}" cannot match any ${SEEN[kind]}${why}, so ${effect}. ${kind !== written ? 'Write the pattern for addresses (or use RemoteAddrFilter / RemoteCIDRFilter), or set enableLookups="true" on the connector.' : 'Check the pattern against the address it should match (escape dots as \\., write IPv6 in full).'}`,
            span: p.value.span,
          });
        }
      },
    };
  },
};
