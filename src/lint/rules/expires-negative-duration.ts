import { parseExpiresRule, type DurationUnit } from '../../filters/index.js';
import type { Rule } from '../types.js';

/** Seconds per unit; months and years as Tomcat's Calendar averages them over a year (only the sign of the sum is read). */
const SECONDS: Record<DurationUnit, number> = {
  second: 1,
  minute: 60,
  hour: 3_600,
  day: 86_400,
  week: 604_800,
  month: 2_629_746,
  year: 31_556_952,
};

export const rule: Rule = {
  meta: {
    id: 'expires-negative-duration',
    description:
      'An ExpiresFilter rule with a negative duration: Tomcat sends a negative max-age and an Expires date in the past.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and sends a negative max-age and an Expires date in the past, so caches treat the response as stale at once.',
    variants: [
      {
        severity: 'info',
        effect: 'notes',
        when: 'a negative amount in a sum that stays positive, which Tomcat subtracts as written',
      },
    ],
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['expires'],
    filter(f) {
      for (const p of f.def.initParams) {
        const name = p.name.value;
        if (!name.startsWith('ExpiresByType') && name.toLowerCase() !== 'expiresdefault') continue;
        const r = parseExpiresRule(p.value.value);
        if (!r.ok || !r.rule.durations.some((d) => d.amount < 0)) continue;
        const total = r.rule.durations.reduce((s, d) => s + d.amount * SECONDS[d.unit], 0);
        if (total <= 0) {
          ctx.report({
            message: `${name}: "${p.value.value.trim()}" adds up to ${total === 0 ? 'nothing' : 'a time in the past'}. Tomcat 10.1 starts and sends "Cache-Control: max-age=${Math.round(total)}" with an Expires date ${total === 0 ? 'of now' : 'in the past'} (observed: "access plus -1 hours" gives max-age=-3600), which caches read as already stale. Write a positive duration, or remove the rule.`,
            span: p.value.span,
          });
        } else {
          ctx.report({
            severity: 'info',
            message: `${name}: "${p.value.value.trim()}" has a negative amount; Tomcat subtracts it (the sum, ${Math.round(total)} s, is what it sends as max-age). Write the net duration as positive amounts.`,
            span: p.value.span,
          });
        }
      }
    },
  }),
};
