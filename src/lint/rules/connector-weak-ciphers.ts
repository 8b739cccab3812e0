import type { ConfigElement, Located } from '../../model/index.js';
import { connectors } from '../hardening.js';
import type { Rule } from '../types.js';

/** Cipher families broken or without authentication or encryption, in OpenSSL and JSSE spellings. */
const WEAK =
  /(?:^|[_\-+])(NULL|eNULL|aNULL|EXPORT|EXP|EXPORT40|EXPORT56|LOW|RC4|RC2|DES|3DES|DES-CBC3|IDEA|SEED|MD5|anon|ADH|AECDH)(?:[_\-+]|$)/i;

export const rule: Rule = {
  meta: {
    id: 'connector-weak-ciphers',
    description: 'A TLS configuration enables broken cipher suites (NULL, EXPORT, RC4, DES/3DES, MD5, anonymous).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat offers broken cipher suites to clients that ask for them.',
    category: 'security',
    securitySeverity: 7.4,
    benchmarks: ['stig-tomcat:V-222927', 'stig-tomcat:V-222968'],
  },
  check(ctx) {
    const check = (a: Located<string> | undefined): void => {
      if (!a) return;
      const weak = a.value.split(/[\s,:]+/).filter((t) => t !== '' && !/^[!-]/.test(t) && WEAK.test(t));
      if (weak.length === 0) return;
      ctx.report({
        message: `ciphers enables ${weak.join(', ')}: broken or unauthenticated suites a downgrade can force. List strong suites only (e.g. HIGH:!aNULL:!eNULL:!MD5:!3DES, or the TLS 1.2/1.3 AEAD suites).`,
        span: a.span,
      });
    };
    const walk = (els: ConfigElement[]): void => {
      for (const e of els) {
        if (e.tag === 'SSLHostConfig') check(e.attributes['ciphers']);
        walk(e.children);
      }
    };
    for (const c of connectors(ctx.base)) {
      check(c.def.attributes['ciphers']);
      walk(c.def.children);
    }
  },
};
