import type { CompiledRegex } from '../../filters/index.js';
import { bareDots, matchedByBareDots, matchesAny } from '../address-language.js';
import type { Rule } from '../types.js';
import { addressPatternsOf, ADDRESS_PATTERNS } from './address-regex-matches-nothing.js';

// Identical declarations share one validated config: each pattern object is decided once.
const wider = new WeakMap<CompiledRegex, string | null>();

export const rule: Rule = {
  meta: {
    id: 'address-regex-bare-dot',
    description: 'A dot in an allow, deny or proxy regex that is not escaped: it matches any character.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and the unescaped dot matches any character, so the pattern also matches an address (or host name) it was not written for.',
    variants: [
      {
        severity: 'info',
        effect: 'notes',
        when: 'no address of the form Tomcat compares is matched because of the dot today',
      },
    ],
    category: 'security',
    securitySeverity: 5.0,
  },
  visit: (ctx) => ({
    kinds: Object.keys(ADDRESS_PATTERNS),
    filter(f) {
      for (const { name, kind, p, re } of addressPatternsOf(f)) {
        const dots = bareDots(re.java);
        if (dots.length === 0) continue;
        let example = wider.get(re);
        if (example === undefined) {
          example = matchedByBareDots(re.java, dots, kind);
          wider.set(re, example);
        }
        const what = kind === 'host' ? 'host name' : 'address';
        if (example !== null) {
          ctx.report({
            message: `${name} "${re.java}" has ${dots.length === 1 ? 'a dot' : `${dots.length} dots`} that match any character, not only ".": it also matches the ${what} "${example}", which the pattern with escaped dots does not. Write \\. for a literal dot.`,
            span: p.value.span,
          });
        } else if (matchesAny(re.source, re.flags, kind)?.any) {
          // A pattern that matches nothing at all is address-regex-matches-nothing's finding.
          ctx.report({
            severity: 'info',
            message: `${name} "${re.java}" has ${dots.length === 1 ? 'a dot' : `${dots.length} dots`} that match any character, not only ".". No ${what} of the form Tomcat compares matches because of ${dots.length === 1 ? 'it' : 'them'} today, but the pattern says more than it means: write \\. for a literal dot.`,
            span: p.value.span,
          });
        }
      }
    },
  }),
};
