/**
 * Which filters run for a request, as Tomcat's ApplicationFilterFactory and
 * Mapper decide it, over a plain table the compiler writes. The chain stage
 * (src/chain) uses the same code on the merged descriptors, so what `tollgate
 * chain` prints and what a compiled module runs cannot drift.
 */
import { BoundedCache } from './memo.js';
import { compilePattern, matchesFilterPattern, type CompiledPattern, type PatternKind } from './url-pattern.js';

/** Servlet dispatcher types; a request entering the chain from the network is REQUEST. */
export type DispatcherType = 'REQUEST' | 'FORWARD' | 'INCLUDE' | 'ASYNC' | 'ERROR';

export interface SelectorTable {
  /** In Tomcat's final mapping order. `filter` indexes the context's filters; -1 for an undefined filter (never runs). */
  filterMappings: readonly {
    filter: number;
    urlPatterns: readonly string[];
    servletNames: readonly string[];
    dispatchers: readonly string[];
  }[];
  /** Merged servlet mappings: url-pattern -> servlet name. */
  servletMappings: readonly { pattern: string; servlet: string }[];
  welcomeFiles: readonly string[];
}

export interface ServletMatch {
  servletName: string;
  pattern: string;
  kind: PatternKind;
  /** The path filters are matched against (a welcome file rewrites it). */
  requestPath: string;
}

export interface SelectedEntry {
  filter: number;
  /** Index into `filterMappings`. */
  mapping: number;
  matchedBy: 'url-pattern' | 'servlet-name';
  value: string;
}

export interface Selection {
  servlet: ServletMatch | null;
  entries: SelectedEntry[];
  /** Filter indexes in order: what the runtime runs. */
  chain: number[];
}

const DISPATCH_BITS: Record<string, number> = { REQUEST: 1, FORWARD: 2, INCLUDE: 4, ERROR: 8, ASYNC: 16 };

/** Dispatcher bits of a mapping as Tomcat reads them: unknown names are ignored, none means REQUEST. */
export function dispatcherBits(texts: readonly string[]): number {
  let bits = 0;
  for (const t of texts) bits |= DISPATCH_BITS[t.toUpperCase()] ?? 0;
  return bits === 0 ? 1 : bits;
}

interface CompiledMapping {
  filter: number;
  patterns: CompiledPattern[];
  servletNames: string[];
  allServlets: boolean;
  dispatchers: number;
}

/** A request path's chain, with the options a compiled module or the chain stage needs. */
export type ChainSelector = (pathInContext: string, dispatcher?: DispatcherType) => Selection;

/**
 * Compiles the table once; each call then walks precompiled patterns. Results
 * for REQUEST are cached per path (bounded), since most traffic repeats paths.
 * `exists` tells whether a file exists in the application, for welcome files.
 */
export function createChainSelector(
  table: SelectorTable,
  opts: { exists?: (pathInContext: string) => boolean; cacheSize?: number } = {},
): ChainSelector {
  const mappings: CompiledMapping[] = table.filterMappings.map((m) => ({
    filter: m.filter,
    patterns: m.urlPatterns.map(compilePattern),
    servletNames: m.servletNames.filter((n) => n !== '*'),
    allServlets: m.servletNames.includes('*'),
    dispatchers: dispatcherBits(m.dispatchers),
  }));
  const exact = new Map<string, { servlet: string; pattern: string; kind: PatternKind }>();
  const prefixes: { key: string; servlet: string; pattern: string }[] = [];
  const extensions = new Map<string, { servlet: string; pattern: string }>();
  let defaultServlet: { servlet: string; pattern: string } | null = null;
  for (const sm of table.servletMappings) {
    const p = compilePattern(sm.pattern);
    if (p.kind === 'exact') exact.set(p.key, { servlet: sm.servlet, pattern: sm.pattern, kind: 'exact' });
    else if (p.kind === 'context-root')
      exact.set('/', { servlet: sm.servlet, pattern: sm.pattern, kind: 'context-root' });
    else if (p.kind === 'path') prefixes.push({ key: p.key, servlet: sm.servlet, pattern: sm.pattern });
    else if (p.kind === 'extension') extensions.set(p.key, { servlet: sm.servlet, pattern: sm.pattern });
    else if (p.kind === 'default') defaultServlet = { servlet: sm.servlet, pattern: sm.pattern };
  }
  prefixes.sort((a, b) => b.key.length - a.key.length);
  const { exists } = opts;
  const welcomeFiles = table.welcomeFiles;

  const exactMatch = (path: string): ServletMatch | null => {
    const e = exact.get(path);
    return e ? { servletName: e.servlet, pattern: e.pattern, kind: e.kind, requestPath: path } : null;
  };
  const prefixMatch = (path: string): ServletMatch | null => {
    for (const p of prefixes) {
      if (path.startsWith(p.key) && (path.length === p.key.length || path.charCodeAt(p.key.length) === 47)) {
        return { servletName: p.servlet, pattern: p.pattern, kind: 'path', requestPath: path };
      }
    }
    return null;
  };
  // Servlets the Mapper selects by extension only when the resource exists (Context resourceOnlyServlets: jsp).
  const extensionMatch = (path: string, resourceExpected: boolean): ServletMatch | null => {
    const slash = path.lastIndexOf('/');
    const dot = path.lastIndexOf('.');
    if (slash < 0 || dot < slash) return null;
    const x = extensions.get(path.slice(dot + 1));
    if (!x || (!resourceExpected && x.servlet === 'jsp')) return null;
    return { servletName: x.servlet, pattern: x.pattern, kind: 'extension', requestPath: path };
  };
  const defaultMatch = (requestPath: string): ServletMatch | null =>
    defaultServlet
      ? { servletName: defaultServlet.servlet, pattern: defaultServlet.pattern, kind: 'default', requestPath }
      : null;
  const welcomeMatch = (path: string): ServletMatch | null => {
    for (const w of welcomeFiles) {
      const candidate = path + w;
      const hit = exactMatch(candidate) ?? prefixMatch(candidate);
      if (hit) return hit;
      if (exists?.(candidate)) {
        const byResource = extensionMatch(candidate, true) ?? defaultMatch(candidate);
        if (byResource) return byResource;
      }
    }
    for (const w of welcomeFiles) {
      const hit = extensionMatch(path + w, false);
      if (hit) return hit;
    }
    return null;
  };

  /** The Mapper's order: exact, longest prefix, extension, welcome resources for a path ending in "/", default. */
  const resolveServlet = (path: string): ServletMatch | null => {
    const direct = exactMatch(path) ?? prefixMatch(path);
    if (direct) return direct;
    if (path === '') return null;
    const byExtension = extensionMatch(path, true);
    if (byExtension) return byExtension;
    if (path.endsWith('/')) {
      const welcome = welcomeMatch(path);
      if (welcome) return welcome;
    }
    return defaultMatch(path);
  };

  const select = (path: string, dispatcher: DispatcherType = 'REQUEST'): Selection => {
    const bit = DISPATCH_BITS[dispatcher] ?? 1;
    const servlet = resolveServlet(path);
    const entries: SelectedEntry[] = [];
    const chain: number[] = [];
    // No servlet: Tomcat answers 404 without building a filter chain.
    if (servlet === null) return { servlet, entries, chain };
    const requestPath = servlet.requestPath;
    const add = (m: CompiledMapping, index: number, matchedBy: SelectedEntry['matchedBy'], value: string): void => {
      // A filter runs once, at its first place (ApplicationFilterChain skips repeats).
      if (m.filter < 0 || chain.includes(m.filter)) return;
      chain.push(m.filter);
      entries.push({ filter: m.filter, mapping: index, matchedBy, value });
    };
    for (let i = 0; i < mappings.length; i++) {
      const m = mappings[i]!;
      if ((m.dispatchers & bit) === 0) continue;
      for (const p of m.patterns) {
        if (matchesFilterPattern(p, requestPath)) {
          add(m, i, 'url-pattern', p.pattern);
          break;
        }
      }
    }
    {
      for (let i = 0; i < mappings.length; i++) {
        const m = mappings[i]!;
        if ((m.dispatchers & bit) === 0) continue;
        if (m.allServlets) add(m, i, 'servlet-name', '*');
        else if (m.servletNames.includes(servlet.servletName)) add(m, i, 'servlet-name', servlet.servletName);
      }
    }
    return { servlet, entries, chain };
  };

  const limit = opts.cacheSize ?? 1024;
  if (limit <= 0 || exists) return select;
  const cache = new BoundedCache<string, Selection>(limit);
  return (path: string, dispatcher: DispatcherType = 'REQUEST'): Selection => {
    if (dispatcher !== 'REQUEST') return select(path, dispatcher);
    let hit = cache.get(path);
    if (hit === undefined) {
      hit = select(path, dispatcher);
      cache.set(path, hit);
    }
    return hit;
  };
}
