import type { CatalinaBase, LoadedContext, LoadedHost } from '../../model/index.js';
import { contextSites, isFalse, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

/**
 * Whether a descriptor the context merges asks for HttpOnly (<cookie-config><http-only>true): Tomcat ORs it with the
 * Context's useHttpOnly (ApplicationSessionCookieConfig.createSessionCookie), so the flag is then sent anyway.
 */
function descriptorsAsk(base: CatalinaBase, host: LoadedHost | undefined, c: LoadedContext): boolean {
  const layers = [c.webXml, c.tomcatWebXml, host?.webXmlDefault, base.globalWebXml];
  const set = layers.find((w) => w?.sessionCookieConfig?.httpOnly)?.sessionCookieConfig?.httpOnly;
  return set !== undefined && set !== null && set.value.trim().toLowerCase() === 'true';
}

export const rule: Rule = {
  meta: {
    id: 'session-cookie-http-only',
    description:
      'Session cookies are readable by scripts (Context useHttpOnly="false" and no <cookie-config><http-only>true</http-only>).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat sends session cookies that scripts in the page can read.',
    category: 'security',
    securitySeverity: 5.4,
    benchmarks: ['stig-tomcat:V-222933'],
  },
  check(ctx) {
    const hostOf = new Map<LoadedContext, LoadedHost>();
    for (const h of ctx.base.hosts) for (const c of h.contexts) hostOf.set(c, h);
    for (const site of contextSites(ctx.base)) {
      const a = site.def.attributes['useHttpOnly'];
      if (!isFalse(a)) continue;
      // Every application it configures restores the flag through its descriptors: nothing goes out without it.
      if (site.contexts.length > 0 && site.contexts.every((c) => descriptorsAsk(ctx.base, hostOf.get(c), c))) continue;
      ctx.report({
        message: `useHttpOnly="${a!.value}" in ${siteName(site)}: JSESSIONID goes out without HttpOnly (no <cookie-config><http-only>true</http-only> restores it), so any XSS can read and steal the session. Remove it (the default is true).`,
        span: a!.span,
      });
    }
  },
};
