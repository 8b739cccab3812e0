import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'cors-any-origin',
    description: 'cors.allowed.origins="*" lets any site read responses cross-origin.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and lets every web site read the responses cross-origin.',
    category: 'security',
    securitySeverity: 5.0,
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      const p = paramOf(f.def, 'cors.allowed.origins');
      if (!p || p.value.value.trim() !== '*') return;
      const creds = paramOf(f.def, 'cors.support.credentials');
      if (creds && creds.value.value.trim().toLowerCase() === 'true') return; // cors-credentials-with-any-origin reports that (an error)
      ctx.report({
        message:
          'cors.allowed.origins="*": any web site may read these responses cross-origin. Acceptable only for public, cookie-less data; otherwise list the trusted origins.',
        span: p.value.span,
      });
    },
  }),
};
