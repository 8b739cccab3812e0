import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts, which the plan reads too: the connector does not start. */
export const rule: Rule = {
  meta: {
    id: 'connector-tls-without-host-config',
    description:
      'A Connector has SSLEnabled="true" but no <SSLHostConfig> for its default host name: the Tomcat 8.5/9 style (keystoreFile=, SSLCertificateFile= on the Connector) that 10.1 no longer reads.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat 10.1 logs "No SSLHostConfig element was found with the hostName [_default_] to match the defaultSSLHostConfigName" and does not start the connector; 9.0 built it from the connector\'s attributes (observed).',
    category: 'compatibility',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'tls-without-host-config') ctx.report({ message: f.message, span: f.span });
  },
};
