import { simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'security-listener-missing',
    description:
      'server.xml does not declare the SecurityListener, which stops Tomcat from starting as root or with a loose umask.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat does not check that it is not started as root or with a loose umask.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['cis-tomcat-10.1:10.17'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server || server.listeners.some((l) => simpleName(l) === 'SecurityListener')) return;
    ctx.report({
      message:
        'No SecurityListener: nothing stops Tomcat from starting as root or with a umask that leaves its files world-readable. Add <Listener className="org.apache.catalina.security.SecurityListener" checkedOsUsers="root" minimumUmask="0007"/>.',
      span: startTag(server.span, 'Server'),
    });
  },
};
