/**
 * Servlet-spec URL patterns as Tomcat matches them (ApplicationFilterFactory
 * for filters, the Mapper for servlets). A pattern is classified once, so a
 * request only meets a switch and string comparisons, never a regex.
 */
export type PatternKind = 'exact' | 'path' | 'extension' | 'default' | 'context-root' | 'all';

export interface CompiledPattern {
  pattern: string;
  kind: PatternKind;
  /** exact: the path; path: the prefix without `/*` ("" for "/*"); extension: the text after `*.`; else "". */
  key: string;
}

/** Classifies a pattern the way filter and servlet matching will use it. `*` (Tomcat only) matches everything. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === '*') return { pattern, kind: 'all', key: '' };
  if (pattern === '') return { pattern, kind: 'context-root', key: '' };
  if (pattern === '/') return { pattern, kind: 'default', key: '' };
  if (pattern === '/*') return { pattern, kind: 'path', key: '' };
  if (pattern.endsWith('/*')) return { pattern, kind: 'path', key: pattern.slice(0, -2) };
  if (pattern.startsWith('*.')) return { pattern, kind: 'extension', key: pattern.slice(2) };
  return { pattern, kind: 'exact', key: pattern };
}

/** Whether a filter mapping's url-pattern applies to a request path (servletPath + pathInfo). */
export function matchesFilterPattern(p: CompiledPattern, path: string): boolean {
  switch (p.kind) {
    case 'all':
      return true;
    case 'exact':
      return path === p.key;
    case 'default':
      return path === '/';
    case 'context-root':
      // Tomcat 10.1.41+ (BZ 69633): "" matches the context root "/", and the empty path a "/*" servlet gets.
      return path === '/' || path === '';
    case 'path':
      return path.startsWith(p.key) && (path.length === p.key.length || path.charCodeAt(p.key.length) === 47);
    case 'extension': {
      const slash = path.lastIndexOf('/');
      const dot = path.lastIndexOf('.');
      return (
        slash >= 0 &&
        dot > slash &&
        dot !== path.length - 1 &&
        path.length - dot - 1 === p.key.length &&
        path.endsWith(p.key)
      );
    }
  }
}

/** Convenience for one-off checks: compile and match. */
export function matchesFilterUrlPattern(pattern: string, path: string): boolean {
  return matchesFilterPattern(compilePattern(pattern), path);
}
