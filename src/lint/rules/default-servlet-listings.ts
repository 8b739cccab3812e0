import type { Rule } from '../types.js';
import { DEFAULT_SERVLET_CLASSES, javaBoolean, mappedServletsOf, servletParam } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'default-servlet-listings',
    description: 'DefaultServlet with listings=true: directories without a welcome file are listed to any client.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and lists every directory without a welcome file to any client.',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['stig-tomcat:V-222954'],
  },
  visit: (ctx) =>
    mappedServletsOf(DEFAULT_SERVLET_CLASSES, (s) => {
      const p = servletParam(s, 'listings');
      if (!p || !javaBoolean(p.value.value)) return;
      ctx.report({
        message: `Servlet "${s.name}" has listings=true: a request for a directory without a welcome file gets a page listing every file in it, with sizes and dates (observed on Tomcat 10.1), which shows attackers backups, configuration and files never linked. Remove the parameter (the default is false).`,
        span: p.value.span,
      });
    }),
};
