import type { Rule } from '../types.js';
import { onlyTlsConnectors, requiresTls, rootSpan } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'transport-not-confidential',
    description: 'conf/web.xml does not send every application to HTTPS (no /* constraint with a CONFIDENTIAL transport guarantee) while a plain-HTTP connector exists.',
    defaultSeverity: 'warning',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['cis-tomcat-10.1:10.11'],
  },
  check(ctx) {
    const global = ctx.base.globalWebXml;
    if (!global || onlyTlsConnectors(ctx.base)) return;
    const forced = (global.securityConstraints ?? []).some(
      (sc) => requiresTls(sc.transportGuarantee?.value) && sc.collections.some((col) => col.httpMethods.length === 0 && col.httpMethodOmissions.length === 0 && col.urlPatterns.some((p) => p.value.trim() === '/*')),
    );
    if (forced) return;
    ctx.report({
      message: 'conf/web.xml has no security constraint over /* with <transport-guarantee>CONFIDENTIAL</transport-guarantee>, and conf/server.xml has a connector without TLS: every application answers over plain HTTP. Add one (Tomcat then redirects plain requests to the connector\'s redirectPort), or serve only over TLS (CIS 10.11).',
      span: rootSpan(global),
    });
  },
};
