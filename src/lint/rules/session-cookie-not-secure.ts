import type { Located, WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { javaBoolean, layersOf, onlyTlsConnectors, rootSpan, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'session-cookie-not-secure',
    description:
      'No <cookie-config><secure>true</secure>: session cookies made on a plain-HTTP connector lack the Secure flag.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat sends session cookies made over plain HTTP without the Secure flag.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['stig-tomcat:V-222932'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit(ctx) {
    const seen = new Set<Located<string> | WebXml>();
    return {
      context(c) {
        // Tomcat marks the cookie Secure whenever the request is (ApplicationSessionCookieConfig.createSessionCookie):
        // with only TLS or secure="true" connectors, every session cookie has the flag.
        if (onlyTlsConnectors(ctx.base)) return;
        const layers = layersOf(ctx.base, c);
        // WebXml.merge takes each cookie-config field from the application first, then the defaults.
        const secure = layers.find((w) => w.sessionCookieConfig?.secure)?.sessionCookieConfig?.secure ?? null;
        if (secure && javaBoolean(secure.value.trim())) return;
        const file = ctx.base.globalWebXml ?? c.context.webXml;
        const where = secure ?? file;
        if (!where || seen.has(where)) return;
        seen.add(where);
        ctx.report({
          message: `Session cookies of ${siteOf(c)} are marked Secure only on requests Tomcat sees as secure, and conf/server.xml has a connector that is neither SSLEnabled nor secure="true" (behind a TLS-terminating proxy Tomcat sees every request as plain HTTP): the browser then also sends the session id over plain HTTP. Add <session-config><cookie-config><secure>true</secure></cookie-config></session-config> to conf/web.xml (DISA STIG V-222932).`,
          span: secure ? secure.span : rootSpan(file!),
        });
      },
    };
  },
};
