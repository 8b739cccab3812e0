import type { Rule } from '../types.js';
import type { ResolvedContext } from '../../chain/index.js';
import { forEachChainOf, hasTwo, type Entries } from './chain-order.js';

export const rule: Rule = {
  meta: {
    id: 'header-filter-overridden',
    description:
      'Two HttpHeaderSecurityFilters run for the same request: the later one overwrites the headers of the first.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: "Tomcat runs both; the later filter's headers replace the earlier one's, whose settings are ignored.",
    category: 'security',
    securitySeverity: 4.0,
  },
  visit(ctx) {
    const reported = new Set<string>();
    const visit = (c: ResolvedContext, entries: Entries): void => {
      const headerFilters = entries.filter((e) => e.checked?.spec?.id === 'http-header-security');
      if (headerFilters.length < 2) return;
      const [first, ...later] = headerFilters;
      const key = `${c.host.name}\0${c.context.path}\0${headerFilters.map((e) => e.entry.filter.name).join('\0')}`;
      if (reported.has(key)) return;
      reported.add(key);
      ctx.report({
        message: `HttpHeaderSecurityFilter "${first!.entry.filter.name}" runs before "${later.map((e) => e.entry.filter.name).join('", "')}" for ${c.host.name}${c.context.path || '/'}: each sets its headers before passing the request on, so the last one's X-Frame-Options, HSTS and nosniff settings are what clients get. To change the global filter for one application, define a filter with the same name in the application.`,
        span: first!.entry.filter.def.name.span,
        related: later.map((e) => ({
          message: `${e.entry.filter.name} overwrites them`,
          span: e.entry.filter.def.name.span,
        })),
      });
    };
    return {
      context(c, i) {
        if (hasTwo(ctx, i, 'http-header-security')) forEachChainOf(ctx, i, (entries) => visit(c, entries));
      },
    };
  },
};
