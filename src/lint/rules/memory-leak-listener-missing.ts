import { simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'memory-leak-listener-missing',
    description: 'server.xml does not declare the JreMemoryLeakPreventionListener.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat does not guard against the JRE memory leaks the listener prevents, which can exhaust memory on redeploys.',
    category: 'hygiene',
    benchmarks: ['cis-tomcat-10.1:10.16'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server || server.listeners.some((l) => simpleName(l) === 'JreMemoryLeakPreventionListener')) return;
    ctx.report({
      message:
        'No JreMemoryLeakPreventionListener: JRE classes that pin the first class loader that touches them can keep a stopped application in memory (and its data) until Tomcat restarts. Add <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/>.',
      span: startTag(server.span, 'Server'),
    });
  },
};
