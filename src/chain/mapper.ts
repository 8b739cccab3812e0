/**
 * Which servlet serves a context-relative path, in the order of Tomcat's
 * Mapper: exact, longest path prefix, extension, welcome resources (for a
 * path ending in "/"), then the default servlet ("/"). Each MergedWebApp is
 * compiled into lookup maps once; a lookup is then a few Map.get calls.
 */
import type { MergedServletMapping, MergedWebApp } from './types.js';

export type ServletMatchKind = 'exact' | 'path' | 'extension' | 'default' | 'context-root';

export interface ServletMatch {
  servletName: string;
  /** The servlet-mapping url-pattern that selected it. */
  pattern: string;
  kind: ServletMatchKind;
  /**
   * The path Tomcat matches filter url-patterns against: the request path, or
   * the welcome resource it resolved to ("/index.html" for "/"), or "/" for a
   * context-root ("") mapping.
   */
  requestPath: string;
  /** The welcome file used, when the path ended in "/". */
  welcomeFile?: string;
}

/** Whether a context-relative path is a file of the application (welcome files need it). */
export type FileExists = (path: string) => boolean;

interface CompiledMapper {
  exact: Map<string, MergedServletMapping>;
  prefix: Map<string, MergedServletMapping>;
  extension: Map<string, MergedServletMapping>;
  defaultServlet: MergedServletMapping | null;
  welcomeFiles: string[];
}

/** Servlets Tomcat maps by extension only when the resource exists (Context resourceOnlyServlets, default "jsp"). */
const RESOURCE_ONLY = new Set(['jsp']);
const compiled = new WeakMap<MergedWebApp, CompiledMapper>();

function compile(app: MergedWebApp): CompiledMapper {
  let c = compiled.get(app);
  if (c) return c;
  c = {
    exact: new Map(),
    prefix: new Map(),
    extension: new Map(),
    defaultServlet: null,
    welcomeFiles: app.welcomeFiles,
  };
  for (const m of app.servletMappings.values()) {
    const p = m.pattern;
    if (p.endsWith('/*')) c.prefix.set(p.slice(0, -2), m);
    else if (p.startsWith('*.')) c.extension.set(p.slice(2), m);
    else if (p === '/') c.defaultServlet = m;
    // The context-root mapping "" is an exact mapping of "/".
    else c.exact.set(p === '' ? '/' : p, m);
  }
  compiled.set(app, c);
  return c;
}

function exactMatch(c: CompiledMapper, path: string): ServletMatch | null {
  const m = c.exact.get(path);
  if (!m) return null;
  return {
    servletName: m.servletName,
    pattern: m.pattern,
    kind: m.pattern === '' ? 'context-root' : 'exact',
    requestPath: path,
  };
}

function prefixMatch(c: CompiledMapper, path: string): ServletMatch | null {
  if (c.prefix.size === 0) return null;
  let candidate = path;
  for (;;) {
    const m = c.prefix.get(candidate);
    if (m) return { servletName: m.servletName, pattern: m.pattern, kind: 'path', requestPath: path };
    if (candidate === '') return null;
    candidate = candidate.slice(0, candidate.lastIndexOf('/'));
  }
}

function extensionMatch(c: CompiledMapper, path: string, resourceExpected: boolean): ServletMatch | null {
  if (c.extension.size === 0) return null;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (slash < 0 || dot < slash) return null;
  const m = c.extension.get(path.slice(dot + 1));
  if (!m || (!resourceExpected && RESOURCE_ONLY.has(m.servletName))) return null;
  return { servletName: m.servletName, pattern: m.pattern, kind: 'extension', requestPath: path };
}

function defaultMatch(c: CompiledMapper, requestPath: string): ServletMatch | null {
  const d = c.defaultServlet;
  return d ? { servletName: d.servletName, pattern: d.pattern, kind: 'default', requestPath } : null;
}

function welcomeMatch(c: CompiledMapper, path: string, exists: FileExists | undefined): ServletMatch | null {
  for (const w of c.welcomeFiles) {
    const candidate = path + w;
    const hit = exactMatch(c, candidate) ?? prefixMatch(c, candidate);
    if (hit) return { ...hit, welcomeFile: w };
    if (exists?.(candidate)) {
      const byResource = extensionMatch(c, candidate, true) ?? defaultMatch(c, candidate);
      if (byResource) return { ...byResource, welcomeFile: w };
    }
  }
  // A second pass maps welcome files by extension without a file behind them (index.do), except resource-only servlets.
  for (const w of c.welcomeFiles) {
    const hit = extensionMatch(c, path + w, false);
    if (hit) return { ...hit, welcomeFile: w };
  }
  return null;
}

/**
 * The servlet Tomcat selects for a context-relative, decoded path ("/a/b.html";
 * "" is the context path itself without its slash, which Tomcat redirects
 * unless a "/*" mapping takes it). `exists` says whether a path is a file of
 * the application; without it welcome files are resolved by mapping only.
 * Null when no servlet matches: Tomcat answers 404 without running any filter.
 */
export function resolveServlet(app: MergedWebApp, path: string, exists?: FileExists): ServletMatch | null {
  const c = compile(app);
  const direct = exactMatch(c, path) ?? prefixMatch(c, path);
  if (direct) return direct;
  if (path === '') return null;
  const byExtension = extensionMatch(c, path, true);
  if (byExtension) return byExtension;
  if (path.endsWith('/')) {
    const welcome = welcomeMatch(c, path, exists);
    if (welcome) return welcome;
  }
  return defaultMatch(c, path);
}
