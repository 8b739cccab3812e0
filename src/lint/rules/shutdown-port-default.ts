import { startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'shutdown-port-default',
    description: 'The shutdown port is open with the well-known SHUTDOWN command.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat listens for the well-known SHUTDOWN command: any local process can stop it.',
    category: 'security',
    securitySeverity: 6.0,
    benchmarks: ['cis-tomcat-10.1:3.1'],
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server) return;
    const port = server.attributes['port'];
    const command = server.attributes['shutdown']?.value ?? 'SHUTDOWN';
    // Without a port attribute StandardServer listens on 8005 (its default).
    if ((!port || port.value.trim() !== '-1') && command === 'SHUTDOWN') {
      ctx.report({
        message: `Shutdown port ${port ? port.value : "8005 (Tomcat's default: no port attribute)"} with the default "SHUTDOWN" command: any local process (or SSRF) that can reach it stops Tomcat. Set port="-1", or a long random shutdown command.`,
        span: port?.span ?? startTag(server.span, 'Server'),
      });
    }
  },
};
