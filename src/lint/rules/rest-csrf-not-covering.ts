import { findFilterSpec } from '../../filters/index.js';
import type { FilterDef, FilterMapping, Span, WebXml } from '../../model/index.js';
import { compilePattern, matchesFilterPattern, type CompiledPattern } from '../../protocol/url-pattern.js';
import type { Rule } from '../types.js';
import { paramOf } from './util.js';

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

/** RestCsrfPreventionFilter checks every method but these (Tomcat's NON_MODIFYING_METHODS_PATTERN). */
const NON_MODIFYING = new Set(['GET', 'HEAD', 'OPTIONS']);
const isModifying = (method: string) => method !== '' && !NON_MODIFYING.has(method);

/** A URL pattern the descriptor itself marks as taking modifying requests, and why. */
interface StateChanging {
  pattern: string;
  why: string;
  span: Span;
}

/** Whether a filter mapping applies to plain requests (no <dispatcher>, or REQUEST among them). */
const onRequests = (m: FilterMapping) =>
  m.dispatchers.length === 0 || m.dispatchers.some((d) => d.value.trim() === 'REQUEST');

/**
 * The URL patterns a descriptor marks as state-changing besides its servlet mappings: security
 * constraints that name a modifying method (or omit only some methods, so the modifying ones stay
 * constrained), the filter's own pathsAcceptingParams (URLs its author says take modifying requests
 * with the token as a parameter), and CorsFilter mappings whose configured methods allow a modifying one.
 */
function stateChangingPaths(web: WebXml, def: FilterDef): StateChanging[] {
  const out: StateChanging[] = [];
  for (const sc of web.securityConstraints ?? []) {
    for (const c of sc.collections) {
      const named = c.httpMethods.map((m) => m.value.trim()).filter(isModifying);
      const omitted = new Set(c.httpMethodOmissions.map((m) => m.value.trim()));
      const constrained =
        named.length > 0
          ? named
          : omitted.size > 0
            ? ['POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !omitted.has(m))
            : [];
      if (constrained.length === 0) continue;
      for (const u of c.urlPatterns) {
        out.push({
          pattern: u.value.trim(),
          why: `a security-constraint guards ${constrained.join(', ')}`,
          span: u.span,
        });
      }
    }
  }
  const accepting = paramOf(def, 'pathsAcceptingParams');
  for (const p of accepting?.value.value.split(',') ?? []) {
    const path = p.trim();
    if (path !== '') out.push({ pattern: path, why: 'pathsAcceptingParams', span: accepting!.value.span });
  }
  const byName = new Map(web.filters.map((f) => [f.name.value.trim(), f]));
  for (const m of web.filterMappings) {
    const other = byName.get(m.filterName.value.trim());
    if (!other?.className || findFilterSpec(other.className.value)?.id !== 'cors' || !onRequests(m)) continue;
    // Tomcat's default (GET, POST, HEAD, OPTIONS) is not the author's statement; methods they listed are.
    const methods = (paramOf(other, 'cors.allowed.methods')?.value.value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(isModifying);
    if (methods.length === 0) continue;
    for (const u of m.urlPatterns) {
      out.push({
        pattern: u.value.trim(),
        why: `CorsFilter "${other.name.value.trim()}" allows ${methods.join(', ')}`,
        span: u.span,
      });
    }
  }
  return out;
}

/**
 * The URL patterns under which the descriptor's CsrfPreventionFilter (the form one) checks requests:
 * a modifying request there is refused without a nonce too, so it is protected.
 */
function formCsrfPatterns(web: WebXml): CompiledPattern[] | 'all' {
  const names = new Set(
    web.filters
      .filter((f) => f.className && findFilterSpec(f.className.value)?.id === 'csrf-prevention')
      .map((f) => f.name.value.trim()),
  );
  const maps = web.filterMappings.filter((m) => names.has(m.filterName.value.trim()) && onRequests(m));
  if (maps.some((m) => m.servletNames.some((s) => s.value.trim() === '*'))) return 'all';
  const servlets = new Set(maps.flatMap((m) => m.servletNames.map((s) => s.value.trim())));
  return [
    ...maps.flatMap((m) => m.urlPatterns.map((u) => compilePattern(u.value.trim()))),
    ...web.servletMappings
      .filter((sm) => servlets.has(sm.servletName.value.trim()))
      .flatMap((sm) => sm.urlPatterns.map((u) => compilePattern(u.value.trim()))),
  ];
}

const listed = (items: string[]) =>
  items
    .slice(0, 5)
    .map((u) => `"${u}"`)
    .join(', ') + (items.length > 5 ? ` and ${items.length - 5} more` : '');

export const rule: Rule = {
  meta: {
    id: 'rest-csrf-not-covering',
    description:
      'RestCsrfPreventionFilter does not see every URL the application itself shows to take modifying requests (its servlets, security constraints on POST/PUT/PATCH/DELETE, pathsAcceptingParams, CORS mappings allowing them): modifying requests there need no token.',
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
      const web = f.descriptor.webXml;
      const byName = new Set(uses.flatMap(({ mapping: m }) => m.servletNames));
      const uncovered = web.servletMappings
        .filter((sm) => !byName.has(sm.servletName.value.trim()))
        .flatMap((sm) => sm.urlPatterns.map((u) => u.value.trim()))
        .filter((u) => !covers(patterns, compilePattern(u)));
      const span = uses[0]!.mapping.mapping.span;
      if (uncovered.length > 0) {
        ctx.report({
          message: `RestCsrfPreventionFilter "${f.def.name.value}" does not see the application's servlets at ${listed(uncovered)}: a modifying request (POST, PUT, PATCH, DELETE) there reaches the servlet without a token. Map the filter to those URLs too (or to the servlets by name), or to /*.`,
          span,
        });
        return;
      }
      // What else the descriptor shows to take modifying requests. The URLs of the servlets the
      // filter is mapped to by name are seen too, and so are those the form CsrfPreventionFilter checks.
      const seen = [
        ...patterns,
        ...web.servletMappings
          .filter((sm) => byName.has(sm.servletName.value.trim()))
          .flatMap((sm) => sm.urlPatterns.map((u) => compilePattern(u.value.trim()))),
      ];
      const form = formCsrfPatterns(web);
      if (form === 'all') return;
      const open = stateChangingPaths(web, f.def).filter((s) => {
        const p = compilePattern(s.pattern);
        return !covers(seen, p) && !covers(form, p);
      });
      if (open.length === 0) return;
      const patternsShown = [...new Set(open.map((s) => s.pattern))];
      const mapped = uses.flatMap(({ mapping: m }) => m.urlPatterns.map((p) => `"${p.pattern}"`));
      const whys = [...new Set(open.map((s) => s.why))];
      ctx.report({
        message: `RestCsrfPreventionFilter "${f.def.name.value}" sees ${mapped.length > 0 ? mapped.join(', ') : 'its servlets'} only, but the application takes modifying requests at ${listed(patternsShown)} too (${whys.join('; ')}): a POST, PUT, PATCH or DELETE there reaches the application without a token. Map the filter to those URLs too, or to /*.`,
        span,
        related: open.slice(0, 5).map((s) => ({ message: `"${s.pattern}": ${s.why}`, span: s.span })),
      });
    },
  }),
};
