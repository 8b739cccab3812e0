/**
 * How Java reads the text of an init-param: String.trim, String.split,
 * Integer.parseInt / Long.parseLong, java.net.URI. Tomcat's filters read their
 * values with these, so tollgate must too, edge cases included.
 */

/** String.trim(): strips every char up to U+0020 (controls included), nothing else. */
export function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/** A piece of a split value with its offset in the original text. */
export interface Piece {
  text: string;
  offset: number;
}

/** `s.split(",")`: "" gives [""], trailing empty strings are dropped. Offsets index `s`. */
export function javaSplit(s: string, sep = ','): Piece[] {
  const out: Piece[] = [];
  let from = 0;
  for (;;) {
    const at = s.indexOf(sep, from);
    if (at < 0) break;
    out.push({ text: s.slice(from, at), offset: from });
    from = at + sep.length;
  }
  out.push({ text: s.slice(from), offset: from });
  if (s === '') return out;
  while (out.length > 0 && out[out.length - 1]!.text === '') out.pop();
  return out;
}

/** Each piece trimmed as String.trim() does, the offset moved to the first kept char. */
export function trimPieces(pieces: Piece[]): Piece[] {
  return pieces.map((p) => {
    let lead = 0;
    while (lead < p.text.length && p.text.charCodeAt(lead) <= 0x20) lead++;
    return { text: javaTrim(p.text), offset: p.offset + lead };
  });
}

/**
 * Tomcat's StringUtils.splitCommaSeparated: null or "" gives no entry; otherwise split(",") then trim each
 * (trimPieces(javaSplit(s)) in one pass: every filter's lists are split, and the two passes allocated each piece twice).
 */
export function splitCommaSeparated(s: string): Piece[] {
  const out: Piece[] = [];
  eachCommaSeparated(s, (text, offset) => out.push({ text, offset }));
  return out;
}

/** The texts of splitCommaSeparated(s), without their offsets. */
export function commaSeparatedTexts(s: string): string[] {
  const out: string[] = [];
  eachCommaSeparated(s, (text) => out.push(text));
  return out;
}

/** Calls `emit` with the text and offset of each entry of splitCommaSeparated(s), in order. */
export function eachCommaSeparated(s: string, emit: (text: string, offset: number) => void): void {
  if (s === '') return;
  // String.split drops the empty strings at the end (before trimming: "a, " keeps its blank entry).
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2c) end--;
  if (end === 0) return;
  let from = 0;
  for (;;) {
    const comma = s.indexOf(',', from);
    const to = comma < 0 || comma >= end ? end : comma;
    let a = from;
    let b = to;
    while (a < b && s.charCodeAt(a) <= 0x20) a++;
    while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
    emit(s.slice(a, b), a);
    if (to >= end) return;
    from = to + 1;
  }
}

// One reading of Java's integers for lint and runtime: Integer.parseInt / Long.parseLong.
export { parseJavaInteger } from '../protocol/java-integer.js';

/** The largest and smallest Java int, for JSON numbers given in place of strings. */
export const JAVA_INT_MAX = 2147483647;
export const JAVA_INT_MIN = -2147483648;

const URI_OK = /[A-Za-z0-9\-_.!~*'();/?:@&=+$,%[\]#]/;

/**
 * Whether `new java.net.URI(text)` accepts the text (RFC 2396 with Java's
 * extensions: an empty string and relative references are fine; blanks,
 * `<>"{}|\^` and backquotes, stray `%`, a second `#` are not). The message
 * names the first problem and its offset.
 */
export function checkJavaUri(text: string): { ok: true } | { ok: false; message: string; offset: number } {
  const bad = (message: string, offset: number) => ({ ok: false as const, message, offset });
  let hashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = c.charCodeAt(0);
    if (c === '%') {
      if (!/^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3)))
        return bad('malformed escape: "%" must be followed by two hex digits', i);
      continue;
    }
    if (c === '#' && ++hashes > 1) return bad('illegal character "#" in the fragment', i);
    if (code > 0x7f) {
      // Java allows "other" characters: anything beyond ASCII that is not a control or space char.
      if (/[\p{Cc}\p{Z}]/u.test(c))
        return bad(`illegal character U+${code.toString(16).toUpperCase().padStart(4, '0')}`, i);
      continue;
    }
    if (!URI_OK.test(c))
      return bad(
        `illegal character ${code <= 0x20 ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`}`,
        i,
      );
  }
  const schemeEnd = text.search(/[:/?#]/);
  let rest = text;
  if (schemeEnd >= 0 && text[schemeEnd] === ':') {
    const scheme = text.slice(0, schemeEnd);
    if (!/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) return bad('illegal character in the scheme name', 0);
    rest = text.slice(schemeEnd + 1);
    if (rest === '' || rest.startsWith('#')) return bad('nothing after the scheme', schemeEnd + 1);
  }
  const base = text.length - rest.length;
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    if (authority === '' && rest.length === 2) return bad('no authority after "//"', base + 2);
    const open = authority.indexOf('[');
    if (open >= 0) {
      const close = authority.indexOf(']', open);
      if (close < 0) return bad('no closing "]" for the IPv6 address', base + 2 + open);
      if (!/^[0-9A-Fa-f:.]+(%[\w.~-]+)?$/.test(authority.slice(open + 1, close)))
        return bad('not an IPv6 address inside "[...]"', base + 2 + open);
    }
    const brackets = (end < 0 ? '' : rest.slice(2 + end)).search(/[[\]]/);
    if (brackets >= 0) return bad('"[" and "]" are only allowed around an IPv6 host', base + 2 + end + brackets);
  } else {
    const brackets = rest.search(/[[\]]/);
    if (brackets >= 0) return bad('"[" and "]" are only allowed around an IPv6 host', base + brackets);
  }
  return { ok: true };
}
