import type { Rule } from '../types.js';
import { rolesInUse } from './users.js';

export const rule: Rule = {
  meta: {
    id: 'user-role-unused',
    description: "A user is granted a role that no deployed application's web.xml names.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat grants the role; no deployed application uses it, so it is privilege nobody needs.',
    category: 'security',
    securitySeverity: 3.0,
  },
  check(ctx) {
    const users = ctx.base.users?.users ?? [];
    if (users.length === 0) return;
    // A packed WAR's descriptor is not read, so the roles it uses are unknown.
    const used = rolesInUse(ctx);
    if (!used) return;
    for (const u of users) {
      for (const r of u.roles) {
        if (used.has(r.value)) continue;
        ctx.report({
          message: `User "${u.username.value}" is granted "${r.value}", which no deployed application's web.xml names (in a <security-role> or an <auth-constraint>): the grant protects nothing today, and the day an application that uses the role is deployed (the manager, an example application), this user can use it. Remove the role from the user.`,
          span: r.span,
        });
      }
    }
  },
};
