import type { Rule } from '../types.js';
import { DEFAULT_SERVLET_CLASSES, javaBoolean, mappedServletsOf, servletParam } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'default-servlet-writable',
    description:
      'DefaultServlet (or WebdavServlet) with readonly other than true: any client can PUT and DELETE files.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts and any client can PUT and DELETE files of the application.',
    category: 'security',
    securitySeverity: 9.0,
    benchmarks: ['stig-tomcat:V-222934'],
  },
  visit: (ctx) =>
    mappedServletsOf(DEFAULT_SERVLET_CLASSES, (s) => {
      const p = servletParam(s, 'readonly');
      // Tomcat reads the flag with Boolean.parseBoolean: "no", "0" or "True " all mean writable.
      if (!p || javaBoolean(p.value.value)) return;
      ctx.report({
        message: `Servlet "${s.name}" has readonly="${p.value.value}", which Tomcat reads as false: it then answers PUT and DELETE from any client that reaches it, so anyone can upload or delete files of the application (a .jsp uploaded this way runs on the server, CVE-2017-12617; observed on Tomcat 10.1: PUT returned 201 and wrote the file). Remove the parameter (the default is true).`,
        span: p.value.span,
      });
    }),
};
