/**
 * java.net.URI's parser (RFC 2396 with Java's deviations) reduced to what
 * the filters need: whether `new URI(text)` succeeds, and the raw
 * components. CorsFilter validates Origin headers with it and
 * CsrfPreventionFilter decides which URLs get a nonce.
 */
import { parseIp } from '../../protocol/net.js';
import { boundedMemo } from '../../protocol/memo.js';

/** The raw components of a URI; null where the URI has none. */
export interface JavaUri {
  scheme: string | null;
  /** Opaque URIs (`mailto:x`) have only a scheme-specific part. */
  opaque: boolean;
  authority: string | null;
  /** '' for an empty path; null for opaque URIs. */
  path: string | null;
  query: string | null;
  fragment: string | null;
}

// Character classes as bit tables over ASCII (java.net.URI's L_/H_ masks).
const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALPHANUM = ALPHA + '0123456789';
const UNRESERVED = ALPHANUM + "-_.!~*'()";
const RESERVED = ';/?:@&=+$,[]';

function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

const SCHEME = table(ALPHANUM + '+-.');
const URIC = table(RESERVED + UNRESERVED);
const PATH = table(UNRESERVED + ':@&=+$,;/');
const REG_NAME = table(UNRESERVED + '$,;:@&=+');
const SERVER = table(UNRESERVED + ';:&=+$,.@[]');

const HEX = /^[0-9A-Fa-f]{2}$/;
const SPACE_SEPARATOR = /[\p{Zs}\p{Zl}\p{Zp}]/u;
const OPTIONAL_PORT = /^:\d*$/;
const PORT = /^\d{1,9}$/;

/** Whether `s[from, to)` holds only characters of `set`, escapes (%XX) and, like Java, non-ASCII "other" characters. */
function allIn(s: string, from: number, to: number, set: Uint8Array): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (set[c] === 1) continue;
      if (c === 37 && HEX.test(s.slice(i + 1, i + 3))) {
        i += 2;
        continue;
      }
      return false;
    }
    // Java admits chars above U+0080 that are neither controls nor space separators.
    if (c <= 0xa0 || SPACE_SEPARATOR.test(s[i]!)) return false;
  }
  return true;
}

/** Index of the first char of `stops` in s[from, to), or `to`. */
function scanTo(s: string, from: number, to: number, stops: string): number {
  for (let i = from; i < to; i++) if (stops.includes(s[i]!)) return i;
  return to;
}

/** Parses like `new URI(text)`; null where Java throws URISyntaxException. */
export function parseJavaUri(text: string): JavaUri | null {
  const n = text.length;
  const uri: JavaUri = { scheme: null, opaque: false, authority: null, path: null, query: null, fragment: null };
  let p: number;
  const colon = scanTo(text, 0, n, '/?#:');
  if (colon < n && text[colon] === ':') {
    if (colon === 0 || !ALPHA.includes(text[0]!)) return null;
    for (let i = 1; i < colon; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128 || SCHEME[c] !== 1) return null;
    }
    uri.scheme = text.slice(0, colon);
    p = colon + 1;
    if (text[p] === '/') {
      p = parseHierarchical(text, p, uri);
      if (p < 0) return null;
    } else {
      const q = scanTo(text, p, n, '#');
      if (q <= p || !allIn(text, p, q, URIC)) return null;
      uri.opaque = true;
      p = q;
    }
  } else {
    p = parseHierarchical(text, 0, uri);
    if (p < 0) return null;
  }
  if (p < n && text[p] === '#') {
    if (!allIn(text, p + 1, n, URIC)) return null;
    uri.fragment = text.slice(p + 1);
    p = n;
  }
  return p === n ? uri : null;
}

function parseHierarchical(s: string, start: number, uri: JavaUri): number {
  const n = s.length;
  let p = start;
  if (s[p] === '/' && s[p + 1] === '/') {
    p += 2;
    const q = scanTo(s, p, n, '/?#');
    if (q > p) {
      if (!validAuthority(s.slice(p, q))) return -1;
      uri.authority = s.slice(p, q);
    } else if (q >= n) {
      // Java allows an empty authority only before a path, query or fragment.
      return -1;
    }
    p = q;
  }
  const qs = scanTo(s, p, n, '?#');
  if (!allIn(s, p, qs, PATH)) return -1;
  uri.path = s.slice(p, qs);
  p = qs;
  if (s[p] === '?') {
    const q = scanTo(s, p + 1, n, '#');
    if (!allIn(s, p + 1, q, URIC)) return -1;
    uri.query = s.slice(p + 1, q);
    p = q;
  }
  return p;
}

/**
 * Java first tries a server authority and falls back to a registry name, so
 * only brackets (an IPv6 literal) need the server form to hold.
 */
function validAuthority(a: string): boolean {
  if (allIn(a, 0, a.length, REG_NAME)) return true;
  if (!allIn(a, 0, a.length, SERVER)) return false;
  const at = a.lastIndexOf('@');
  const host = a.slice(at + 1);
  if (!host.startsWith('[')) return false;
  const close = host.indexOf(']');
  if (close < 0) return false;
  const literal = host.slice(1, close);
  if (literal.includes('%') || literal.includes('[') || parseIp(literal)?.length !== 16) return false;
  const rest = host.slice(close + 1);
  return rest === '' || OPTIONAL_PORT.test(rest);
}

/**
 * RequestUtil.isValidOrigin: no '%' at all (it hides CR/LF), "null" and
 * file:// origins are valid, anything else must parse as a URI with a scheme.
 */
/** Browsers send a few origins over and over: each is checked once. */
export const isValidOrigin: (origin: string) => boolean = boundedMemo(checkOrigin, 1024, 256);

function checkOrigin(origin: string): boolean {
  if (origin.includes('%')) return false;
  if (origin === 'null' || origin.startsWith('file://')) return true;
  const uri = parseJavaUri(origin);
  return uri !== null && uri.scheme !== null;
}

/** The host and port java.net.URL reports for an authority (port -1 when absent); null where URL refuses it. */
export function urlHostPort(authority: string): { host: string; port: number } | null {
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  let host = hostPort;
  let portText = '';
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    host = hostPort.slice(0, close + 1);
    const rest = hostPort.slice(close + 1);
    if (rest.startsWith(':')) portText = rest.slice(1);
  } else {
    const colon = hostPort.indexOf(':');
    if (colon >= 0) {
      host = hostPort.slice(0, colon);
      portText = hostPort.slice(colon + 1);
    }
  }
  if (portText === '') return { host, port: -1 };
  if (!PORT.test(portText)) return null;
  return { host, port: Number(portText) };
}

/**
 * URI.resolve against an absolute hierarchical base, as RFC 2396 section 5.2
 * reads in Java: absolute references stay as they are, absolute paths are
 * taken whole (not normalised), relative and empty paths are merged with the
 * base's directory and normalised.
 */
export function resolveJavaUri(base: JavaUri, ref: JavaUri): JavaUri {
  if (ref.opaque || base.opaque) return ref;
  if (ref.scheme === null && ref.authority === null && ref.path === '' && ref.fragment !== null && ref.query === null) {
    return { ...base, fragment: ref.fragment };
  }
  if (ref.scheme !== null) return ref;
  if (ref.authority !== null) return { ...ref, scheme: base.scheme };
  const out: JavaUri = {
    scheme: base.scheme,
    opaque: false,
    authority: base.authority,
    path: ref.path,
    query: ref.query,
    fragment: ref.fragment,
  };
  const path = ref.path ?? '';
  // Java (unlike RFC 3986) merges an empty path too: "?q" resolves against the base's directory.
  if (path === '' || path.charCodeAt(0) !== 47) {
    const basePath = base.path ?? '';
    const dir = basePath.slice(0, basePath.lastIndexOf('/') + 1);
    out.path = removeDotSegments(dir + path);
  }
  return out;
}

/** URI.normalize's segment rules: "." goes, "x/.." collapses, a leading ".." that cannot collapse stays. */
function removeDotSegments(path: string): string {
  const absolute = path.startsWith('/');
  const segs = path.split('/');
  if (absolute) segs.shift();
  const out: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const last = i === segs.length - 1;
    if (seg === '.') {
      if (last) out.push('');
      continue;
    }
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') {
      out.pop();
      if (last) out.push('');
      continue;
    }
    out.push(seg);
  }
  return (absolute ? '/' : '') + out.join('/');
}
