import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'hsts-disabled', description: 'HttpHeaderSecurityFilter with hstsEnabled=false sends no Strict-Transport-Security.', defaultSeverity: 'warning', category: 'security', securitySeverity: 5.0 },
  visit: (ctx) => ({
    kinds: ['http-header-security'],
    filter(f) {
      const p = paramOf(f.def, 'hstsEnabled');
      if (p && p.value.value.trim().toLowerCase() !== 'true') {
        ctx.report({ message: 'hstsEnabled is off: browsers are never told to insist on HTTPS, so a network attacker can downgrade the first request. Enable it with a real hstsMaxAgeSeconds (e.g. 31536000).', span: p.value.span });
      }
    },
  }),
};
