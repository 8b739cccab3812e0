import { DISPATCHERS } from '../../model/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: { id: 'invalid-dispatcher', description: 'A <dispatcher> value that is not REQUEST, FORWARD, INCLUDE, ERROR or ASYNC.', defaultSeverity: 'warning', category: 'correctness' },
  check(ctx) {
    for (const { webXml } of ctx.descriptors) {
      for (const m of webXml.filterMappings) {
        const valid = m.dispatchers.filter((d) => (DISPATCHERS as readonly string[]).includes(d.value.toUpperCase()));
        for (const d of m.dispatchers) {
          if ((DISPATCHERS as readonly string[]).includes(d.value.toUpperCase())) continue;
          ctx.report({
            message: `"${d.value}" is not a dispatcher type: Tomcat ignores it${valid.length === 0 ? ', so this mapping applies to REQUEST only' : ''}. Use ${DISPATCHERS.join(', ')}.`,
            span: d.span,
          });
        }
      }
    }
  },
};
