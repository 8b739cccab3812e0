import { connectors, isFalse } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-discard-facades-off',
    description: 'A connector reuses request and response facades between requests (discardFacades="false").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      "Tomcat reuses request and response facades, so a bug in an application can leak one request's data into another.",
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:10.7', 'stig-tomcat:V-222973', 'stig-tomcat:V-223003'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['discardFacades'];
      if (!isFalse(a)) continue;
      ctx.report({
        message:
          'discardFacades="false": the facades that wrap Tomcat\'s request and response are reused, so an application that keeps a reference past its request can read or write another user\'s. Remove it (the default is true; it replaces the RECYCLE_FACADES system property of Tomcat 9).',
        span: a!.span,
      });
    }
  },
};
