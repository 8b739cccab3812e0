import type { Rule } from '../types.js';
import { filterSpan, paramOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'hsts-max-age-zero', description: 'HSTS enabled with max-age 0 (the default) tells browsers to forget HSTS.', defaultSeverity: 'warning', category: 'security', securitySeverity: 5.0 },
  visit: (ctx) => ({
    kinds: ['http-header-security'],
    filter(f) {
      const enabled = paramOf(f.def, 'hstsEnabled');
      if (enabled && enabled.value.value.trim().toLowerCase() !== 'true') return;
      const age = paramOf(f.def, 'hstsMaxAgeSeconds');
      const n = age ? Number.parseInt(age.value.value.trim(), 10) : 0;
      if (age && /^[+-]?\d+$/.test(age.value.value.trim()) && n > 0) return;
      if (age && !/^[+-]?\d+$/.test(age.value.value.trim())) return; // filter-param-invalid reports it
      ctx.report({
        message: `${age ? `hstsMaxAgeSeconds=${age.value.value.trim()}` : 'HSTS is enabled (the default) but hstsMaxAgeSeconds is not set'}: Tomcat sends "Strict-Transport-Security: max-age=0" on HTTPS responses, which tells browsers to forget HSTS. Set hstsMaxAgeSeconds (e.g. 31536000), or hstsEnabled=false if that is what you mean.`,
        span: age ? age.value.span : filterSpan(f.def),
      });
    },
  }),
};
