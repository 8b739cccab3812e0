/**
 * The decoded, normalised request path Tomcat maps and matches filters
 * against (CoyoteAdapter.postParseRequest): path parameters (`;jsessionid=…`)
 * removed, %-escapes decoded, `//`, `/./` and `/../` resolved, then the bytes
 * decoded with the connector's URI charset. Inputs Tomcat answers with 400
 * give null.
 */
import type { ByteDecoder } from '../protocol/charset.js';

/** Splits a request-target into raw path and query (null when there is no `?`). */
export function splitRequestTarget(target: string): { path: string; query: string | null } {
  let path = target;
  let query: string | null = null;
  const q = target.indexOf('?');
  if (q >= 0) {
    path = target.slice(0, q);
    query = target.slice(q + 1);
  }
  // absolute-form (`GET http://host/x`): the path starts after the authority.
  if (path.charCodeAt(0) !== 47 && /^https?:\/\//i.test(path)) {
    const slash = path.indexOf('/', path.indexOf('//') + 2);
    path = slash < 0 ? '/' : path.slice(slash);
  }
  return { path, query };
}

/**
 * Whether a path needs more than a look: it has '%', ';', '\\', a byte outside
 * 0x21-0x7e (NUL included), '//', or a '.' or '..' segment ('/./', '/../', or one
 * at the end). A character loop: most paths are plain, and a regular expression
 * costs more to enter than this costs to run.
 */
export function pathNeedsWork(raw: string): boolean {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 37 || c === 59 || c === 92) return true;
    if (c !== 47 || i + 1 === n) continue;
    const next = raw.charCodeAt(i + 1);
    if (next === 47) return true;
    if (next !== 46) continue;
    // "/." then "/", the end, "." at the end, or "./".
    if (i + 2 === n) return true;
    const after = raw.charCodeAt(i + 2);
    if (after === 47) return true;
    if (after === 46 && (i + 3 === n || raw.charCodeAt(i + 3) === 47)) return true;
  }
  return false;
}

/** Decodes and normalises a raw path; null when Tomcat would reject it with 400. */
export function decodeRequestPath(raw: string, decode: ByteDecoder): string | null {
  if (raw.charCodeAt(0) !== 47) return null;
  if (!pathNeedsWork(raw)) return raw;
  const bytes = percentDecode(stripPathParameters(raw));
  if (bytes === null) return null;
  const normal = normalize(bytes);
  if (normal === null) return null;
  return /[\x80-\xff]/.test(normal) ? decode(Buffer.from(normal, 'latin1')) : normal;
}

function stripPathParameters(path: string): string {
  let semi = path.indexOf(';', 1);
  if (semi < 0) return path;
  let out = '';
  let from = 0;
  while (semi >= 0) {
    out += path.slice(from, semi);
    const slash = path.indexOf('/', semi);
    const nextSemi = path.indexOf(';', semi + 1);
    // A parameter ends at the next '/' or ';'.
    let stop = slash < 0 ? path.length : slash;
    if (nextSemi >= 0 && nextSemi < stop) stop = nextSemi;
    from = stop;
    semi = path.indexOf(';', stop);
  }
  return out + path.slice(from);
}

/** %-decodes into a byte string (one char per byte); %2F is refused, as by default in Tomcat. */
function percentDecode(s: string): string | null {
  if (!s.includes('%')) return s;
  let out = '';
  let from = 0;
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', from)) {
    const hex = s.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
    const code = parseInt(hex, 16);
    if (code === 0x2f) return null;
    out += s.slice(from, i) + String.fromCharCode(code);
    from = i + 3;
  }
  return out + s.slice(from);
}

function normalize(path: string): string | null {
  if (path.charCodeAt(0) !== 47) return null;
  // Backslashes (allowBackslash=false) and NUL are refused.
  if (path.includes('\\') || path.includes('\0')) return null;
  const segments = path.split('/');
  const out: string[] = [];
  const last = segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const seg = segments[i]!;
    if (seg === '' && i !== last) continue;
    if (seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
      continue;
    }
    out.push(seg);
  }
  // "/a/." becomes "/a" (no trailing slash), "/a/" keeps its slash: the same as Tomcat's byte-level rewrite.
  return '/' + out.join('/');
}

/**
 * The message of the 400 Tomcat's CoyoteAdapter sends for a path
 * decodeRequestPath refused: UDecoder's reason for the first bad %-escape or
 * encoded slash, else the normalisation failure's plain "Invalid URI".
 */
export function invalidPathMessage(raw: string): string {
  for (let i = raw.indexOf('%'); i >= 0; i = raw.indexOf('%', i + 1)) {
    const hex = raw.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return 'Invalid URI: [The hexadecimal encoding is invalid]';
    if (hex === '2f' || hex === '2F') return 'Invalid URI: [The encoded slash character is not allowed]';
  }
  return 'Invalid URI';
}
