import type { ConfigElement } from '../../model/index.js';
import { engineOf, simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'lockout-realm-missing',
    description:
      'Authentication goes through a Realm without a LockOutRealm around it, so passwords can be guessed without limit.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat lets a client guess passwords without limit.',
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:5.2', 'stig-tomcat:V-222980'],
  },
  check(ctx) {
    const engine = engineOf(ctx.base);
    if (!engine) return;
    const top: ConfigElement[] = [...engine.realms, ...engine.hosts.flatMap((h) => h.realms ?? [])];
    const locked = top.filter((r) => simpleName(r) === 'LockOutRealm');
    for (const r of top) {
      if (simpleName(r) === 'LockOutRealm') continue;
      ctx.report({
        message: `${simpleName(r) || 'This Realm'} is not wrapped in a LockOutRealm: Tomcat lets a client try passwords without limit. Nest it in <Realm className="org.apache.catalina.realm.LockOutRealm"> as Tomcat's shipped server.xml does.`,
        span: r.className?.span ?? startTag(r.span, 'Realm'),
      });
    }
    // The benchmarks ask for a LockOutRealm even where no Realm is configured yet.
    if (top.length === 0 && locked.length === 0 && ctx.profile !== 'recommended') {
      ctx.report({
        message:
          'The Engine has no LockOutRealm: the benchmarks ask for one around the Realm that authenticates the manager and applications.',
        span: startTag(engine.span, 'Engine'),
      });
    }
  },
};
