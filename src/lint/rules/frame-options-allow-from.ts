import type { Rule } from '../types.js';
import { filtersOf, paramOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'frame-options-allow-from', description: 'X-Frame-Options ALLOW-FROM is ignored by current browsers.', defaultSeverity: 'warning', category: 'security', securitySeverity: 4.0 },
  check(ctx) {
    for (const f of filtersOf(ctx, 'http-header-security')) {
      const p = paramOf(f.def, 'antiClickJackingOption');
      if (p && p.value.value.trim().toUpperCase() === 'ALLOW-FROM') {
        ctx.report({ message: 'ALLOW-FROM is not supported by current browsers, which then allow framing from anywhere. Use SAMEORIGIN, or a Content-Security-Policy frame-ancestors directive.', span: p.value.span });
      }
    }
  },
};
