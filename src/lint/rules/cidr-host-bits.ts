import { splitCommaSeparated } from '../../filters/java-text.js';
import { subSpan } from '../../filters/validate.js';
import { formatIpJava, parseCidr } from '../../protocol/net.js';
import type { Rule } from '../types.js';
import { paramOf } from './util.js';

/** The address with every bit past the prefix cleared, or null when none was set. */
function network(bytes: readonly number[], prefix: number): number[] | null {
  const out = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & (0xff << (8 - keep)) & 0xff;
  });
  return out.some((b, i) => b !== bytes[i]) ? out : null;
}

export const rule: Rule = {
  meta: {
    id: 'cidr-host-bits',
    description:
      'A RemoteCIDRFilter entry with bits set past its prefix (10.1.2.3/24): it stands for the whole network, not that address.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'NetMask clears the bits past the prefix without a word: the entry stands for the whole network, not the address written.',
    category: 'security',
    securitySeverity: 4.0,
  },
  visit: (ctx) => ({
    kinds: ['remote-cidr'],
    filter(f) {
      for (const name of ['allow', 'deny']) {
        const p = paramOf(f.def, name);
        if (!p) continue;
        for (const piece of splitCommaSeparated(p.value.value)) {
          // Legacy and malformed forms are filter-param-cidr's findings; an entry with a port pattern never matches.
          if (!piece.text.includes('/') || piece.text.includes(';')) continue;
          const r = parseCidr(piece.text);
          if (!r.ok) continue;
          const { bytes, prefix } = r.cidr;
          const net = network(bytes, prefix);
          if (!net) continue;
          const netText = `${formatIpJava(Uint8Array.from(net))}/${prefix}`;
          const host = piece.text.slice(0, piece.text.indexOf('/'));
          const full = bytes.length * 8;
          const count = full - prefix >= 31 ? `2^${full - prefix}` : (2 ** (full - prefix)).toLocaleString('en-US');
          ctx.report({
            message: `"${piece.text}" has bits set past /${prefix}: Tomcat's NetMask clears them without a word and ${name === 'allow' ? 'allows' : 'denies'} the whole network ${netText} (${count} addresses), not ${host} alone (observed: allow="127.1.2.3/16" refuses 127.0.0.1, allow="127.0.0.1/8" admits it). Write ${netText} for the network, or ${host}/${full} for the one address.`,
            span: subSpan(p.value, piece.offset, piece.text.length),
          });
        }
      }
    },
  }),
};
