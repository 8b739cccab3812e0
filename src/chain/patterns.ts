/**
 * Servlet-spec URL patterns: which ones Tomcat accepts (StandardContext's
 * validation) and which look like mistakes. Matching itself lives in the
 * runtime (src/runtime/url-pattern.ts), because generated chains match on
 * every request; the chain stage uses the same code.
 */
export { compilePattern, matchesFilterPattern, matchesFilterUrlPattern, type CompiledPattern, type PatternKind } from '../runtime/url-pattern.js';

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

