import type { Rule } from '../types.js';
import { hasRole, isDigest } from './users.js';

const ADMIN_ROLES = ['admin-script', 'admin-gui', 'manager-script', 'manager-gui', 'manager-jmx', 'manager-status'];
const WEAK = new Set(['admin', 'password', 'tomcat', 'manager', 'changeit', 'secret', 's3cret', '123456', 'root', 'role1', 'both']);

export const rule: Rule = {
  meta: { id: 'user-plaintext-password', description: 'An administrative user with a clear-text or well-known password.', defaultSeverity: 'warning', category: 'security', securitySeverity: 7.0 },
  check(ctx) {
    for (const u of ctx.base.users?.users ?? []) {
      const roles = ADMIN_ROLES.filter((r) => hasRole(u, r));
      if (roles.length === 0 || !u.password) continue;
      const pw = u.password.value;
      if (WEAK.has(pw.toLowerCase()) || pw.length < 8 || pw === u.username.value) {
        ctx.report({ severity: 'error', message: `User "${u.username.value}" (${roles.join(', ')}) has a weak password: it is short, well known or equal to the user name, and these roles control the server. Choose a long random password and store its digest.`, span: u.password.span });
      } else if (!isDigest(pw)) {
        ctx.report({ message: `User "${u.username.value}" (${roles.join(', ')}) has a clear-text password in tomcat-users.xml. Store a digest (bin/digest.sh -a PBKDF2WithHmacSHA512 ...) and configure the Realm's CredentialHandler.`, span: u.password.span });
      }
    }
  },
};
