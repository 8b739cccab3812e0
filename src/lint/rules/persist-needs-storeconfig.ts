import type { Rule } from '../types.js';
import { hostManagerDeployed } from './users.js';

export const rule: Rule = {
  meta: {
    id: 'persist-needs-storeconfig',
    description: "The host manager's persist command needs StoreConfigLifecycleListener in server.xml.",
    defaultSeverity: 'info',
    effect: 'notes',
    reason: "Tomcat starts; the host manager's persist answers FAIL without StoreConfigLifecycleListener.",
    category: 'correctness',
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server || !hostManagerDeployed(ctx)) return;
    if (server.listeners.some((l) => /\.storeconfig\.StoreConfigLifecycleListener$/.test(l.className?.value ?? '')))
      return;
    ctx.report({
      message:
        'The host manager is deployed, but server.xml declares no StoreConfigLifecycleListener: "persist" answers FAIL and hosts added at run time are lost on restart.',
      span: server.span,
    });
  },
};
