import type { Located } from '../../model/index.js';
import type { Rule } from '../types.js';
import { effectiveSessionTimeout, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'session-never-expires',
    description: 'A session-timeout of 0 or less: sessions never expire.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat never expires idle sessions.',
    category: 'security',
    securitySeverity: 5.0,
  },
  visit(ctx) {
    const seen = new Set<Located<string>>();
    return {
      context(c) {
        const t = effectiveSessionTimeout(ctx.base, c);
        if (!t || t.minutes > 0 || seen.has(t.at)) return;
        seen.add(t.at);
        ctx.report({
          message: `session-timeout ${t.at.value.trim()} (for ${siteOf(c)}): Tomcat never expires these sessions, so a session id stolen or left on a shared computer stays valid until the user logs out or the server restarts, and abandoned sessions pile up in memory. Set a timeout in minutes (Tomcat's default is 30; the STIG asks 10 for the manager).`,
          span: t.at.span,
        });
      },
    };
  },
};
