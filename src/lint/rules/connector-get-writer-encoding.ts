import { connectors, isFalse } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-get-writer-encoding',
    description: 'A connector lets getWriter() send text without a charset (enforceEncodingInGetWriter="false").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat lets getWriter() send text without a charset, which browsers may sniff.',
    category: 'security',
    securitySeverity: 4.3,
    benchmarks: ['stig-tomcat:V-223005'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['enforceEncodingInGetWriter'];
      if (!isFalse(a)) continue;
      ctx.report({
        message:
          'enforceEncodingInGetWriter="false": text written through getWriter() without an encoding goes out with no charset, and browsers that guess one (UTF-7) open the page to XSS. Remove it (the default is true; it replaces the ENFORCE_ENCODING_IN_GET_WRITER system property of Tomcat 9).',
        span: a!.span,
      });
    }
  },
};
