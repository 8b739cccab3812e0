import type { ConfigElement } from '../../model/index.js';
import { fileStartSpan } from '../../model/index.js';
import { contextChain, contextElements, engineOf, simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

const isAccessLog = (v: ConfigElement): boolean => /AccessLogValve$/.test(simpleName(v));

export const rule: Rule = {
  meta: {
    id: 'access-log-missing',
    description: 'Requests are not written to an access log (no AccessLogValve on the Engine, Host or context).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat serves requests without recording them, so an attack leaves no trace.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['stig-tomcat:V-222997', 'stig-tomcat:V-222938', 'stig-tomcat:V-222930', 'cis-tomcat-10.1:7.3'],
  },
  check(ctx) {
    const engine = engineOf(ctx.base);
    if (!engine) return;
    const stig = ctx.profile === 'stig';
    const engineLogs = engine.valves.some(isAccessLog);
    // The STIG wants one at every level; otherwise one that sees the host's requests is enough.
    if (stig && !engineLogs) {
      ctx.report({
        message:
          'The Engine has no AccessLogValve: requests to hosts without their own log are not recorded (STIG V-222997).',
        span: startTag(engine.span, 'Engine'),
        benchmarks: ['stig-tomcat:V-222997'],
      });
    }
    for (const loaded of ctx.base.hosts) {
      const h = loaded.def;
      if (!h) continue;
      const hostLogs = h.valves.some(isAccessLog);
      if (!hostLogs && (stig || !engineLogs)) {
        ctx.report({
          message: stig
            ? `Host "${h.name.value}" has no AccessLogValve of its own (STIG V-222938).`
            : `Nothing logs the requests of host "${h.name.value}": neither it nor the Engine has an AccessLogValve (Tomcat's shipped server.xml has one in the Host). Add <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" pattern="%h %l %u %t &quot;%r&quot; %s %b"/>.`,
          span: startTag(h.span, 'Host'),
          // Without the STIG's profile this is the host that nothing logs, the Engine included.
          benchmarks: stig ? ['stig-tomcat:V-222938'] : ['stig-tomcat:V-222938', 'stig-tomcat:V-222997'],
        });
      }
      if (!stig && ctx.profile !== 'cis') continue;
      for (const c of loaded.contexts) {
        const chain = contextChain(ctx.base, loaded, c);
        if (contextElements(chain, 'Valve').some(isAccessLog)) continue;
        const own = c.contextDef;
        ctx.report({
          message: `The context ${c.path === '' ? '/ (ROOT)' : c.path} has no AccessLogValve of its own (${stig ? 'STIG V-222930' : 'CIS 7.3'}); add one to its context file or to conf/context.xml for every application.`,
          span: own ? startTag(own.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase),
          benchmarks: ['stig-tomcat:V-222930', 'cis-tomcat-10.1:7.3'],
        });
      }
    }
  },
};
