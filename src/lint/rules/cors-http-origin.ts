import type { Rule } from '../types.js';
import { paramOf } from './util.js';

const MAY_BE_WEAK = /http:\/\/|localhost|127\.|\[::1\]/i;

export const rule: Rule = {
  meta: {
    id: 'cors-http-origin',
    description: 'cors.allowed.origins trusts plain-http or localhost origins.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and trusts origins a network attacker or a local program can impersonate.',
    category: 'security',
    securitySeverity: 4.0,
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      const p = paramOf(f.def, 'cors.allowed.origins');
      // Every entry the regexes below can match holds one of these: most lists hold none, and need not be split.
      if (!p || p.value.value.trim() === '*' || !MAY_BE_WEAK.test(p.value.value)) return;
      const weak = p.value.value
        .split(',')
        .map((s) => s.trim())
        .filter((o) => /^http:\/\//i.test(o) || /^https?:\/\/(localhost|127\.|\[::1\])/i.test(o));
      if (weak.length) {
        ctx.report({
          message: `cors.allowed.origins trusts ${weak.join(', ')}: plain-http and localhost origins can be impersonated on the network or by any local program. Keep development origins out of production configuration.`,
          span: p.value.span,
        });
      }
    },
  }),
};
