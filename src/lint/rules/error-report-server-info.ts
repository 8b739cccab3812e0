import type { ConfigElement } from '../../model/index.js';
import { engineOf, isFalse, simpleName, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

const isErrorReport = (v: ConfigElement): boolean => simpleName(v) === 'ErrorReportValve';

export const rule: Rule = {
  meta: {
    id: 'error-report-server-info',
    description:
      "Tomcat's error pages show the server version and the exception report (ErrorReportValve showServerInfo/showReport are true by default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat's error pages name the server version and show exception reports.",
    category: 'security',
    securitySeverity: 3.7,
    benchmarks: ['stig-tomcat:V-222975', 'stig-tomcat:V-222977'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const engine = engineOf(ctx.base);
    for (const h of engine?.hosts ?? []) {
      // The Host's pipeline gets an ErrorReportValve with the defaults when none is configured (errorReportValveClass).
      const valve = [...h.valves, ...(engine?.valves ?? [])].find(isErrorReport);
      if (!valve) {
        ctx.report({
          message: `Host "${h.name.value}" uses Tomcat's default ErrorReportValve, whose error pages name the version ("Apache Tomcat/10.1.x", observed on Tomcat 10.1.60) and show exception reports. Add <Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>.`,
          span: startTag(h.span, 'Host'),
        });
        continue;
      }
      for (const name of ['showServerInfo', 'showReport']) {
        const a = valve.attributes[name];
        if (isFalse(a)) continue;
        ctx.report({
          message: `ErrorReportValve ${a ? `${name}="${a.value}"` : `without ${name} (default true)`}: error pages ${name === 'showServerInfo' ? 'name the server version' : 'include the exception message and report'}. Set ${name}="false".`,
          span: a?.span ?? valve.className?.span ?? valve.span,
          benchmarks: [name === 'showServerInfo' ? 'stig-tomcat:V-222975' : 'stig-tomcat:V-222977'],
        });
      }
    }
  },
};
