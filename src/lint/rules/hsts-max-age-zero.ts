import type { Rule } from '../types.js';
import { effectiveParamSets, filterSpan, paramOf } from './util.js';
import { secureRequestsPossible } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'hsts-max-age-zero',
    description: 'HSTS enabled with max-age 0 (the default) tells browsers to forget HSTS.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat sends "Strict-Transport-Security: max-age=0" on secure responses, which tells browsers to forget HSTS.',
    category: 'security',
    securitySeverity: 5.0,
  },
  // A check, run once every filter is validated: whether any request is secure depends on all of them (RemoteIpFilter).
  check(ctx) {
    for (const f of ctx.ofKind('http-header-security')) {
      // The header goes out on secure requests only (Tomcat's own conf/web.xml ships this very block commented out, and
      // a base with no TLS connector and no proxy-scheme valve or filter never sends it): then max-age=0 changes nothing.
      if (!secureRequestsPossible(ctx, f)) continue;
      const enabled = paramOf(f.def, 'hstsEnabled');
      if (enabled && enabled.value.value.trim().toLowerCase() !== 'true') continue;
      const age = paramOf(f.def, 'hstsMaxAgeSeconds');
      // A definition overriding a same-named filter of conf/web.xml inherits what it does not set: judged where it is written.
      if (!enabled || !age) {
        const inherited = (name: string, off?: boolean) =>
          effectiveParamSets(ctx, f.def).some((params) =>
            params.some(
              (x) =>
                x.name.value === name &&
                !f.def.initParams.includes(x) &&
                (!off || x.value.value.trim().toLowerCase() !== 'true'),
            ),
          );
        // HSTS switched off by the inherited hstsEnabled sends no header at all; an inherited max-age is judged on the global filter.
        if ((!enabled && inherited('hstsEnabled', true)) || (!age && inherited('hstsMaxAgeSeconds'))) continue;
      }
      const n = age ? Number.parseInt(age.value.value.trim(), 10) : 0;
      if (age && /^[+-]?\d+$/.test(age.value.value.trim()) && n > 0) continue;
      if (age && !/^[+-]?\d+$/.test(age.value.value.trim())) continue; // filter-param-invalid reports it
      ctx.report({
        message: `${age ? `hstsMaxAgeSeconds=${age.value.value.trim()}` : 'HSTS is enabled (the default) but hstsMaxAgeSeconds is not set'}: Tomcat sends "Strict-Transport-Security: max-age=0" on HTTPS responses, which tells browsers to forget HSTS. Set hstsMaxAgeSeconds (e.g. 31536000), or hstsEnabled=false if that is what you mean.`,
        span: age ? age.value.span : filterSpan(f.def),
      });
    }
  },
};
