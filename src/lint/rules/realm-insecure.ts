import { allRealms, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

/** The realms CIS 5.1 names, and why each is not meant for production. */
const WEAK: Record<string, string> = {
  MemoryRealm: 'reads conf/tomcat-users.xml once into memory: meant for tests, with passwords in a file',
  UserDatabaseRealm:
    'authenticates against conf/tomcat-users.xml (the UserDatabase): a file of passwords on the server, meant for small installations',
  JAASRealm: 'delegates to a JAAS login module whose strength tollgate and CIS cannot see',
  JDBCRealm: 'was removed in Tomcat 10.1 (use DataSourceRealm)',
};

export const rule: Rule = {
  meta: {
    id: 'realm-insecure',
    description:
      'A Realm CIS 5.1 calls not secure for production authenticates users (MemoryRealm, UserDatabaseRealm, JAASRealm, JDBCRealm).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat authenticates against a file of passwords on the server (or an unvetted JAAS module) instead of a directory or database.',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['cis-tomcat-10.1:5.1'],
    // Tomcat's stock server.xml uses a UserDatabaseRealm: only CIS asks for another.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const r of allRealms(ctx.base)) {
      const name = simpleName(r);
      const why = WEAK[name];
      if (!why || !r.className) continue;
      ctx.report({
        message: `${name} ${why}. CIS 5.1 asks for a JNDIRealm (LDAP) or a DataSourceRealm, nested in a LockOutRealm.`,
        span: r.className.span,
      });
    }
  },
};
