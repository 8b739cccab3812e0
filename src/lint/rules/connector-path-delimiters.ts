import { connectors, isTrue } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-path-delimiters',
    description:
      'A connector lets "\\\\" or an encoded "/" act as a path delimiter (allowBackslash, encodedSolidusHandling="decode").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat treats the character as a path separator, so paths can be spelt past security constraints.',
    category: 'security',
    securitySeverity: 6.5,
    benchmarks: ['cis-tomcat-10.1:10.8', 'stig-tomcat:V-223004'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes;
      if (isTrue(a['allowBackslash'])) {
        ctx.report({
          message:
            'allowBackslash="true": Tomcat treats "\\" as "/", so /app/..\\admin/ reaches what a proxy in front only sees as /app/... (path traversal past proxy rules). Remove it (the default is false). It replaces the ALLOW_BACKSLASH system property of Tomcat 9.',
          span: a['allowBackslash']!.span,
        });
      }
      for (const name of ['encodedSolidusHandling', 'encodedReverseSolidusHandling']) {
        const v = a[name];
        if (v && v.value.trim().toLowerCase() === 'decode') {
          ctx.report({
            message: `${name}="decode": Tomcat decodes ${name === 'encodedSolidusHandling' ? '%2F to "/"' : '%5C to "\\"'} before mapping, so encoded delimiters get past proxies that match on the raw path. Use "reject" (the default for %2F).`,
            span: v.span,
          });
        }
      }
    }
  },
};
