import { contextSites, isFalse, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'session-cookie-http-only',
    description: 'Session cookies are readable by scripts (Context useHttpOnly="false").',
    defaultSeverity: 'warning', effect: 'weakens', reason: 'Tomcat sends session cookies that scripts in the page can read.',
    category: 'security',
    securitySeverity: 5.4,
    benchmarks: ['stig-tomcat:V-222933'],
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      const a = site.def.attributes['useHttpOnly'];
      if (!isFalse(a)) continue;
      ctx.report({ message: `useHttpOnly="${a!.value}" in ${siteName(site)}: JSESSIONID goes out without HttpOnly, so any XSS can read and steal the session. Remove it (the default is true).`, span: a!.span });
    }
  },
};
