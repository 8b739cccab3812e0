/**
 * Servlet-spec URL patterns as Tomcat 10.1 reads, validates and matches them.
 * A pattern is classified once (compilePattern); matching a request is then a
 * switch and string comparisons, never a regex.
 */

// Classification and matching live in the runtime (compiled modules match on every request); one implementation.
import { compilePattern, matchesFilterPattern } from '../protocol/url-pattern.js';

export {
  compilePattern,
  matchesFilterPattern,
  type CompiledPattern,
  type PatternKind,
} from '../protocol/url-pattern.js';

/** Where a pattern is used: Tomcat accepts `*` in a filter-mapping only. */
export type PatternUse = 'filter-mapping' | 'servlet-mapping';

/**
 * Why Tomcat refuses a (decoded) url-pattern, or null when it accepts it
 * (StandardContext.validateURLPattern). A refused pattern stops the context.
 */
export function validateUrlPattern(pattern: string, use: PatternUse = 'filter-mapping'): string | null {
  if (pattern === '*')
    return use === 'filter-mapping'
      ? null
      : '"*" matches every path only in a <filter-mapping>; a <servlet-mapping> needs "/" or "/*"';
  if (pattern.includes('\n') || pattern.includes('\r')) return 'it contains a line break';
  if (pattern === '') return null;
  if (pattern.startsWith('*.'))
    return pattern.includes('/') ? 'an extension pattern ("*.ext") cannot contain "/"' : null;
  if (!pattern.startsWith('/')) return 'it must start with "/" or "*." (or be empty, for the context root)';
  if (pattern.includes('*.')) return 'a path pattern cannot contain "*." (use either "/dir/*" or "*.ext")';
  return null;
}

/**
 * Patterns Tomcat accepts but logs as suspicious (checkUnusualURLPattern), with
 * what they really do: "/foo*" is an exact match for the literal text, and
 * "*.tar.gz" never matches, since the extension is what follows the last dot.
 */
export function unusualUrlPattern(pattern: string): string | null {
  if (pattern === '*') return null;
  if (pattern.endsWith('*') && !pattern.endsWith('/*') && !pattern.startsWith('*.')) {
    return `"${pattern}" is an exact match for a path ending in "*", not a wildcard: write "${pattern.replace(/\*+$/, '').replace(/\/?$/, '/*')}" for a prefix`;
  }
  if (pattern.startsWith('*.') && pattern.length > 2) {
    const ext = pattern.slice(2);
    if (ext.includes('.'))
      return `"${pattern}" never matches: the extension is the text after the last ".", so use "*.${ext.slice(ext.lastIndexOf('.') + 1)}"`;
    if (ext.includes('*'))
      return `"${pattern}" has a "*" inside the extension, which matches only that literal character`;
  }
  return null;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * %-decodes a url-pattern as Tomcat does when it reads web.xml (UDecoder, UTF-8,
 * "+" stays "+"). Returns the reason instead when a "%" is not followed by two
 * hex digits: Tomcat then stops reading the descriptor.
 */
export function decodeUrlPattern(raw: string): { pattern: string } | { error: string } {
  if (!raw.includes('%')) return { pattern: raw };
  const bytes: number[] = [];
  let out = '';
  const flush = (): void => {
    if (bytes.length) out += Buffer.from(bytes).toString('utf8');
    bytes.length = 0;
  };
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) !== 37) {
      flush();
      out += raw[i];
      continue;
    }
    const hi = i + 2 < raw.length ? hexValue(raw.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(raw.charCodeAt(i + 2)) : -1;
    if (hi < 0 || lo < 0)
      return { error: `"%" must be followed by two hexadecimal digits (at "${raw.slice(i, i + 3)}")` };
    bytes.push(hi * 16 + lo);
    i += 2;
  }
  flush();
  return { pattern: out };
}

/** One-off form of matchesFilterPattern for a raw (already decoded) pattern. */
export function matchesFilterUrlPattern(pattern: string, path: string): boolean {
  return matchesFilterPattern(compilePattern(pattern), path);
}
