import { fileStartSpan } from '../../model/index.js';
import { isAdminApp, realmsOf, simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'manager-realm-not-ldap',
    description: 'The manager or host manager authenticates against a Realm that is not a JNDIRealm (LDAP).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat checks management logins against local accounts instead of the organisation's directory.",
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-222962'],
    // Only the STIG asks for LDAP.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (!isAdminApp(c)) continue;
        const realms = realmsOf(ctx.base, host, c);
        if (realms.some((r) => simpleName(r) === 'JNDIRealm')) continue;
        const first =
          realms.find((r) => simpleName(r) !== 'LockOutRealm' && simpleName(r) !== 'CombinedRealm') ?? realms[0];
        ctx.report({
          message: `${c.path} authenticates against ${first ? simpleName(first) : 'no Realm'}: the STIG asks management logins to go through LDAP (a JNDIRealm with an ldaps:// connectionURL, nested in a LockOutRealm).`,
          span:
            first?.className?.span ??
            (c.contextDef ? startTag(c.contextDef.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase)),
        });
      }
    }
  },
};
