import { contextSites, isTrue, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'context-reloadable',
    description: 'An application reloads itself when its classes change (reloadable="true"), a development setting.',
    defaultSeverity: 'info',
    effect: 'notes',
    reason: 'Tomcat watches the classes and reloads the application when they change, a development setting.',
    category: 'hygiene',
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      const a = site.def.attributes['reloadable'];
      if (!isTrue(a)) continue;
      ctx.report({
        message: `reloadable="true" in ${siteName(site)}: Tomcat polls WEB-INF/classes and WEB-INF/lib and restarts the application when they change, dropping its sessions, and a class written there goes live without a deployment. Keep it for development.`,
        span: a!.span,
      });
    }
  },
};
