import type { Rule } from '../types.js';
import { isMapped } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'csrf-not-covering-all',
    description: 'CsrfPreventionFilter is not mapped to /*, so some pages are unprotected.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat starts; pages outside the mapping neither carry nor check nonces.',
    category: 'security',
    securitySeverity: 5.0,
  },
  visit: (ctx) => ({
    kinds: ['csrf-prevention'],
    filter(f) {
      if (!isMapped(ctx, f)) return;
      const name = f.def.name.value;
      const mappings = ctx.usesOf(f).map((u) => u.mapping);
      // Mapped to a servlet, the filter covers every URL of that servlet (Tomcat's own manager does this on purpose).
      const coversAll = mappings.some(
        (m) =>
          m.mapping.urlPatterns.some((u) => u.value === '/*' || u.value === '*') || m.mapping.servletNames.length > 0,
      );
      if (coversAll || mappings.length === 0) return;
      ctx.report({
        message: `CsrfPreventionFilter "${name}" is mapped to ${mappings.flatMap((m) => m.mapping.urlPatterns.map((u) => `"${u.value}"`)).join(', ') || 'servlet names'} only: it must see every request (map it to /*) so nonces are issued and checked everywhere; use entryPoints for the pages that may be entered without one.`,
        span: mappings[0]!.mapping.span,
      });
    },
  }),
};
