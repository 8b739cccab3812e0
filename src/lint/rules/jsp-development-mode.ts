import type { Rule } from '../types.js';
import { JSP_SERVLET_CLASSES, javaBoolean, mappedServletsOf, servletParam } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'jsp-development-mode',
    description: 'JspServlet explicitly set to development mode.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat's JspServlet checks JSPs for changes on every access and shows compilation details.",
    category: 'security',
    securitySeverity: 3.0,
  },
  visit: (ctx) =>
    mappedServletsOf(JSP_SERVLET_CLASSES, (s) => {
      const p = servletParam(s, 'development');
      if (!p || !javaBoolean(p.value.value)) return;
      ctx.report({
        message: `Servlet "${s.name}" sets development=true: Jasper then checks each JSP for changes when it is requested (every modificationTestInterval seconds, 4 by default) and recompiles a changed one, so whoever can modify a JSP file on disk gets the new code run at once, without a redeploy; every access also costs a file check. Set development to false in production (Jasper then compiles each JSP once; checkInterval can still reload them in the background).`,
        span: p.value.span,
      });
    }),
};
