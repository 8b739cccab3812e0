import type { Dispatcher } from '../model/index.js';
import type { MergedFilter, MergedFilterMapping, MergedWebApp } from './merge.js';
import { compilePattern, matchesFilterPattern, type CompiledPattern, type PatternKind } from './patterns.js';

export interface ServletMatch {
  servletName: string;
  pattern: string;
  kind: PatternKind;
  /** The path filters are matched against (a welcome file rewrites it). */
  requestPath: string;
}

export interface ChainEntry {
  filter: MergedFilter;
  mapping: MergedFilterMapping;
  matchedBy: { kind: 'url-pattern' | 'servlet-name'; value: string };
}

interface CompiledMapping {
  mapping: MergedFilterMapping;
  patterns: CompiledPattern[];
  servletNames: string[];
  allServlets: boolean;
  dispatchers: number;
}

interface CompiledApp {
  mappings: CompiledMapping[];
  exact: Map<string, string>;
  prefixes: { key: string; servlet: string; pattern: string }[];
  extensions: Map<string, { servlet: string; pattern: string }>;
  defaultServlet: { servlet: string; pattern: string } | null;
}

const DISPATCH_BITS: Record<string, number> = { REQUEST: 1, FORWARD: 2, INCLUDE: 4, ERROR: 8, ASYNC: 16 };
const compiled = new WeakMap<MergedWebApp, CompiledApp>();

/** Dispatcher bits of a mapping as Tomcat reads them: unknown names are ignored, none means REQUEST. */
export function dispatcherBits(texts: readonly string[]): number {
  let bits = 0;
  for (const t of texts) bits |= DISPATCH_BITS[t.toUpperCase()] ?? 0;
  return bits === 0 ? DISPATCH_BITS['REQUEST']! : bits;
}

function compile(app: MergedWebApp): CompiledApp {
  const hit = compiled.get(app);
  if (hit) return hit;
  const out: CompiledApp = { mappings: [], exact: new Map(), prefixes: [], extensions: new Map(), defaultServlet: null };
  for (const m of app.filterMappings) {
    const names = m.mapping.servletNames.map((s) => s.value);
    out.mappings.push({
      mapping: m,
      patterns: m.mapping.urlPatterns.map((u) => compilePattern(u.value)),
      servletNames: names.filter((n) => n !== '*'),
      allServlets: names.includes('*'),
      dispatchers: dispatcherBits(m.mapping.dispatchers.map((d) => d.value)),
    });
  }
  for (const sm of app.servletMappings.values()) {
    const p = compilePattern(sm.pattern);
    const target = { servlet: sm.servletName, pattern: sm.pattern };
    switch (p.kind) {
      case 'exact':
        out.exact.set(p.key, sm.servletName);
        break;
      case 'context-root':
        out.exact.set('/', sm.servletName);
        break;
      case 'path':
        out.prefixes.push({ key: p.key, ...target });
        break;
      case 'extension':
        out.extensions.set(p.key, target);
        break;
      case 'default':
        out.defaultServlet = target;
        break;
      case 'all':
        break;
    }
  }
  out.prefixes.sort((a, b) => b.key.length - a.key.length);
  compiled.set(app, out);
  return out;
}

function mapPath(c: CompiledApp, app: MergedWebApp, path: string): ServletMatch | null {
  const exact = c.exact.get(path);
  if (exact !== undefined) {
    const sm = [...app.servletMappings.values()].find((s) => s.servletName === exact && (s.pattern === path || (s.pattern === '' && path === '/')));
    return { servletName: exact, pattern: sm?.pattern ?? path, kind: sm?.pattern === '' ? 'context-root' : 'exact', requestPath: path };
  }
  for (const p of c.prefixes) {
    if (path.startsWith(p.key) && (path.length === p.key.length || path.charCodeAt(p.key.length) === 47)) {
      return { servletName: p.servlet, pattern: p.pattern, kind: 'path', requestPath: path };
    }
  }
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot > slash) {
    const ext = c.extensions.get(path.slice(dot + 1));
    if (ext) return { servletName: ext.servlet, pattern: ext.pattern, kind: 'extension', requestPath: path };
  }
  return null;
}

/**
 * The servlet that serves a path, in the Mapper's order: exact, longest
 * prefix, extension, welcome files for a path ending in "/", then the default
 * servlet. `exists` tells whether a file exists in the application (for
 * welcome files); without it welcome files are not resolved.
 */
export function resolveServlet(app: MergedWebApp, path: string, exists?: (path: string) => boolean): ServletMatch | null {
  const c = compile(app);
  const direct = mapPath(c, app, path);
  if (direct) return direct;
  if (path.endsWith('/') && exists) {
    for (const w of app.welcomeFiles) {
      const candidate = path + w;
      const byMapping = mapPath(c, app, candidate);
      if (byMapping && byMapping.kind !== 'extension') return byMapping;
      if (exists(candidate)) {
        if (byMapping) return byMapping;
        if (c.defaultServlet) return { servletName: c.defaultServlet.servlet, pattern: c.defaultServlet.pattern, kind: 'default', requestPath: candidate };
      }
    }
  }
  if (c.defaultServlet) return { servletName: c.defaultServlet.servlet, pattern: c.defaultServlet.pattern, kind: 'default', requestPath: path };
  return null;
}

/**
 * The filters that run for a request, in Tomcat's order: every mapping whose
 * url-pattern matches, in mapping order, then every mapping whose servlet-name
 * matches the servlet, in mapping order. A filter runs once, at its first place.
 */
export function effectiveChain(
  app: MergedWebApp,
  path: string,
  dispatcher: Dispatcher = 'REQUEST',
  exists?: (path: string) => boolean,
): { servlet: ServletMatch | null; entries: ChainEntry[] } {
  const c = compile(app);
  const bit = DISPATCH_BITS[dispatcher]!;
  const servlet = resolveServlet(app, path, exists);
  const requestPath = servlet?.requestPath ?? path;
  const entries: ChainEntry[] = [];
  const seen = new Set<string>();
  const add = (m: CompiledMapping, kind: 'url-pattern' | 'servlet-name', value: string): void => {
    const name = m.mapping.mapping.filterName.value;
    const filter = app.filters.get(name);
    if (!filter || seen.has(name)) return;
    seen.add(name);
    entries.push({ filter, mapping: m.mapping, matchedBy: { kind, value } });
  };
  for (const m of c.mappings) {
    if ((m.dispatchers & bit) === 0) continue;
    const hit = m.patterns.find((p) => matchesFilterPattern(p, requestPath));
    if (hit) add(m, 'url-pattern', hit.pattern);
  }
  if (servlet) {
    for (const m of c.mappings) {
      if ((m.dispatchers & bit) === 0) continue;
      if (m.allServlets) add(m, 'servlet-name', '*');
      else if (m.servletNames.includes(servlet.servletName)) add(m, 'servlet-name', servlet.servletName);
    }
  }
  return { servlet, entries };
}
