import { fileStartSpan } from '../../model/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'app-logging-missing',
    description:
      "An application has no WEB-INF/classes/logging.properties, so its log records go to Tomcat's own handlers.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      "JULI gives the application no log of its own: its records mix with every other application's in catalina.out and the server log.",
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['cis-tomcat-10.1:7.1'],
    // Tomcat ships applications without one; only CIS asks for it.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        // A packed WAR is not read (war-not-read says so): its WEB-INF is unknown.
        if (c.loggingProperties || c.docBase.toLowerCase().endsWith('.war')) continue;
        const span = c.webXml ? fileStartSpan(c.webXml.file) : (c.contextDef?.span ?? fileStartSpan(c.docBase));
        ctx.report({
          message: `The application ${c.path === '' ? '/ (ROOT)' : c.path} has no WEB-INF/classes/logging.properties: its records go to the server's handlers, mixed with every other application's. Give it its own file handler (CIS 7.1), e.g. handlers = org.apache.juli.FileHandler with org.apache.juli.FileHandler.prefix = ${c.name === 'ROOT' ? 'root' : c.name.replace(/[#/]/g, '-')}.`,
          span,
        });
      }
    }
  },
};
