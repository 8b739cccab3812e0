/**
 * Servlet-spec URL patterns as Tomcat applies them (StandardContext's
 * validation, the filter matching of ApplicationFilterFactory and the
 * servlet selection of the Mapper). Patterns are classified once so matching
 * is a switch, never a regex.
 */
export type PatternKind = 'exact' | 'path' | 'extension' | 'default' | 'context-root' | 'all';

export interface CompiledPattern {
  pattern: string;
  kind: PatternKind;
  /** exact: the path; path: the prefix without `/*`; extension: the extension without `*.`. */
  key: string;
}

/** Why Tomcat refuses a url-pattern, or null when it accepts it. */
export function validateUrlPattern(pattern: string): string | null {
  if (pattern.includes('\n') || pattern.includes('\r')) return 'it contains a line break';
  if (pattern === '') return null;
  if (pattern.startsWith('*.')) {
    return pattern.includes('/') ? 'an extension pattern ("*.ext") cannot contain "/"' : null;
  }
  if (pattern.startsWith('/')) {
    return pattern.includes('*.') ? 'a path pattern cannot contain "*." (use either "/dir/*" or "*.ext")' : null;
  }
  return 'it must start with "/" or "*."';
}

/**
 * Patterns Tomcat accepts but that rarely do what was meant (checkUnusualURLPattern),
 * e.g. "/foo*" which is an exact match for the literal text "/foo*".
 */
export function unusualUrlPattern(pattern: string): string | null {
  if (pattern.endsWith('*') && !pattern.endsWith('/*') && pattern !== '*' && !pattern.startsWith('*.')) {
    return `"${pattern}" is an exact match for a path ending in "*", not a wildcard: write "${pattern.replace(/\*+$/, '').replace(/\/?$/, '/*')}" for a prefix`;
  }
  if (pattern.startsWith('*.') && pattern.length > 2 && pattern.slice(2).includes('*')) {
    return `"${pattern}" has a "*" inside the extension, which matches only that literal character`;
  }
  return null;
}

/** Classifies a pattern the way filter and servlet matching will use it. `*` (Tomcat only) matches everything. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === '*') return { pattern, kind: 'all', key: '' };
  if (pattern === '') return { pattern, kind: 'context-root', key: '/' };
  if (pattern === '/') return { pattern, kind: 'default', key: '/' };
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
    case 'default':
      return path === p.key;
    case 'context-root':
      // Tomcat compares the pattern text itself: "" never equals a request path.
      return path === '';
    case 'path':
      return path.startsWith(p.key) && (path.length === p.key.length || path.charCodeAt(p.key.length) === 47);
    case 'extension': {
      const slash = path.lastIndexOf('/');
      const dot = path.lastIndexOf('.');
      return slash >= 0 && dot > slash && dot !== path.length - 1 && path.length - dot - 1 === p.key.length && path.endsWith(p.key);
    }
  }
}

/** Convenience for one-off checks: compile and match. */
export function matchesFilterUrlPattern(pattern: string, path: string): boolean {
  return matchesFilterPattern(compilePattern(pattern), path);
}
