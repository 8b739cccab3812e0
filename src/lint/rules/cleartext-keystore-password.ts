import type { ConfigElement, ConnectorDef } from '../../model/index.js';
import type { Rule } from '../types.js';

const PASSWORDS = [
  'keystorePass',
  'truststorePass',
  'certificateKeystorePassword',
  'certificateKeyPassword',
  'keyPass',
  'SSLPassword',
  'truststorePassword',
];

export const rule: Rule = {
  meta: {
    id: 'cleartext-keystore-password',
    description: 'A keystore or truststore password written in clear text in server.xml.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts and uses it; the secret sits in a file that is usually committed and backed up.',
    category: 'security',
    securitySeverity: 5.0,
  },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server) return;
    const scan = (attrs: ConnectorDef['attributes']): void => {
      for (const name of PASSWORDS) {
        const a = attrs[name];
        // A value written as ${...} comes from a property, which is where it belongs.
        const rawText = a ? (ctx.source(a.span.file)?.text.slice(a.span.offset, a.span.endOffset) ?? a.value) : '';
        if (a && a.value !== '' && !rawText.includes('${')) {
          ctx.report({
            message: `${name} holds a clear-text password committed with server.xml. Read it from a property (\${...} resolved from conf/catalina.properties or the environment) kept out of version control.`,
            span: a.span,
          });
        }
      }
    };
    const walk = (els: ConfigElement[]): void => {
      for (const e of els) {
        scan(e.attributes);
        walk(e.children);
      }
    };
    for (const s of server.services) {
      for (const c of s.connectors) {
        scan(c.attributes);
        walk(c.children);
      }
    }
  },
};
