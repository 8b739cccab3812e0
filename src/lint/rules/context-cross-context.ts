import { contextSites, isTrue, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'context-cross-context',
    description: 'An application can reach other applications\' contexts (crossContext="true").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat lets the application reach other applications' request dispatchers.",
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:10.14'],
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      const a = site.def.attributes['crossContext'];
      if (!isTrue(a)) continue;
      ctx.report({
        message: `crossContext="true" in ${siteName(site)}: ServletContext.getContext() hands the application the other applications of the host, so it can dispatch into them past their filters' mappings. Remove it (the default is false).`,
        span: a!.span,
      });
    }
  },
};
