import type { Located } from '../../model/index.js';
import { connectors } from '../hardening.js';
import type { Rule } from '../types.js';

function int(a: Located<string> | undefined): number | null {
  if (!a || !/^\s*-?\d+\s*$/.test(a.value)) return null;
  return Number(a.value.trim());
}

export const rule: Rule = {
  meta: {
    id: 'connector-limits',
    description:
      'A connector removes a request limit (no connection timeout, unlimited POST size) or raises it past what the benchmark allows.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat accepts requests without the limit, so one client can hold connections or send unbounded bodies.',
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:10.9', 'cis-tomcat-10.1:10.10'],
  },
  check(ctx) {
    const cis = ctx.profile === 'cis';
    for (const c of connectors(ctx.base)) {
      const a = c.def.attributes;
      const timeout = int(a['connectionTimeout']);
      if (timeout !== null && timeout <= 0) {
        ctx.report({
          message: `connectionTimeout="${a['connectionTimeout']!.value}": Tomcat waits forever for the request line, so slow clients (Slowloris) hold every thread. Use a bound such as 20000 (Tomcat's shipped value) or 60000 (its default).`,
          span: a['connectionTimeout']!.span,
          benchmarks: ['cis-tomcat-10.1:10.9'],
        });
      } else if (cis && timeout !== null && timeout > 60_000) {
        ctx.report({
          message: `connectionTimeout="${timeout}" is longer than the 60000 ms CIS 10.9 names: slow clients hold threads that long.`,
          span: a['connectionTimeout']!.span,
          benchmarks: ['cis-tomcat-10.1:10.9'],
        });
      }
      const post = int(a['maxPostSize']);
      if (post !== null && post < 0) {
        ctx.report({
          message: `maxPostSize="${a['maxPostSize']!.value}": Tomcat parses form bodies of any size into parameters. Keep a bound (the default is 2097152, 2 MiB).`,
          span: a['maxPostSize']!.span,
          benchmarks: [],
        });
      }
      const header = int(a['maxHttpHeaderSize']);
      if (cis && header !== null && header > 8192) {
        ctx.report({
          message: `maxHttpHeaderSize="${header}" is larger than the 8192 bytes CIS 10.10 asks for (Tomcat's default): every connection may hold that much header in memory.`,
          span: a['maxHttpHeaderSize']!.span,
          benchmarks: ['cis-tomcat-10.1:10.10'],
        });
      }
    }
  },
};
