import { contextSites, isAdminApp, isTrue, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'context-privileged',
    description: 'An application other than Tomcat\'s manager or host-manager runs privileged (privileged="true").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat gives the application access to its own internal classes.',
    category: 'security',
    securitySeverity: 7.2,
    benchmarks: ['cis-tomcat-10.1:10.13', 'stig-tomcat:V-222961'],
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      const a = site.def.attributes['privileged'];
      if (!isTrue(a)) continue;
      // The manager and host-manager need it (their servlets are container servlets).
      if (site.scope === 'context' && site.contexts.every(isAdminApp)) continue;
      ctx.report({
        message: `privileged="true" in ${siteName(site)}: the application may load Tomcat's own classes (org.apache.catalina.*) and use container servlets, so any flaw in it reaches the container. Only the manager and host-manager need it.`,
        span: a!.span,
      });
    }
  },
};
