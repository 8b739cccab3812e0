import type { Rule } from '../types.js';
import { filterSpan, isMapped } from './util.js';

/** Filters whose only purpose is protection: unmapped, the protection is silently off. */
const PROTECTIVE = new Set([
  'cors',
  'csrf-prevention',
  'rest-csrf-prevention',
  'http-header-security',
  'remote-addr',
  'remote-host',
  'remote-cidr',
  'rate-limit',
  'failed-request',
]);

export const rule: Rule = {
  meta: {
    id: 'filter-never-mapped',
    description: 'A filter is defined but no <filter-mapping> applies it.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat initialises the filter and never runs it.',
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'a protective filter (CORS, CSRF, headers, address, rate limit): its protection is silently off',
      },
    ],
    category: 'correctness',
  },
  visit: (ctx) => ({
    filter(f) {
      if (isMapped(ctx, f)) return;
      const protective = f.spec !== null && PROTECTIVE.has(f.spec.id);
      ctx.report({
        severity: protective ? 'error' : 'warning',
        message: protective
          ? `${f.spec!.simpleName} "${f.def.name.value}" is defined but never mapped: Tomcat initialises it and never runs it, so its protection is silently off. Add a <filter-mapping>.`
          : `Filter "${f.def.name.value}" is defined but never mapped: Tomcat initialises it and never runs it.`,
        span: f.def.name.span ?? filterSpan(f.def),
      });
    },
  }),
};
