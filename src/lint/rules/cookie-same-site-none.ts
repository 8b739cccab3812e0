import { contextSites, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'cookie-same-site-none',
    description:
      'A CookieProcessor marks every cookie SameSite=None (sameSiteCookies="none"), sending the session with cross-site requests.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat marks cookies SameSite=None, so browsers send the session with cross-site requests.',
    category: 'security',
    securitySeverity: 4.3,
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      for (const p of site.def.children ?? []) {
        const a = p.tag === 'CookieProcessor' ? p.attributes['sameSiteCookies'] : undefined;
        if (!a || a.value.trim().toLowerCase() !== 'none') continue;
        ctx.report({
          message: `sameSiteCookies="none" in ${siteName(site)}: the session cookie rides along on every cross-site request, which is what CSRF needs. Use "lax" or "strict" (the default, "unset", leaves it to the browser, which treats it as Lax).`,
          span: a.span,
        });
      }
    }
  },
};
