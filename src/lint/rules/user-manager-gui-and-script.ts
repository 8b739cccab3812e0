import type { Rule } from '../types.js';
import { hasRole } from './users.js';

/** An HTML role and the roles of interfaces without CSRF protection that should not be held with it (manager-howto, host-manager-howto). */
const PAIRS: [gui: string, scripted: string[]][] = [
  ['manager-gui', ['manager-script', 'manager-jmx']],
  ['admin-gui', ['admin-script']],
];

export const rule: Rule = {
  meta: {
    id: 'user-manager-gui-and-script',
    description:
      'A user holds an HTML management role (manager-gui, admin-gui) together with a scripting one (manager-script, manager-jmx, admin-script).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat lets one user reach both the HTML and the scripting interfaces, which weakens the CSRF protection of the HTML one.',
    category: 'security',
    securitySeverity: 6.5,
  },
  check(ctx) {
    for (const u of ctx.base.users?.users ?? []) {
      for (const [gui, scripted] of PAIRS) {
        if (!hasRole(u, gui)) continue;
        const also = u.roles.filter((r) => scripted.includes(r.value));
        if (also.length === 0) continue;
        ctx.report({
          message: `User "${u.username.value}" has ${gui} and ${also.map((r) => r.value).join(' and ')}: only the HTML interface has CSRF protection, so while this user is logged in to it (the browser keeps sending the BASIC credentials), any page they visit can make the browser call the ${gui.startsWith('manager') ? '/manager/text or /manager/jmxproxy' : '/host-manager/text'} interface with them, to deploy, undeploy or stop applications. Tomcat's documentation advises never giving one user both: use two users.`,
          span: also[0]!.span,
        });
      }
    }
  },
};
