import type { Rule } from '../types.js';
import { paramOf } from './util.js';

const HEADERS: [string, string][] = [
  ['antiClickJackingEnabled', 'X-Frame-Options (click-jacking protection)'],
  ['blockContentTypeSniffingEnabled', 'X-Content-Type-Options: nosniff (MIME sniffing protection)'],
];

export const rule: Rule = {
  meta: { id: 'security-header-disabled', description: 'HttpHeaderSecurityFilter with a protective header switched off.', defaultSeverity: 'warning', category: 'security', securitySeverity: 4.0 },
  visit: (ctx) => ({
    kinds: ['http-header-security'],
    filter(f) {
      for (const [name, what] of HEADERS) {
        const p = paramOf(f.def, name);
        if (p && p.value.value.trim().toLowerCase() !== 'true') ctx.report({ message: `${name} is off, so ${what} is not sent. Turn it back on unless another layer sets the header.`, span: p.value.span });
      }
    },
  }),
};
