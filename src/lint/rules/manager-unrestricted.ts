import { fileStartSpan } from '../../model/index.js';
import {
  contextChain,
  contextElements,
  engineOf,
  isAdminApp,
  isHostManager,
  simpleName,
  startTag,
} from '../hardening.js';
import type { Rule } from '../types.js';

const RESTRICTS = /^Remote(?:Addr|CIDR)(?:Valve|Filter)$/;

export const rule: Rule = {
  meta: {
    id: 'manager-unrestricted',
    description:
      'The manager or host-manager application is reachable from any address (no RemoteAddrValve or RemoteCIDRValve in front of it).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat lets any address reach the management application's login.",
    category: 'security',
    securitySeverity: 6.5,
    benchmarks: ['cis-tomcat-10.1:10.2', 'cis-tomcat-10.1:10.3', 'stig-tomcat:V-222970'],
  },
  check(ctx) {
    const engine = engineOf(ctx.base);
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (!isAdminApp(c)) continue;
        const valves = [
          ...(engine?.valves ?? []),
          ...(host.def?.valves ?? []),
          ...contextElements(contextChain(ctx.base, host, c), 'Valve'),
        ];
        if (valves.some((v) => RESTRICTS.test(simpleName(v)))) continue;
        const filters = [...(c.webXml?.filters ?? []), ...(ctx.base.globalWebXml?.filters ?? [])];
        if (filters.some((f) => RESTRICTS.test((f.className?.value ?? '').replace(/^.*\./, '')))) continue;
        const own = c.contextDef;
        const ignored =
          own && c.source === 'context-file'
            ? " A RemoteCIDRValve in the application's META-INF/context.xml does not count: Tomcat reads that file only when no context file in conf/<Engine>/<Host>/ defines the context (observed on Tomcat 10.1.60 with Debian's conf/Catalina/localhost/manager.xml: 401, not 403, from an address the valve refuses)."
            : '';
        const hostManager = isHostManager(c);
        ctx.report({
          // CIS 10.3 is about the manager alone; 10.2 and the STIG about both.
          benchmarks: hostManager
            ? ['cis-tomcat-10.1:10.2', 'stig-tomcat:V-222970']
            : ['cis-tomcat-10.1:10.2', 'cis-tomcat-10.1:10.3', 'stig-tomcat:V-222970'],
          message: `${c.path} (Tomcat's ${hostManager ? 'host-manager' : 'manager'}) answers every address: only its password stands between the network and deploying code. Add <Valve className="org.apache.catalina.valves.RemoteCIDRValve" allow="127.0.0.0/8, ::1/128"/> to its <Context>.${ignored}`,
          span: own ? startTag(own.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase),
        });
      }
    }
  },
};
