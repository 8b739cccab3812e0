import type { Rule } from '../types.js';
import { cleartextLogin, managementApp, patternsOf, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'manager-without-confidential-transport',
    description:
      'The manager or host manager takes its BASIC/FORM login over plain HTTP (no CONFIDENTIAL transport guarantee).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat accepts the management login over plain HTTP, so credentials can be read on the network.',
    category: 'security',
    securitySeverity: 7.5,
    benchmarks: ['cis-tomcat-10.1:10.4'],
  },
  visit(ctx) {
    const seen = new Set<unknown>();
    return {
      context(c) {
        const app = managementApp(c);
        if (!app) return;
        const login = cleartextLogin(ctx.base, c);
        if (!login || seen.has(login.authMethod)) return;
        seen.add(login.authMethod);
        ctx.report({
          message: `The ${app} (${siteOf(c)}) asks for a ${login.authMethod.value.trim()} login on ${patternsOf(login.constraints)} without a CONFIDENTIAL transport guarantee, and conf/server.xml has a connector without TLS: whoever sees the traffic gets an administrator's password (observed on Tomcat 10.1: /manager/html answered 401 with a Basic challenge over plain HTTP). Add <user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint> to each <security-constraint> of its WEB-INF/web.xml.`,
          span: login.authMethod.span,
          related: login.constraints.slice(0, 4).map((sc) => ({ message: 'protected without TLS', span: sc.span })),
        });
      },
    };
  },
};
