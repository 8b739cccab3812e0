import { engineOf, isFalse, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'host-deploy-on-startup',
    description: "A Host deploys everything in its appBase at start-up (deployOnStartup is true, Tomcat's default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat deploys everything found in the appBase at start-up.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['cis-tomcat-10.1:9.2'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const h of engineOf(ctx.base)?.hosts ?? []) {
      const a = h.attributes['deployOnStartup'];
      if (isFalse(a)) continue;
      ctx.report({
        message: `Host "${h.name.value}" ${a ? 'has deployOnStartup="true"' : "has no deployOnStartup attribute (Tomcat's default is true)"}: whatever lies in appBase at start-up is deployed, not only the contexts declared on purpose. CIS 9.2 asks for deployOnStartup="false" (declare contexts in server.xml or conf/<Engine>/<Host>/).`,
        span: a?.span ?? startTag(h.span, 'Host'),
      });
    }
  },
};
