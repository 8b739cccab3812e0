import type { WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { missingInEveryLayer, onlyTlsConnectors, perDescriptor, requiresTls, siteOf } from './webapp.js';

/** Whether a descriptor sends every method of /* to TLS. */
const forcesTls = perDescriptor((w: WebXml): boolean => {
  return (w.securityConstraints ?? []).some(
    (sc) =>
      requiresTls(sc.transportGuarantee?.value) &&
      sc.collections.some(
        (col) =>
          col.httpMethods.length === 0 &&
          col.httpMethodOmissions.length === 0 &&
          col.urlPatterns.some((p) => p.value.trim() === '/*'),
      ),
  );
});

export const rule: Rule = {
  meta: {
    id: 'transport-not-confidential',
    description:
      'No security constraint sends /* to HTTPS (CONFIDENTIAL transport guarantee) for an application, while a plain-HTTP connector exists.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat serves the application over plain HTTP as well as HTTPS.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['cis-tomcat-10.1:10.11'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit: (ctx) =>
    missingInEveryLayer(
      ctx,
      forcesTls,
      (c) =>
        `No security constraint over /* with <transport-guarantee>CONFIDENTIAL</transport-guarantee> for ${siteOf(c)}, and conf/server.xml has a connector without TLS (or there is no server.xml to say otherwise): the application answers over plain HTTP. Add one to conf/web.xml (Tomcat then redirects plain requests to the connector's redirectPort), or serve only over TLS (CIS 10.11).`,
      () => !onlyTlsConnectors(ctx.base),
    ),
};
