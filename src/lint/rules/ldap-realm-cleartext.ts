import { allRealms, isTrue, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'ldap-realm-cleartext',
    description: 'A JNDIRealm talks to its directory over plain ldap:// without StartTLS.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat sends the bind password and every user's password to the directory in clear text.",
    category: 'security',
    securitySeverity: 6.0,
    benchmarks: ['stig-tomcat:V-222965'],
  },
  check(ctx) {
    for (const r of allRealms(ctx.base)) {
      if (simpleName(r) !== 'JNDIRealm' || isTrue(r.attributes['useStartTls'])) continue;
      for (const name of ['connectionURL', 'alternateURL']) {
        const url = r.attributes[name];
        if (!url || !/^\s*ldap:\/\//i.test(url.value)) continue;
        ctx.report({
          message: `${name}="${url.value.trim()}": JNDIRealm binds and checks every login over plain LDAP, so passwords cross the network in clear text. Use ldaps:// (or useStartTls="true").`,
          span: url.span,
        });
      }
    }
  },
};
