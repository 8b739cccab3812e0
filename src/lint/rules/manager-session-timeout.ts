import type { Located, WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { effectiveSessionTimeout, managementApp, rootSpan, siteOf } from './webapp.js';

/** The STIG's idle limit for the management applications, in minutes. */
const LIMIT = 10;

export const rule: Rule = {
  meta: {
    id: 'manager-session-timeout',
    description: `The manager or host manager keeps idle sessions longer than ${LIMIT} minutes.`,
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat keeps idle management sessions open longer than hardening guides allow.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['stig-tomcat:V-222979'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit(ctx) {
    const seen = new Set<Located<string> | WebXml>();
    return {
      context(c) {
        const app = managementApp(c);
        if (!app) return;
        const t = effectiveSessionTimeout(ctx.base, c);
        if (t && t.minutes > 0 && t.minutes <= LIMIT) return;
        // Pointed at the application's own descriptor, where the STIG's fix goes, unless it sets the timeout itself.
        const own = c.context.webXml;
        const inOwn = t !== null && own !== null && t.at.span.file === own.file;
        const where = inOwn ? t.at : own;
        if (!where || seen.has(where)) return;
        seen.add(where);
        const now = t
          ? t.minutes > 0
            ? `${t.minutes} minutes${inOwn ? '' : ` (inherited from ${t.at.span.file})`}`
            : 'never'
          : "30 minutes (Tomcat's default: no session-timeout anywhere)";
        ctx.report({
          message: `An idle session of the ${app} (${siteOf(c)}) expires after ${now}: an administrator's unattended session stays usable that long. Set <session-config><session-timeout>${LIMIT}</session-timeout></session-config> in its WEB-INF/web.xml (DISA STIG V-222979 asks ${LIMIT} minutes).`,
          span: inOwn ? t.at.span : rootSpan(own!),
        });
      },
    };
  },
};
