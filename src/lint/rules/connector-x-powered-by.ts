import { connectors, isTrue } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-x-powered-by',
    description:
      'A connector sends the X-Powered-By header (xpoweredBy="true"), naming Tomcat, its version and the JVM.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat names itself, its version and the JVM in every response.',
    category: 'security',
    securitySeverity: 3.7,
    benchmarks: ['cis-tomcat-10.1:2.4', 'stig-tomcat:V-222957'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['xpoweredBy'];
      if (!isTrue(a)) continue;
      ctx.report({
        message:
          'xpoweredBy="true": every response carries "X-Powered-By: Servlet/6.0 JSP/3.1 (Apache Tomcat/10.1.x ... Java/...)" (observed on Tomcat 10.1.60), telling attackers which CVEs apply. Remove the attribute (the default is false).',
        span: a!.span,
      });
    }
  },
};
