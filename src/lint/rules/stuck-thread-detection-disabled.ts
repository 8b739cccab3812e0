import { allValves, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'stuck-thread-detection-disabled',
    description: 'A StuckThreadDetectionValve is declared with threshold="0" (or less), which turns its detection off.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat starts the valve and detects nothing: a threshold of 0 or less disables it (config/valve.html).',
    category: 'correctness',
  },
  check(ctx) {
    const valves = allValves(ctx.base);
    for (const v of valves) {
      if (simpleName(v) !== 'StuckThreadDetectionValve') continue;
      const t = v.attributes['threshold'];
      if (!t || !/^\s*-?\d+\s*$/.test(t.value) || Number(t.value) > 0) continue;
      ctx.report({
        message: `threshold="${t.value}": Tomcat's StuckThreadDetectionValve detects nothing with a threshold of 0 or less, so no stuck request is ever logged (or interrupted). Use a number of seconds above your slowest legitimate request (the default is 600).`,
        span: t.span,
      });
    }
  },
};
