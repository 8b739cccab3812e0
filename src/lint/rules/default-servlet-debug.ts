import type { Rule } from '../types.js';
import { DEFAULT_SERVLET_CLASSES, mappedServletsOf, servletParam } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'default-servlet-debug',
    description: 'DefaultServlet with a debug level above 0.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and the DefaultServlet logs request details at the debug level.',
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-222953'],
  },
  visit: (ctx) =>
    mappedServletsOf(DEFAULT_SERVLET_CLASSES, (s) => {
      const p = servletParam(s, 'debug');
      if (!p) return;
      const level = Number(p.value.value);
      // A value Integer.parseInt refuses stops the servlet from loading: a different problem, not a debug level.
      if (!/^[+-]?\d+$/.test(p.value.value) || level <= 0) return;
      ctx.report({
        message: `Servlet "${s.name}" has debug=${p.value.value}: DefaultServlet then writes a line for every resource it serves into the application log, which grows with traffic and records the paths clients ask for. Set it to 0 (the default) in production.`,
        span: p.value.span,
      });
    }),
};
