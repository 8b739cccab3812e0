import { engineOf, isFalse, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'host-auto-deploy',
    description:
      "A Host deploys applications dropped into its appBase while running (autoDeploy is true, Tomcat's default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat deploys whatever is dropped into the appBase while it runs.',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['cis-tomcat-10.1:9.1', 'stig-tomcat:V-222956'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const h of engineOf(ctx.base)?.hosts ?? []) {
      const a = h.attributes['autoDeploy'];
      if (isFalse(a)) continue;
      ctx.report({
        message: `Host "${h.name.value}" ${a ? 'has autoDeploy="true"' : "has no autoDeploy attribute (Tomcat's default is true)"}: a WAR or directory written into appBase starts running without a restart, so a file-write bug becomes code execution. Set autoDeploy="false" in production.`,
        span: a?.span ?? startTag(h.span, 'Host'),
      });
    }
  },
};
