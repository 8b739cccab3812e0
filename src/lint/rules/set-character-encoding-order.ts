import type { Rule } from '../types.js';
import { forEachChainOf, mayRunAfter, type Entries } from './chain-order.js';

const READS_PARAMETERS = new Set(['failed-request', 'request-dumper', 'csrf-prevention']);

export const rule: Rule = {
  meta: {
    id: 'set-character-encoding-order',
    description: 'SetCharacterEncodingFilter runs after a filter that already parsed the request parameters.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts; the parameters are parsed before the encoding is set, so non-ASCII form fields are decoded as ISO-8859-1.',
    category: 'correctness',
  },
  visit(ctx) {
    const reported = new Set<string>();
    const visit = (entries: Entries): void => {
      const encAt = entries.findIndex((e) => e.checked?.spec?.id === 'set-character-encoding');
      if (encAt <= 0) return;
      for (const before of entries.slice(0, encAt)) {
        const id = before.checked?.spec?.id;
        if (!id || !READS_PARAMETERS.has(id)) continue;
        const enc = entries[encAt]!;
        const key = `${before.entry.filter.name}\0${enc.entry.filter.name}`;
        if (reported.has(key)) continue;
        reported.add(key);
        ctx.report({
          message: `SetCharacterEncodingFilter "${enc.entry.filter.name}" runs after ${before.checked!.spec!.simpleName} "${before.entry.filter.name}", which parses the parameters first: the encoding is set too late and POST parameters are decoded as ISO-8859-1. Map SetCharacterEncodingFilter first.`,
          span: enc.entry.mapping.mapping.span,
          related: [{ message: `${before.entry.filter.name} is mapped here`, span: before.entry.mapping.mapping.span }],
        });
      }
    };
    return {
      context(_c, i) {
        if (mayRunAfter(ctx, i, 'set-character-encoding', READS_PARAMETERS)) forEachChainOf(ctx, i, visit);
      },
    };
  },
};
