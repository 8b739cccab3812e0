/**
 * Java charset names to byte decoders. WHATWG's TextDecoder maps the label
 * ISO-8859-1 to windows-1252, which is not what Java does, so the Latin-1
 * family and UTF-8 use Buffer's own decoders; other charsets go through
 * TextDecoder (full ICU ships with Node).
 */
import { TextDecoder } from 'node:util';
import { boundedMemo } from './memo.js';

/** Decodes bytes the way Java's `new String(bytes, charset)` does: malformed input becomes U+FFFD, never an error. */
export type ByteDecoder = (bytes: Buffer) => string;

const latin1: ByteDecoder = (b) => b.toString('latin1');
const utf8: ByteDecoder = (b) => b.toString('utf8');
const ascii: ByteDecoder = (b) => {
  const s = b.toString('latin1');
  // Java's US-ASCII decoder replaces every byte above 0x7F.
  return /[\x80-\xff]/.test(s) ? s.replace(/[\x80-\xff]/g, '\ufffd') : s;
};

/** Java's windows-1252 for 0x80-0x9F (its five unmapped bytes become U+FFFD); Node 20's TextDecoder decodes these bytes as Latin-1. */
const CP1252_HIGH =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';
const cp1252: ByteDecoder = (b) => {
  const s = b.toString('latin1');
  return /[\x80-\x9f]/.test(s) ? s.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : s;
};

const BUILT_IN: Readonly<Record<string, ByteDecoder>> = {
  'windows-1252': cp1252,
  cp1252: cp1252,
  'utf-8': utf8,
  utf8: utf8,
  'iso-8859-1': latin1,
  'iso8859-1': latin1,
  iso8859_1: latin1,
  'iso_8859-1': latin1,
  iso_8859_1: latin1,
  latin1: latin1,
  l1: latin1,
  'iso-ir-100': latin1,
  cp819: latin1,
  ibm819: latin1,
  '8859_1': latin1,
  'us-ascii': ascii,
  ascii: ascii,
  'iso646-us': ascii,
  ascii7: ascii,
};

/** Java spellings TextDecoder does not know. */
const JAVA_ALIASES: Readonly<Record<string, string>> = {
  cp1250: 'windows-1250',
  cp1251: 'windows-1251',
  cp1253: 'windows-1253',
  cp1254: 'windows-1254',
  cp1257: 'windows-1257',
  sjis: 'shift_jis',
  ms932: 'shift_jis',
  'windows-31j': 'shift_jis',
  eucjp: 'euc-jp',
  euckr: 'euc-kr',
  utf_16le: 'utf-16le',
  utf_16be: 'utf-16be',
  'utf-16': 'utf-16be',
  utf16: 'utf-16be',
};

/** The decoder for a charset name (case-insensitive, Java or WHATWG spelling), or null when it is not supported. */
export const charsetDecoder: (name: string) => ByteDecoder | null = boundedMemo(
  (name) => {
    const key = name.trim().toLowerCase();
    return BUILT_IN[key] ?? textDecoderFor(JAVA_ALIASES[key] ?? key);
  },
  256,
  64,
);

function textDecoderFor(label: string): ByteDecoder | null {
  if (label === '' || label === 'replacement') return null;
  let td: TextDecoder;
  try {
    td = new TextDecoder(label);
  } catch {
    return null;
  }
  return (b) => td.decode(b);
}

/** Whether a charset name is usable for decoding. */
export function isSupportedCharset(name: string): boolean {
  return charsetDecoder(name) !== null;
}
