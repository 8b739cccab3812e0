import type { Rule } from '../types.js';
import { hasRole, hostManagerDeployed } from './users.js';

export const rule: Rule = {
  meta: {
    id: 'host-manager-no-script-user',
    description: 'The host manager is deployed but no user holds admin-script, so its text interface cannot be used.',
    defaultSeverity: 'info',
    effect: 'notes',
    reason:
      'Tomcat starts the host manager; its text interface answers 401/403 to everyone, which may be what you want.',
    category: 'correctness',
  },
  check(ctx) {
    if (!hostManagerDeployed(ctx)) return;
    const users = ctx.base.users;
    if (users && users.users.some((u) => hasRole(u, 'admin-script'))) return;
    const gui = users?.users.find((u) => hasRole(u, 'admin-gui'));
    ctx.report({
      message: `The host manager is deployed but no user in tomcat-users.xml has the admin-script role${gui ? ` ("${gui.username.value}" has admin-gui, which only opens the HTML interface)` : ''}: every /host-manager/text request gets 401 or 403.`,
      span: gui?.span ??
        users?.span ?? {
          file: `${ctx.base.base}/conf/tomcat-users.xml`,
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 1,
          offset: 0,
          endOffset: 0,
        },
    });
  },
};
