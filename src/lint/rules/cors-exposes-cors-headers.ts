import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'cors-exposes-cors-headers',
    description: 'cors.exposed.headers lists Access-Control-* response headers, which browsers never need exposed.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat sends the names as written; browsers never need Access-Control-* exposed, so they change nothing.',
    category: 'hygiene',
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      const p = paramOf(f.def, 'cors.exposed.headers');
      if (!p) return;
      const noise = p.value.value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => /^access-control-/i.test(s));
      if (noise.length)
        ctx.report({
          message: `cors.exposed.headers lists ${noise.join(', ')}: CORS response headers are read by the browser itself and never need exposing. Remove them.`,
          span: p.value.span,
        });
    },
  }),
};
