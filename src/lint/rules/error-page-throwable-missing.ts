import type { WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { perDescriptor, layersOf, rootSpan } from './webapp.js';

/** Whether the descriptor has a page that catches every exception: by java.lang.Throwable, or the default error page (Servlet 3.0+). */
const catchesThrowable = perDescriptor((w: WebXml): boolean => {
  for (const p of w.errorPages ?? []) {
    if (!p.location?.value.trim()) continue;
    const type = p.exceptionType?.value.trim();
    if (type === 'java.lang.Throwable' || (!type && !p.errorCode)) return true;
  }
  return false;
});

export const rule: Rule = {
  meta: {
    id: 'error-page-throwable-missing',
    description: 'No <error-page> for java.lang.Throwable: an uncaught exception is answered by the ErrorReportValve.',
    defaultSeverity: 'warning',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['cis-tomcat-10.1:2.5'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit(ctx) {
    const reported = new Set<WebXml>();
    return {
      context(c) {
        const layers = layersOf(ctx.base, c);
        if (layers.some(catchesThrowable)) return;
        // conf/web.xml's page reaches every application, so that is where one fix covers all.
        const where = ctx.base.globalWebXml ?? c.host.webXmlDefault ?? c.context.webXml;
        if (!where || reported.has(where)) return;
        reported.add(where);
        ctx.report({
          message: `No <error-page> catches java.lang.Throwable for ${c.host.name}${c.context.path || '/'} (nor in ${where === ctx.base.globalWebXml ? 'any application that inherits this file' : 'this application'}): an exception a servlet does not catch is answered by Tomcat's ErrorReportValve, whose page names the exception and, unless the Host's valve sets showReport="false", prints its stack trace. Add <error-page><exception-type>java.lang.Throwable</exception-type><location>/error.jsp</location></error-page> (CIS 2.5).`,
          span: rootSpan(where),
        });
      },
    };
  },
};
