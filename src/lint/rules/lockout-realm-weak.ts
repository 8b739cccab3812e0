import type { ConfigElement } from '../../model/index.js';
import { contextSites, engineOf, simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

function all(realms: ConfigElement[], out: ConfigElement[] = []): ConfigElement[] {
  for (const r of realms) {
    if (r.tag !== 'Realm') continue;
    out.push(r);
    all(r.children, out);
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'lockout-realm-weak',
    description: 'A LockOutRealm allows more than 5 failures or locks out for less than 300 s (600 s for the STIG).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat locks out too late or too briefly to stop password guessing.',
    category: 'security',
    securitySeverity: 4.3,
    benchmarks: ['cis-tomcat-10.1:5.2', 'stig-tomcat:V-222981', 'stig-tomcat:V-222982'],
  },
  check(ctx) {
    const engine = engineOf(ctx.base);
    const realms = all([
      ...(engine?.realms ?? []),
      ...(engine?.hosts.flatMap((h) => h.realms ?? []) ?? []),
      ...contextSites(ctx.base).flatMap((s) => (s.def.children ?? []).filter((c) => c.tag === 'Realm')),
    ]);
    const minTime = ctx.profile === 'stig' ? 600 : 300;
    for (const r of realms) {
      if (simpleName(r) !== 'LockOutRealm') continue;
      const at = r.className?.span ?? startTag(r.span, 'Realm');
      const count = r.attributes['failureCount'];
      const failures = count && /^\s*\d+\s*$/.test(count.value) ? Number(count.value) : 5;
      if (failures > 5) {
        ctx.report({
          message: `failureCount="${failures}": a client gets ${failures} password guesses per lock-out, more than the 5 the benchmarks allow (Tomcat's default is 5).`,
          span: count!.span,
          benchmarks: ['cis-tomcat-10.1:5.2', 'stig-tomcat:V-222981'],
        });
      }
      const time = r.attributes['lockOutTime'];
      const seconds = time && /^\s*\d+\s*$/.test(time.value) ? Number(time.value) : 300;
      if (seconds < minTime) {
        ctx.report({
          message: `${time ? `lockOutTime="${seconds}"` : 'lockOutTime is not set (Tomcat locks out for 300 s)'}: ${ctx.profile === 'stig' ? 'the STIG (V-222982) asks for 600 s' : "shorter than Tomcat's 300 s default"}. Set lockOutTime="${minTime}".`,
          span: time?.span ?? at,
          benchmarks: ['cis-tomcat-10.1:5.2', 'stig-tomcat:V-222982'],
        });
      }
    }
  },
};
