import type { Rule } from '../types.js';
import { ADMIN_ROLES, hasDefaultCredentials, rolesInUse } from './users.js';

export const rule: Rule = {
  meta: {
    id: 'user-default-credentials',
    description: "A user of tomcat-users.xml with a user name and password Tomcat's own files ship or suggest.",
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts with a user name and password that are published in its own examples: anyone can log in.',
    variants: [
      {
        severity: 'warning',
        effect: 'weakens',
        when: "a user none of whose roles a deployed application names and none of which is a manager or admin role (the example users tomcat and role1 of Tomcat's own tomcat-users.xml): the login opens nothing today",
      },
    ],
    category: 'security',
    securitySeverity: 9.5,
  },
  check(ctx) {
    for (const u of ctx.base.users?.users ?? []) {
      if (!hasDefaultCredentials(u)) continue;
      const roles = u.roles.map((r) => r.value).join(', ') || 'no roles';
      // Unknown roles in use (a WAR not read) count as used: the error stands unless nothing can be opened.
      const used = rolesInUse(ctx);
      const opens = u.roles.some((r) => ADMIN_ROLES.has(r.value) || !used || used.has(r.value));
      ctx.report({
        ...(opens ? {} : { severity: 'warning' as const }),
        message: opens
          ? `User "${u.username.value}" has the password "${u.password?.value ?? ''}" (${roles}): these are credentials from Tomcat's example files and manager error pages, the first pairs anyone tries, so whatever these roles open is open to everyone. Remove the user, or give it a long random password stored as a digest.`
          : `User "${u.username.value}" has the password "${u.password?.value ?? ''}" (${roles}), credentials from Tomcat's example files that anyone tries first. No deployed application names these roles and none is a manager or admin role, so the login opens nothing today; the day an application that uses them is deployed, it is open to everyone. Remove the user, or give it a long random password stored as a digest.`,
        span: u.password?.span ?? u.username.span,
      });
    }
  },
};
