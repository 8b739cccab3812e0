import type { Rule } from '../types.js';
import { layersOf } from './webapp.js';

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
    if (ctx.base.diagnostics.some((d) => d.ruleId === 'war-not-read')) return;
    const used = new Set<string>();
    const seen = new Set<object>();
    for (const c of ctx.contexts) {
      for (const w of layersOf(ctx.base, c)) {
        if (seen.has(w)) continue;
        seen.add(w);
        for (const r of w.securityRoles ?? []) used.add(r.value);
        for (const sc of w.securityConstraints ?? []) for (const r of sc.authRoles ?? []) used.add(r.value);
      }
    }
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
