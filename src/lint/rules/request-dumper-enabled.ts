import type { Rule } from '../types.js';
import { filtersOf, isMapped } from './util.js';

export const rule: Rule = {
  meta: { id: 'request-dumper-enabled', description: 'RequestDumperFilter is mapped: it logs every header and parameter, secrets included.', defaultSeverity: 'warning', category: 'security', securitySeverity: 4.0 },
  check(ctx) {
    for (const f of filtersOf(ctx, 'request-dumper')) {
      if (!isMapped(ctx, f)) continue;
      ctx.report({ message: `RequestDumperFilter "${f.def.name.value}" is mapped: it writes every request header and parameter (passwords, tokens, session ids) to the log and forces parameter decoding. Use it only while debugging.`, span: f.def.name.span });
    }
  },
};
