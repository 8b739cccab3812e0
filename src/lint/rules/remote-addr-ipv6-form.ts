import type { CompiledRegex } from '../../filters/index.js';
import type { Rule } from '../types.js';
import { paramOf } from './util.js';

/** Condensed IPv6 forms and the full form a socket address arrives in (what Tomcat's getRemoteAddr returns). */
const SAMPLES: [string, string][] = [
  ['::1', '0:0:0:0:0:0:0:1'],
  ['fe80::1', 'fe80:0:0:0:0:0:0:1'],
  ['::ffff:127.0.0.1', '127.0.0.1'],
];

// Identical declarations share one validated config (lintBase's validation cache): each pattern object is tried once.
const verdicts = new WeakMap<CompiledRegex, [string, string] | null>();

/** The first sample whose condensed form the pattern matches and whose full form it does not, if any. */
function condensedOnly(re: CompiledRegex): [string, string] | null {
  let found = verdicts.get(re);
  if (found === undefined) {
    found = null;
    const rx = new RegExp(re.source, re.flags);
    for (const sample of SAMPLES) {
      if (rx.test(sample[0]) && !rx.test(sample[1])) {
        found = sample;
        break;
      }
    }
    verdicts.set(re, found);
  }
  return found;
}

export const rule: Rule = {
  meta: {
    id: 'remote-addr-ipv6-form',
    description: 'An address regex written for the condensed IPv6 form (::1), which a socket address never has.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and compares the full IPv6 form (0:0:0:0:0:0:0:1), which the pattern never matches: that client is not allowed, denied or trusted as written.',
    category: 'security',
    securitySeverity: 6.0,
  },
  visit: (ctx) => ({
    kinds: ['remote-addr', 'remote-ip'],
    filter(f) {
      const config = f.config as Record<string, CompiledRegex | null> | null;
      if (!config) return;
      for (const name of ['allow', 'deny', 'internalProxies', 'trustedProxies']) {
        const p = paramOf(f.def, name);
        const re = config[name];
        if (!p || !re) continue;
        const sample = condensedOnly(re);
        if (!sample) continue;
        const [short, full] = sample;
        const effect =
          name === 'allow'
            ? 'allows nothing for that client'
            : name === 'deny'
              ? 'denies nothing for that client'
              : 'never trusts that proxy';
        ctx.report({
          message: `${name} matches "${short}" but not "${full}", the form Tomcat gives the address of that client: the pattern ${effect}. Match the full form too (e.g. ${short === '::1' ? '0:0:0:0:0:0:0:1|::1' : full}).`,
          span: p.value.span,
        });
      }
    },
  }),
};
