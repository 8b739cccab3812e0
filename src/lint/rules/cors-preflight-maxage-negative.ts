import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'cors-preflight-maxage-negative',
    description:
      'A negative cors.preflight.maxage: Tomcat sends no Access-Control-Max-Age, and browsers cache the pre-flight for their own default (5 s).',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'Tomcat leaves Access-Control-Max-Age out, so browsers cache pre-flights for their own default of a few seconds.',
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      const config = f.config as { preflightMaxAge?: number } | null;
      const p = paramOf(f.def, 'cors.preflight.maxage');
      if (!config || !p || config.preflightMaxAge === undefined || config.preflightMaxAge >= 0) return;
      ctx.report({
        message: `cors.preflight.maxage is ${config.preflightMaxAge}: Tomcat 10.1 then leaves Access-Control-Max-Age out of every pre-flight answer (observed), so browsers use their own default (5 seconds) and send a pre-flight before nearly every cross-origin request. Write the number of seconds browsers may cache the answer (e.g. 1800).`,
        span: p.value.span,
      });
    },
  }),
};
