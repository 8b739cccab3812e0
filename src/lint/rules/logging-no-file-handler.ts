import { fileStartSpan } from '../../model/index.js';
import { propertyOf } from '../../parser/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'logging-no-file-handler',
    description: 'conf/logging.properties writes Tomcat\'s logs to no file (no FileHandler or AsyncFileHandler), or turns logging off.',
    defaultSeverity: 'warning', effect: 'weakens', reason: 'Tomcat keeps no log file, so events are lost.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['cis-tomcat-10.1:7.2'],
  },
  check(ctx) {
    const props = ctx.base.loggingProperties;
    if (!props) return;
    const handlers = propertyOf(props, 'handlers');
    const root = propertyOf(props, '.handlers');
    const list = [handlers?.value.value ?? '', root?.value.value ?? ''].join(',');
    if (!/FileHandler/.test(list)) {
      ctx.report({
        message: `${handlers || root ? 'handlers lists' : 'No handlers are declared, so there is'} no org.apache.juli.FileHandler or AsyncFileHandler: Tomcat's own messages (failed logins, deployments, errors) go only to the console and are lost when it is not captured. Keep Tomcat's 1catalina.org.apache.juli.AsyncFileHandler.`,
        span: (handlers ?? root)?.value.span ?? fileStartSpan(props.file),
      });
    }
    const level = propertyOf(props, '.level');
    if (level && level.value.value.trim().toUpperCase() === 'OFF') {
      ctx.report({ message: '.level = OFF turns every logger off, so Tomcat records nothing. Use INFO (Tomcat\'s shipped level) or FINE.', span: level.value.span });
    }
  },
};
