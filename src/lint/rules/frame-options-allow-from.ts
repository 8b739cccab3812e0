import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'frame-options-allow-from',
    description: 'X-Frame-Options ALLOW-FROM is ignored by current browsers.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat sends ALLOW-FROM, which current browsers ignore: the page can be framed by anyone.',
    category: 'security',
    securitySeverity: 4.0,
  },
  visit: (ctx) => ({
    kinds: ['http-header-security'],
    filter(f) {
      const p = paramOf(f.def, 'antiClickJackingOption');
      if (p && p.value.value.trim().toUpperCase() === 'ALLOW-FROM') {
        ctx.report({
          message:
            'ALLOW-FROM is not supported by current browsers, which then allow framing from anywhere. Use SAMEORIGIN, or a Content-Security-Policy frame-ancestors directive.',
          span: p.value.span,
        });
      }
    },
  }),
};
