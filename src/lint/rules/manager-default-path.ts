import { fileStartSpan } from '../../model/index.js';
import { isAdminApp, isHostManager, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'manager-default-path',
    description: "Tomcat's manager application is deployed at /manager, the path every scanner tries.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat serves the manager's login where every automated password-guessing tool looks for it.",
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['cis-tomcat-10.1:10.5'],
    // Renaming hides the manager without protecting it (manager-unrestricted does that); only CIS asks.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (c.path !== '/manager' || !isAdminApp(c) || isHostManager(c)) continue;
        ctx.report({
          message: `Tomcat's manager is deployed at /manager${c.source === 'context-file' ? ' (by conf/<Engine>/<Host>/manager.xml)' : c.source === 'app-dir' ? ' (the directory webapps/manager)' : ''}. CIS 10.5 asks for a name of your own: rename the context file or directory (e.g. manager.xml -> ops-7f3a.xml) and update the links that use it.`,
          span: c.contextDef ? startTag(c.contextDef.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase),
        });
      }
    }
  },
};
