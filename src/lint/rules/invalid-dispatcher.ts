import { DISPATCHERS } from '../../model/index.js';
import type { Rule } from '../types.js';

const isDispatcher = (d: { value: string }): boolean =>
  (DISPATCHERS as readonly string[]).includes(d.value.toUpperCase());

export const rule: Rule = {
  meta: {
    id: 'invalid-dispatcher',
    description: 'A <dispatcher> value that is not REQUEST, FORWARD, INCLUDE, ERROR or ASYNC.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat silently drops a dispatcher value it does not know, so the mapping does not apply where written (REQUEST only when none is left).',
    category: 'correctness',
  },
  visit: (ctx) => ({
    descriptor({ webXml }) {
      for (const m of webXml.filterMappings) {
        if (m.dispatchers.every(isDispatcher)) continue;
        const valid = m.dispatchers.filter(isDispatcher);
        for (const d of m.dispatchers) {
          if (isDispatcher(d)) continue;
          ctx.report({
            message: `"${d.value}" is not a dispatcher type: Tomcat ignores it${valid.length === 0 ? ', so this mapping applies to REQUEST only' : ''}. Use ${DISPATCHERS.join(', ')}.`,
            span: d.span,
          });
        }
      }
    },
  }),
};
