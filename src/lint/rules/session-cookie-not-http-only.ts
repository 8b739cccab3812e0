import type { Located, WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { javaBoolean, layersOf, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'session-cookie-not-http-only',
    description: 'Session cookies without HttpOnly: the Context sets useHttpOnly="false" and no <cookie-config> asks for it.',
    defaultSeverity: 'warning',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['stig-tomcat:V-222933'],
  },
  visit(ctx) {
    const seen = new Set<Located<string> | WebXml>();
    return {
      context(c) {
        // Tomcat sets HttpOnly when the cookie-config asks or the Context's useHttpOnly (default true) does:
        // the flag is missing only when both say no.
        const use = c.context.contextDef?.attributes['useHttpOnly'];
        if (!use || javaBoolean(use.value.trim())) return;
        const httpOnly = layersOf(ctx.base, c).find((w) => w.sessionCookieConfig?.httpOnly)?.sessionCookieConfig?.httpOnly ?? null;
        if (httpOnly && javaBoolean(httpOnly.value.trim())) return;
        const where = httpOnly ?? use;
        if (seen.has(where)) return;
        seen.add(where);
        ctx.report({
          message: `Session cookies of ${siteOf(c)} go out without HttpOnly: the Context sets useHttpOnly="${use.value}"${httpOnly ? ` and <http-only> is "${httpOnly.value}"` : ' and no <cookie-config><http-only>true</http-only> overrides it'}, so any script injected into a page can read the session id. Remove useHttpOnly="false", or add <cookie-config><http-only>true</http-only></cookie-config> (DISA STIG V-222933).`,
          span: where.span,
        });
      },
    };
  },
};
