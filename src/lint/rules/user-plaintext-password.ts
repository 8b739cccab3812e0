import type { Rule } from '../types.js';
import { hasDefaultCredentials, hasRole, isDigest, passwordCheckOf } from './users.js';

const ADMIN_ROLES = ['admin-script', 'admin-gui', 'manager-script', 'manager-gui', 'manager-jmx', 'manager-status'];
const WEAK = new Set([
  'admin',
  'password',
  'tomcat',
  'manager',
  'changeit',
  'secret',
  's3cret',
  '123456',
  'root',
  'role1',
  'both',
]);

export const rule: Rule = {
  meta: {
    id: 'user-plaintext-password',
    description:
      "A password of tomcat-users.xml stored in clear (or weak) for an administrative user, or in the form the realm's CredentialHandler does not compare.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat accepts the clear-text password; anyone who reads tomcat-users.xml can log in.',
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'a short, well-known or user-name password on an administrative role (anyone can guess it), or a clear-text password the CredentialHandler digests (the user cannot log in)',
      },
    ],
    category: 'security',
    securitySeverity: 7.0,
    benchmarks: ['cis-tomcat-10.1:10.19'],
  },
  check(ctx) {
    const check = passwordCheckOf(ctx.base);
    for (const u of ctx.base.users?.users ?? []) {
      // Tomcat's shipped example credentials are user-default-credentials' finding.
      if (!u.password || hasDefaultCredentials(u)) continue;
      const pw = u.password.value;
      const digest = isDigest(pw);
      if (check?.kind === 'digest' && !digest) {
        ctx.report({
          severity: 'error',
          message: `User "${u.username.value}" has a clear-text password, but the UserDatabaseRealm's CredentialHandler digests what users type and compares that with the stored value: this user cannot log in, and the password sits readable in the file. Store its digest (bin/digest.sh with the handler's algorithm).`,
          span: u.password.span,
          related: check.at ? [{ message: 'the CredentialHandler', span: check.at.span }] : undefined,
        });
        continue;
      }
      if (check?.kind === 'plain' && digest) {
        ctx.report({
          message: `User "${u.username.value}" has what looks like a password digest, but the UserDatabaseRealm ${check.at ? 'has a CredentialHandler without an algorithm' : 'has no CredentialHandler'}, so Tomcat compares passwords as stored: the digest itself is the password, and anyone who reads tomcat-users.xml can log in with it. Add <CredentialHandler className="org.apache.catalina.realm.MessageDigestCredentialHandler" algorithm="..."/> (or SecretKeyCredentialHandler) to the Realm.`,
          span: u.password.span,
        });
        continue;
      }
      const roles = ADMIN_ROLES.filter((r) => hasRole(u, r));
      if (roles.length === 0) continue;
      if (WEAK.has(pw.toLowerCase()) || pw.length < 8 || pw === u.username.value) {
        ctx.report({
          severity: 'error',
          message: `User "${u.username.value}" (${roles.join(', ')}) has a weak password: it is short, well known or equal to the user name, and these roles control the server. Choose a long random password and store its digest.`,
          span: u.password.span,
        });
      } else if (!digest) {
        ctx.report({
          message: `User "${u.username.value}" (${roles.join(', ')}) has a clear-text password in tomcat-users.xml. Store a digest (bin/digest.sh -a PBKDF2WithHmacSHA512 ...) and configure the Realm's CredentialHandler (CIS 10.19).`,
          span: u.password.span,
        });
      }
    }
  },
};
