import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'shutdown-port-enabled',
    description: 'The shutdown port is enabled (Server port is not -1).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat listens on a shutdown port that any local process can reach.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['cis-tomcat-10.1:3.2', 'stig-tomcat:V-222951'],
    // Tomcat binds it to localhost and shutdown-port-default covers the guessable command; only the benchmarks ask to close it.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server) return;
    const port = server.attributes['port'];
    // Tomcat's default port is 8005 when the attribute is absent.
    if (port && port.value.trim() === '-1') return;
    ctx.report({
      message: `The shutdown port is ${port ? `enabled (port="${port.value}")` : 'enabled (no port attribute: Tomcat listens on 8005)'}: any process that can connect to it and knows the command stops Tomcat. Set port="-1" and stop Tomcat with a signal (systemd, catalina.sh stop with a PID file).`,
      span: port?.span ?? {
        ...server.span,
        endLine: server.span.line,
        endColumn: server.span.column + 7,
        endOffset: server.span.offset + 7,
      },
    });
  },
};
