import type { WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { missingInEveryLayer, perDescriptor, siteOf } from './webapp.js';

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
    effect: 'weakens',
    reason:
      'Tomcat answers an uncaught exception with the ErrorReportValve page, which can name the server and the exception.',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['cis-tomcat-10.1:2.5'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit: (ctx) =>
    missingInEveryLayer(
      ctx,
      catchesThrowable,
      (c) =>
        `No <error-page> for java.lang.Throwable reaches ${siteOf(c)} (neither conf/web.xml nor its own descriptors have one): an exception a servlet does not catch is answered by Tomcat's ErrorReportValve, whose page names the exception and, unless the Host's valve sets showReport="false", prints its stack trace. Add <error-page><exception-type>java.lang.Throwable</exception-type><location>/error.jsp</location></error-page> (CIS 2.5).`,
    ),
};
