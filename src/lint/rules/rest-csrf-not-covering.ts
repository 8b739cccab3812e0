import { compilePattern, matchesFilterPattern, type CompiledPattern } from '../../protocol/url-pattern.js';
import type { Rule } from '../types.js';

/**
 * Whether every request path a servlet url-pattern maps also passes one of the filter's patterns.
 * Decided by the patterns' shapes: a prefix covers the prefixes under it, an extension only itself,
 * the default servlet ("/") only "/*"; an exact path is matched as a request would be.
 */
function covers(filter: CompiledPattern[], servlet: CompiledPattern): boolean {
  return filter.some((f) => {
    if (f.kind === 'all' || (f.kind === 'path' && f.key === '')) return true;
    switch (servlet.kind) {
      case 'exact':
        return matchesFilterPattern(f, servlet.key);
      case 'context-root':
        return matchesFilterPattern(f, '/');
      case 'path':
        return f.kind === 'path' && (servlet.key === f.key || servlet.key.startsWith(`${f.key}/`));
      case 'extension':
        return f.kind === 'extension' && f.key === servlet.key;
      default:
        return false;
    }
  });
}

export const rule: Rule = {
  meta: {
    id: 'rest-csrf-not-covering',
    description:
      "RestCsrfPreventionFilter does not see every URL the application's own servlets answer: modifying requests there need no token.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat starts; a POST to a servlet outside the mapping reaches it without a token (observed: 200 there, 403 under the mapping).',
    category: 'security',
    securitySeverity: 5.0,
  },
  visit: (ctx) => ({
    kinds: ['rest-csrf-prevention'],
    filter(f) {
      // The application's own servlets: a filter of conf/web.xml cannot know which of them an application means to protect.
      if (f.descriptor.role !== 'app') return;
      const uses = ctx.usesOf(f).filter(({ mapping: m }) => (m.dispatcherMask & 1) !== 0);
      if (uses.length === 0) return; // filter-never-mapped or rest-csrf-no-fetch-path say so
      const patterns = uses.flatMap(({ mapping: m }) => m.urlPatterns.map((p) => compilePattern(p.pattern)));
      if (uses.some(({ mapping: m }) => m.allServlets)) return;
      const byName = new Set(uses.flatMap(({ mapping: m }) => m.servletNames));
      const uncovered = f.descriptor.webXml.servletMappings
        .filter((sm) => !byName.has(sm.servletName.value.trim()))
        .flatMap((sm) => sm.urlPatterns.map((u) => u.value.trim()))
        .filter((u) => !covers(patterns, compilePattern(u)));
      if (uncovered.length === 0) return;
      const shown =
        uncovered
          .slice(0, 5)
          .map((u) => `"${u}"`)
          .join(', ') + (uncovered.length > 5 ? ` and ${uncovered.length - 5} more` : '');
      ctx.report({
        message: `RestCsrfPreventionFilter "${f.def.name.value}" does not see the application's servlets at ${shown}: a modifying request (POST, PUT, PATCH, DELETE) there reaches the servlet without a token. Map the filter to those URLs too (or to the servlets by name), or to /*.`,
        span: uses[0]!.mapping.mapping.span,
      });
    },
  }),
};
