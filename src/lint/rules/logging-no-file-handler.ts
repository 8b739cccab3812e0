import { fileStartSpan, type PropertiesFile } from '../../model/index.js';
import { propertyOf } from '../../parser/index.js';
import type { LintContext, Rule } from '../types.js';

/** One logging.properties: Tomcat's (conf/) or an application's (WEB-INF/classes/). */
function judge(ctx: LintContext, props: PropertiesFile, whose: string): void {
  const handlers = propertyOf(props, 'handlers');
  const root = propertyOf(props, '.handlers');
  const list = [handlers?.value.value ?? '', root?.value.value ?? ''].join(',');
  if (!/FileHandler/.test(list)) {
    ctx.report({
      message: `${handlers || root ? 'handlers lists' : 'No handlers are declared, so there is'} no org.apache.juli.FileHandler or AsyncFileHandler: ${whose} go only to the console and are lost when it is not captured. Keep Tomcat's 1catalina.org.apache.juli.AsyncFileHandler.`,
      span: (handlers ?? root)?.value.span ?? fileStartSpan(props.file),
    });
  }
  const level = propertyOf(props, '.level');
  if (level && level.value.value.trim().toUpperCase() === 'OFF') {
    ctx.report({
      message:
        ".level = OFF turns every logger off, so Tomcat records nothing. Use INFO (Tomcat's shipped level) or FINE.",
      span: level.value.span,
    });
  }
}

export const rule: Rule = {
  meta: {
    id: 'logging-no-file-handler',
    description:
      "conf/logging.properties or an application's WEB-INF/classes/logging.properties writes logs to no file (no FileHandler or AsyncFileHandler), or turns logging off.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat keeps no log file, so events are lost.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['cis-tomcat-10.1:7.2'],
  },
  check(ctx) {
    if (ctx.base.loggingProperties)
      judge(ctx, ctx.base.loggingProperties, "Tomcat's own messages (failed logins, deployments, errors)");
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        // JULI reads an application's file for that application's class loader only.
        if (c.loggingProperties)
          judge(ctx, c.loggingProperties, `the records of the application ${c.path === '' ? '/ (ROOT)' : c.path}`);
      }
    }
  },
};
