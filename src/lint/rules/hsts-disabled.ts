import type { Rule } from '../types.js';
import { paramOf } from './util.js';
import { anySecureConnector, headerSentAnyway } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'hsts-disabled',
    description:
      'HttpHeaderSecurityFilter with hstsEnabled=false, and no other header filter of the same requests sends Strict-Transport-Security.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat sends no Strict-Transport-Security, so the first request can be downgraded.',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: ['stig-tomcat:V-222928'],
  },
  // A check, run once every filter is validated: the chains a filter runs in take filters of other descriptors.
  check(ctx) {
    // HttpHeaderSecurityFilter sends HSTS on secure requests only: without a connector that makes any, the flag changes nothing.
    if (anySecureConnector(ctx.base) === false) return;
    for (const f of ctx.ofKind('http-header-security')) {
      const p = paramOf(f.def, 'hstsEnabled');
      if (!p || p.value.value.trim().toLowerCase() === 'true' || headerSentAnyway(ctx, f, 'hstsEnabled')) continue;
      ctx.report({
        message:
          "hstsEnabled is off and no other HttpHeaderSecurityFilter of the same requests sends Strict-Transport-Security: browsers are never told to insist on HTTPS, so a network attacker can downgrade the first request. Enable it with a real hstsMaxAgeSeconds (e.g. 31536000), or map a header filter that sends it (conf/web.xml's reaches every application).",
        span: p.value.span,
      });
    }
  },
};
