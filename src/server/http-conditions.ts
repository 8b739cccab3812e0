/**
 * The pieces of HTTP the static servlet evaluates: entity-tag lists,
 * HTTP dates and byte ranges, read the way Tomcat's parsers read them (an
 * unreadable entity-tag list is a 400, an unreadable Range a 416).
 */

/** Tomcat's weak validator for a file: `W/"<length>-<lastModifiedMillis>"`. */
export function weakETag(size: number, mtimeMs: number): string {
  return `W/"${size}-${Math.floor(mtimeMs)}"`;
}

/**
 * Whether any entity tag of a comma-separated list matches `etag`: weak
 * comparison ignores `W/` on both sides, strong comparison needs two equal
 * strong tags. null when the list is not a list of quoted entity tags.
 */
export function matchEntityTags(header: string, etag: string | null, weak: boolean): boolean | null {
  const target = etag === null ? null : weak && etag.startsWith('W/') ? etag.slice(2) : etag;
  let matched = false;
  let i = 0;
  const n = header.length;
  for (;;) {
    while (i < n && isWhite(header.charCodeAt(i))) i++;
    if (i >= n) return null;
    let strong = true;
    if (header.startsWith('W/', i)) {
      strong = false;
      i += 2;
    }
    if (header.charCodeAt(i) !== 34) return null;
    const close = header.indexOf('"', i + 1);
    if (close < 0) return null;
    const value = header.slice(i, close + 1);
    i = close + 1;
    if ((strong || weak) && value === target) matched = true;
    while (i < n && isWhite(header.charCodeAt(i))) i++;
    if (i >= n) return matched;
    if (header.charCodeAt(i) !== 44) return null;
    i++;
  }
}

function isWhite(c: number): boolean {
  return c === 32 || c === 9;
}

// One reading of HTTP dates for the whole project, Tomcat's (an unreadable one is ignored).
export { formatHttpDate, parseHttpDate } from '../protocol/http-date.js';

/** One satisfiable byte range, inclusive at both ends. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a Range header asks of a representation of `length` bytes. */
export type RangeVerdict = { kind: 'full' } | { kind: 'unsatisfiable' } | { kind: 'partial'; ranges: ByteRange[] };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const MAX_DIGITS = 18;

/**
 * Reads a Range header as Tomcat does: units other than `bytes` are ignored
 * (full response), malformed headers and ranges outside the representation
 * are unsatisfiable (416), more than one overlap among three or more ranges
 * is refused.
 */
export function evaluateRange(header: string, length: number): RangeVerdict {
  const m = TOKEN.exec(header);
  if (m === null) return { kind: 'unsatisfiable' };
  const units = m[0];
  let rest = header.slice(units.length).trimStart();
  if (!rest.startsWith('=')) return { kind: 'unsatisfiable' };
  rest = rest.slice(1);
  const specs: { first: number; last: number }[] = [];
  for (const part of rest.split(',')) {
    const r = /^[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/.exec(part);
    if (r === null) return { kind: 'unsatisfiable' };
    const [, a, b] = r as unknown as [string, string, string];
    if (a.length > MAX_DIGITS || b.length > MAX_DIGITS) return { kind: 'unsatisfiable' };
    const first = a === '' ? -1 : Number(a);
    const last = b === '' ? -1 : Number(b);
    if (first === -1 && last === -1) return { kind: 'unsatisfiable' };
    if (last !== -1 && first > last) return { kind: 'unsatisfiable' };
    specs.push({ first, last });
  }
  if (units !== 'bytes') return { kind: 'full' };
  const ranges: ByteRange[] = [];
  for (const s of specs) {
    const start = s.first === -1 ? (s.last >= length ? 0 : length - s.last) : s.first;
    const end = s.first === -1 || s.last === -1 || s.last >= length ? length - 1 : s.last;
    if (start > end) return { kind: 'unsatisfiable' };
    ranges.push({ start, end });
  }
  if (ranges.length >= 3 && overlaps(ranges) > 1) return { kind: 'unsatisfiable' };
  return { kind: 'partial', ranges };
}

/** How many ranges start at or before the furthest end seen so far (duplicates count once each). */
function overlaps(ranges: readonly ByteRange[]): number {
  const sorted = [...ranges].sort((x, y) => x.start - y.start || x.end - y.end);
  let count = 0;
  let furthest = -1;
  for (const r of sorted) {
    if (r.start <= furthest) count++;
    if (r.end > furthest) furthest = r.end;
  }
  return count;
}
