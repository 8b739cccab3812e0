import type { Rule } from '../types.js';
import { isMapped } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'request-dumper-enabled',
    description: 'RequestDumperFilter is mapped: it logs every header and parameter, secrets included.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat logs every header and parameter of every request, secrets included.',
    category: 'security',
    securitySeverity: 4.0,
  },
  visit: (ctx) => ({
    kinds: ['request-dumper'],
    filter(f) {
      if (!isMapped(ctx, f)) return;
      ctx.report({
        message: `RequestDumperFilter "${f.def.name.value}" is mapped: it writes every request header and parameter (passwords, tokens, session ids) to the log and forces parameter decoding. Use it only while debugging.`,
        span: f.def.name.span,
      });
    },
  }),
};
