import { connectors, isTrue } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'connector-enable-lookups',
    description: 'A connector resolves every client address by DNS (enableLookups="true").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat resolves every client address in DNS, which slows requests and trusts DNS answers.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: ['cis-tomcat-10.1:10.15'],
  },
  check(ctx) {
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes['enableLookups'];
      if (!isTrue(a)) continue;
      ctx.report({
        message:
          'enableLookups="true": Tomcat makes a reverse DNS lookup for getRemoteHost() and the access log, which slows every request, and the names are chosen by whoever controls the client\'s reverse zone. Remove it (the default is false).',
        span: a!.span,
      });
    }
  },
};
