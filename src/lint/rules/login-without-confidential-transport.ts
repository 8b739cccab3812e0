import type { Rule } from '../types.js';
import { cleartextLogin, managementApp, patternsOf, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'login-without-confidential-transport',
    description:
      'An application asks for a BASIC or FORM login on pages no CONFIDENTIAL transport guarantee sends to HTTPS.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat accepts the login over plain HTTP, so credentials can be read on the network.',
    category: 'security',
    securitySeverity: 6.5,
  },
  visit(ctx) {
    const seen = new Set<unknown>();
    return {
      context(c) {
        // The management applications have their own rule, which the CIS benchmark names.
        if (managementApp(c)) return;
        const login = cleartextLogin(ctx.base, c);
        if (!login || seen.has(login.authMethod)) return;
        seen.add(login.authMethod);
        const method = login.authMethod.value.trim().toUpperCase();
        ctx.report({
          message: `${method} login for ${siteOf(c)} without a CONFIDENTIAL transport guarantee on ${patternsOf(login.constraints)}: Tomcat asks for the password over whatever connector the request came in on, so over plain HTTP it crosses the network ${method === 'BASIC' ? 'base64-encoded in every request' : 'as form fields'}, and the session cookie after it. Add <user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint> to these constraints (Tomcat then redirects to the connector's redirectPort).`,
          span: login.authMethod.span,
          related: login.constraints.slice(0, 4).map((sc) => ({ message: 'protected without TLS', span: sc.span })),
        });
      },
    };
  },
};
