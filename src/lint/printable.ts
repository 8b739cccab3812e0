/**
 * Text from a user's files made safe to print wherever tollgate prints it (stylish on a terminal or a
 * CI log, GitHub annotations, the HTML report and audit, the language server's messages): a file must
 * not rewrite what the reader sees. Control characters (C0 but tab, DEL, C1: ESC and OSC sequences
 * among them), bidirectional overrides and isolates (the "Trojan Source" reordering) and the Unicode
 * line and paragraph separators are shown as `\xHH` / `\uHHHH` escapes.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_ONE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function escapeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `s` with every control, bidi and separator character escaped (a newline too: one message is one line). */
export function printable(s: string): string {
  return UNSAFE_ONE.test(s) ? s.replace(UNSAFE, escapeChar) : s;
}

/** printable() for text of several lines (a page's paragraph): the line breaks stay. */
export function printableLines(s: string): string {
  return s.split('\n').map(printable).join('\n');
}

/** The most characters of one source line a code frame or snippet shows. */
export const FRAME = 120;

/**
 * The part of a source line to show, at most FRAME characters around the span (a descriptor written
 * on one line can be megabytes long), cut with an ellipsis, escaped with printable(), with the span's
 * start and end in the shown text. Tabs become one space, so columns still line up.
 */
export function frameWindow(line: string, from: number, to: number): { text: string; start: number; end: number } {
  // Only the shown part is copied: a copy of the whole line per finding (50,000 findings on one 100 KB
  // line, found by the fuzzer) ran the output out of memory at 4 GB.
  const lead = line.length <= FRAME ? 0 : Math.max(0, Math.min(from - 20, line.length - FRAME));
  const cut = Math.min(line.length, lead + FRAME);
  const head = lead > 0 ? '…' : '';
  let text = head;
  let start = -1;
  let end = -1;
  for (let i = lead; i < cut; i++) {
    if (i === from) start = text.length;
    if (i === to) end = text.length;
    const ch = line[i]!;
    text += ch === '\t' ? ' ' : UNSAFE_ONE.test(ch) ? escapeChar(ch) : ch;
  }
  if (start < 0) start = from < lead ? head.length : text.length;
  if (end < 0) end = to < lead ? head.length : text.length;
  if (cut < line.length) text += '…';
  return { text, start, end: Math.max(end, start) };
}

/** What printable() escapes but JSON.stringify writes raw (it escapes C0 itself): C1, bidi, separators. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Serialized JSON (lint's json and SARIF, the audit's json and HDF) with every C1 control, bidi
 * override or isolate and line separator written as a `\u` escape of four hex digits: the same value to a parser,
 * and no byte of the file or CI log that reorders or rewrites what a reader sees. Such characters
 * occur only inside strings, so the text outside them is untouched.
 */
export function jsonSafe(json: string): string {
  return json.replace(RAW_IN_JSON, unicodeEscape);
}

/** The same characters as XML character references (`&#x202E;`), for XML text already escaped. */
export function xmlSafe(xml: string): string {
  return xml.replace(RAW_IN_JSON, (ch) => `&#x${ch.charCodeAt(0).toString(16).toUpperCase()};`);
}
