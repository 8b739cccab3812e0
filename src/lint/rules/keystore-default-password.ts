import type { ConfigElement, Located } from '../../model/index.js';
import { startTag } from '../hardening.js';
import type { Rule } from '../types.js';

/** keytool's and Tomcat's default key store password. */
const DEFAULT = 'changeit';

export const rule: Rule = {
  meta: {
    id: 'keystore-default-password',
    description: "A TLS key store is opened with the password changeit: written so, or left unset (Tomcat's default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat opens the key store, so the private key is protected by the password every tool and guide uses.',
    category: 'security',
    securitySeverity: 7.0,
    benchmarks: ['stig-tomcat:V-222931'],
  },
  check(ctx) {
    const judge = (
      attrs: Record<string, Located<string>>,
      span: ConfigElement['span'],
      tag: string,
      file: string,
      password: string,
    ): void => {
      const keystore = attrs[file];
      if (!keystore || keystore.value.trim() === '') return;
      // A password read from a file, or a hardware key store, is none of this rule's business.
      if (
        attrs['certificateKeystorePasswordFile'] ||
        /PKCS11/i.test(attrs['certificateKeystoreType']?.value ?? attrs['keystoreType']?.value ?? '')
      )
        return;
      const given = attrs[password];
      if (given && given.value !== DEFAULT) return;
      ctx.report({
        message: given
          ? `${password}="${DEFAULT}": the key store of ${keystore.value} opens with the password keytool and Tomcat use by default. Change it (keytool -storepasswd) and give the new one through a \${property}.`
          : `No ${password}: Tomcat opens ${keystore.value} with its default password "${DEFAULT}", so the key store's password is the one every guide prints. Change it (keytool -storepasswd) and set ${password}.`,
        span: given?.span ?? startTag(span, tag),
      });
    };
    for (const s of ctx.base.serverXml?.services ?? []) {
      for (const c of s.connectors) {
        judge(c.attributes, c.span, 'Connector', 'keystoreFile', 'keystorePass');
        const walk = (els: readonly ConfigElement[]): void => {
          for (const e of els) {
            if (e.tag === 'Certificate')
              judge(e.attributes, e.span, 'Certificate', 'certificateKeystoreFile', 'certificateKeystorePassword');
            walk(e.children);
          }
        };
        walk(c.children);
      }
    }
  },
};
