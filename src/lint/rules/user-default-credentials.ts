import type { Rule } from '../types.js';
import { hasDefaultCredentials } from './users.js';

export const rule: Rule = {
  meta: {
    id: 'user-default-credentials',
    description: "A user of tomcat-users.xml with a user name and password Tomcat's own files ship or suggest.",
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts with a user name and password that are published in its own examples: anyone can log in.',
    category: 'security',
    securitySeverity: 9.5,
  },
  check(ctx) {
    for (const u of ctx.base.users?.users ?? []) {
      if (!hasDefaultCredentials(u)) continue;
      const roles = u.roles.map((r) => r.value).join(', ') || 'no roles';
      ctx.report({
        message: `User "${u.username.value}" has the password "${u.password?.value ?? ''}" (${roles}): these are credentials from Tomcat's example files and manager error pages, the first pairs anyone tries, so whatever these roles open is open to everyone. Remove the user, or give it a long random password stored as a digest.`,
        span: u.password?.span ?? u.username.span,
      });
    }
  },
};
