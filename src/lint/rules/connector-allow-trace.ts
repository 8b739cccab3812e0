import { connectors, isTrue } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-allow-trace',
    description: 'A connector answers HTTP TRACE (allowTrace="true").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat answers TRACE, which echoes request headers back (cross-site tracing).',
    category: 'security',
    securitySeverity: 4.3,
    benchmarks: ['cis-tomcat-10.1:2.6', 'stig-tomcat:V-222950'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['allowTrace'];
      if (!isTrue(a)) continue;
      ctx.report({
        message:
          'allowTrace="true": Tomcat answers TRACE by echoing the request back (observed on Tomcat 10.1.60: 200 with the request headers in the body), which helps cross-site tracing and shows what proxies add. Remove the attribute (the default is false).',
        span: a!.span,
      });
    }
  },
};
