import type { Rule } from '../types.js';
import { paramOf } from './util.js';
import { headerSentAnyway } from './webapp.js';

const HEADERS: [string, string][] = [
  ['antiClickJackingEnabled', 'X-Frame-Options (click-jacking protection)'],
  ['blockContentTypeSniffingEnabled', 'X-Content-Type-Options: nosniff (MIME sniffing protection)'],
];

export const rule: Rule = {
  meta: {
    id: 'security-header-disabled',
    description:
      'HttpHeaderSecurityFilter with a protective header switched off, and no other header filter of the same requests sends it.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat does not send the protective header.',
    category: 'security',
    securitySeverity: 4.0,
  },
  // A check, run once every filter is validated: the chains a filter runs in take filters of other descriptors.
  check(ctx) {
    for (const f of ctx.ofKind('http-header-security')) {
      for (const [name, what] of HEADERS) {
        const p = paramOf(f.def, name);
        if (!p || p.value.value.trim().toLowerCase() === 'true' || headerSentAnyway(ctx, f, name)) continue;
        ctx.report({
          message: `${name} is off and no other HttpHeaderSecurityFilter of the same requests sends it, so ${what} is not sent. Turn it back on unless another layer sets the header.`,
          span: p.value.span,
        });
      }
    }
  },
};
