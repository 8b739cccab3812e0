import { engineOf, isFalse, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'host-deploy-xml',
    description: "A Host honours each application's own META-INF/context.xml (deployXML is true, Tomcat's default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat lets each application configure its own Context (META-INF/context.xml).',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['stig-tomcat:V-222955'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const h of engineOf(ctx.base)?.hosts ?? []) {
      const a = h.attributes['deployXML'];
      if (isFalse(a)) continue;
      ctx.report({
        message: `Host "${h.name.value}" ${a ? 'has deployXML="true"' : "has no deployXML attribute (Tomcat's default is true)"}: an application's META-INF/context.xml may then declare privileged="true", its own Realm, Resources or Valves. Set deployXML="false" where applications are not trusted (STIG V-222955).`,
        span: a?.span ?? startTag(h.span, 'Host'),
      });
    }
  },
};
