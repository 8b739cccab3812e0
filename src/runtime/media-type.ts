/**
 * Content-Type values as Tomcat's MediaType reads them: `type/subtype`
 * followed by `;name=value` parameters (tokens or quoted strings, optional
 * whitespace). Used to split a charset off a response content type and to
 * find the charset and media type of a request body.
 */

import { boundedMemo } from '../protocol/memo.js';

/** A content type split into the part without charset and the charset (unquoted), when it parses. */
export interface ParsedContentType {
  /** `type/subtype;param=value` without the charset parameter, rebuilt without whitespace. */
  readonly withoutCharset: string;
  readonly charset: string | null;
}

// RFC 7230 tchar.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a content type; null when it is not `type/subtype` with well-formed parameters. A server sends a
 * handful of content types, so each is parsed once; the result is shared: do not modify it.
 */
export const parseContentType: (value: string) => ParsedContentType | null = boundedMemo(parse, 256, 128);

function parse(value: string): ParsedContentType | null {
  const parts = splitParams(value);
  if (parts === null) return null;
  const head = parts[0]!.trim();
  const slash = head.indexOf('/');
  if (slash <= 0) return null;
  const type = head.slice(0, slash).trim();
  const subtype = head.slice(slash + 1).trim();
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  let out = `${type}/${subtype}`;
  let charset: string | null = null;
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
    let v = eq < 0 ? '' : p.slice(eq + 1).trim();
    if (name === '') {
      if (v === '' && eq < 0 && i === parts.length - 1) continue; // a trailing ';'
      return null;
    }
    if (!TOKEN.test(name)) return null;
    if (v.startsWith('"')) {
      if (v.length < 2 || !v.endsWith('"')) return null;
    } else if (v !== '' && !TOKEN.test(v)) {
      return null;
    }
    if (name === 'charset') {
      if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
      charset = v;
      continue;
    }
    out += `;${name}=${v}`;
  }
  return Object.freeze({ withoutCharset: out, charset });
}

/** Splits on `;` outside quoted strings; null when a quote is left open. */
function splitParams(value: string): string[] | null {
  if (!value.includes('"')) return value.split(';');
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (quoted) {
      if (c === 92) i++;
      else if (c === 34) quoted = false;
    } else if (c === 34) {
      quoted = true;
    } else if (c === 59) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) return null;
  out.push(value.slice(start));
  return out;
}

/** The media type alone, lower-cased (`application/x-www-form-urlencoded`), as Tomcat compares it. */
export function mediaTypeOnly(value: string): string {
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/** The charset parameter of a request content type, or null (lenient, like Tomcat's getCharsetFromContentType). */
export function charsetOfContentType(value: string): string | null {
  const parsed = parseContentType(value);
  if (parsed !== null) return parsed.charset === '' ? null : parsed.charset;
  const i = value.toLowerCase().indexOf('charset=');
  if (i < 0) return null;
  let v = value.slice(i + 8);
  const semi = v.indexOf(';');
  if (semi >= 0) v = v.slice(0, semi);
  v = v.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  return v === '' ? null : v;
}
