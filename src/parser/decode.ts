import type { Diagnostic, SourceFile } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';
import { boundedMemo } from '../protocol/memo.js';

/** Java charset names that WHATWG TextDecoder knows under another label (or not at all). */
const JAVA_ALIASES: Record<string, string> = {
  iso8859_1: 'iso-8859-1',
  'iso-latin-1': 'iso-8859-1',
  '8859_1': 'iso-8859-1',
  cp1252: 'windows-1252',
  utf8: 'utf-8',
  ascii7: 'us-ascii',
  '646': 'us-ascii',
};

/**
 * WHATWG folds Latin-1 and ASCII into windows-1252; Java keeps them apart, so
 * only these labels really mean windows-1252 and these mean ASCII.
 */
const CP1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252', 'cp5348']);
const ASCII_LABELS = new Set([
  'us-ascii',
  'ascii',
  'ansi_x3.4-1968',
  'iso646-us',
  'cp367',
  'ibm367',
  'us',
  'csascii',
  'iso-ir-6',
  'iso_646.irv:1991',
]);

/** Java's windows-1252 for 0x80-0x9F (the five unmapped bytes become U+FFFD); Node 20's TextDecoder reads them as Latin-1. */
const CP1252_HIGH =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';

/** Single-byte encodings: 256-character decode tables, and their inverse for writing back. */
const byteTables = new Map<string, { chars: string; bytes: Map<number, number> }>();

function byteTable(encoding: string): { chars: string; bytes: Map<number, number> } | null {
  let t = byteTables.get(encoding);
  if (t) return t;
  let chars: string;
  if (encoding === 'iso-8859-1' || encoding === 'us-ascii') {
    chars = latin1(Uint8Array.from({ length: 256 }, (_, i) => i));
  } else if (encoding === 'windows-1252') {
    chars = latin1(Uint8Array.from({ length: 256 }, (_, i) => i));
    chars = chars.slice(0, 0x80) + CP1252_HIGH + chars.slice(0xa0);
  } else {
    try {
      chars = new TextDecoder(encoding).decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    } catch {
      return null;
    }
    if (chars.length !== 256) return null;
  }
  const bytes = new Map<number, number>();
  for (let i = 255; i >= 0; i--) bytes.set(chars.charCodeAt(i), i);
  t = { chars, bytes };
  byteTables.set(encoding, t);
  return t;
}

/**
 * The encoding a declared name stands for in Java, as a WHATWG-style label; null when unknown.
 * Remembered for the names seen so far (a few: bounded, since files may declare anything).
 */
const javaEncoding: (declared: string) => string | null = boundedMemo(
  (declared) => resolveJavaEncoding(declared),
  64,
  128,
);

function resolveJavaEncoding(declared: string): string | null {
  const name = declared.toLowerCase();
  const label = JAVA_ALIASES[name] ?? name;
  let canonical: string;
  try {
    canonical = new TextDecoder(label).encoding;
  } catch {
    return null;
  }
  if (canonical !== 'windows-1252') return canonical;
  if (CP1252_LABELS.has(label)) return 'windows-1252';
  if (ASCII_LABELS.has(label)) return 'us-ascii';
  return 'iso-8859-1';
}

function sniffDeclaredEncoding(head: string): string | null {
  const m = /^<\?xml[^>]*?\sencoding\s*=\s*(["'])([A-Za-z0-9._:-]+)\1/.exec(head);
  return m ? m[2]! : null;
}

/** "encoding" in ASCII. */
const ENCODING_BYTES = [0x65, 0x6e, 0x63, 0x6f, 0x64, 0x69, 0x6e, 0x67];

/**
 * Whether the XML declaration declares UTF-8 in the plain form nearly every file uses
 * (`<?xml ... encoding="UTF-8"`, any case, either quote, no blanks around "="), read from
 * the bytes: then sniffDeclaredEncoding would find UTF-8 too, and no head needs decoding.
 * Anything less plain answers false and is left to sniffDeclaredEncoding.
 */
function declaresUtf8Plainly(b: Uint8Array): boolean {
  if (b[0] !== 0x3c || b[1] !== 0x3f || b[2] !== 0x78 || b[3] !== 0x6d || b[4] !== 0x6c) return false;
  // sniffDeclaredEncoding reads the first 200 bytes: the whole attribute must lie within them.
  const end = Math.min(b.length, 200);
  for (let i = 5; i + 16 <= end; i++) {
    const c = b[i];
    if (c === 0x3e) return false; // ">": the declaration ended without an encoding
    if (c !== 0x65) continue;
    let k = 1;
    while (k < 8 && b[i + k] === ENCODING_BYTES[k]) k++;
    if (k < 8) continue;
    // The first "encoding": in the plain form, or left to the pattern.
    const before = b[i - 1];
    if (before !== 0x20 && before !== 0x09 && before !== 0x0a && before !== 0x0d) return false;
    const q = b[i + 9];
    if (b[i + 8] !== 0x3d || (q !== 0x22 && q !== 0x27)) return false;
    return (
      (b[i + 10]! | 0x20) === 0x75 &&
      (b[i + 11]! | 0x20) === 0x74 &&
      (b[i + 12]! | 0x20) === 0x66 &&
      b[i + 13] === 0x2d &&
      b[i + 14] === 0x38 &&
      b[i + 15] === q
    );
  }
  return false;
}

/** One fatal decoder per Unicode encoding, reused: a decode that is not streamed starts afresh each time. */
const strictDecoders = new Map<string, InstanceType<typeof TextDecoder>>();

function strictDecoder(encoding: string): InstanceType<typeof TextDecoder> {
  let d = strictDecoders.get(encoding);
  if (!d) strictDecoders.set(encoding, (d = new TextDecoder(encoding, { fatal: true })));
  return d;
}

/**
 * Decodes the bytes of an XML file as an XML processor would: a byte order
 * mark first, then the encoding of the XML declaration, else UTF-8.
 * ISO-8859-1 is decoded as true Latin-1 (WHATWG maps that label to windows-1252).
 */
export function decodeXml(bytes: Uint8Array, file: string): { source: SourceFile; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let bom = false;
  let encoding = 'utf-8';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bom = true;
    start = 3;
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    bom = true;
    encoding = 'utf-16le';
    start = 2;
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    bom = true;
    encoding = 'utf-16be';
    start = 2;
  } else if (bytes[0] === 0x3c && bytes[1] === 0x00) {
    encoding = 'utf-16le';
  } else if (bytes[0] === 0x00 && bytes[1] === 0x3c) {
    encoding = 'utf-16be';
  }
  const body = bytes.subarray(start);
  if (encoding.startsWith('utf-16')) {
    const mismatch = declaredOtherThanUtf16(body, encoding, file);
    if (mismatch) diagnostics.push(mismatch);
  }
  if (!bom && encoding === 'utf-8' && !declaresUtf8Plainly(body)) {
    const head = latin1(body.subarray(0, 200));
    const declared = sniffDeclaredEncoding(head);
    const label = declared ? javaEncoding(declared) : null;
    // The usual case (UTF-8 declared) needs no span: it is only worked out for a diagnostic.
    if (declared && label !== 'utf-8') {
      const at = head.indexOf(declared, head.indexOf('encoding'));
      const lineStart = head.lastIndexOf('\n', at) + 1;
      const line = head.slice(0, at).split('\n').length;
      const column = at - lineStart + 1;
      const span = {
        file,
        line,
        column,
        endLine: line,
        endColumn: column + declared.length,
        offset: at,
        endOffset: at + declared.length,
      };
      if (label === null) {
        diagnostics.push({
          ruleId: 'xml-encoding',
          severity: 'error',
          message: `Unknown encoding "${declared}" in the XML declaration; the file was read as UTF-8.`,
          span,
        });
      } else if (label.startsWith('utf-16')) {
        // The bytes of the declaration itself were one byte per character, so they are not UTF-16.
        diagnostics.push({
          ruleId: 'xml-encoding',
          severity: 'error',
          message: `The XML declaration says "${declared}" but the file is written one byte per character (no byte order mark); the file was read as UTF-8. Declare the encoding the file is saved in.`,
          span,
        });
      } else {
        encoding = label;
      }
    }
  }
  let text: string;
  const table = encoding.startsWith('utf-') ? null : byteTable(encoding);
  if (table) {
    text = decodeSingleByte(body, table.chars);
    if (encoding === 'us-ascii' && /[^\u0000-\u007f]/.test(text)) {
      const at = body.findIndex((b) => b > 0x7f);
      diagnostics.push({
        ruleId: 'xml-encoding',
        severity: 'error',
        message: `The file declares US-ASCII but byte ${at} is 0x${body[at]!.toString(16)}: a Java XML parser rejects the file. Declare the real encoding (ISO-8859-1, windows-1252 or UTF-8).`,
        span: fileStartSpan(file),
      });
    }
  } else {
    try {
      text = strictDecoder(encoding).decode(body);
    } catch {
      // A decoder that threw is not used again (whatever state it was left in).
      strictDecoders.delete(encoding);
      text = new TextDecoder(encoding).decode(body);
      diagnostics.push({
        ruleId: 'xml-encoding',
        severity: 'error',
        message: `The file is not valid ${encoding.toUpperCase()}: some bytes were replaced with U+FFFD. Declare the real encoding in the XML declaration.`,
        span: fileStartSpan(file),
      });
    }
  }
  return { source: { path: file, text, encoding, bom }, diagnostics };
}

/**
 * A file whose bytes are UTF-16 (a byte order mark, or "<" followed by a zero byte) while its XML declaration names
 * another encoding ("UTF-8", as editors that convert a file keep the declaration): Java's parser switches to the
 * declared encoding after the declaration and reads the rest as garbage, and Tomcat 10.1.60 refuses the file
 * ("Content is not allowed in prolog", observed for a UTF-16LE web.xml with a BOM declaring UTF-8).
 */
function declaredOtherThanUtf16(body: Uint8Array, encoding: string, file: string): Diagnostic | null {
  const head = new TextDecoder(encoding).decode(body.subarray(0, 400));
  const declared = sniffDeclaredEncoding(head);
  if (!declared) return null;
  const label = javaEncoding(declared);
  if (label !== null && label.startsWith('utf-16')) return null;
  const at = head.indexOf(declared, head.indexOf('encoding'));
  const lineStart = head.lastIndexOf('\n', at) + 1;
  const line = head.slice(0, at).split('\n').length;
  const column = at - lineStart + 1;
  return {
    ruleId: 'xml-encoding',
    severity: 'error',
    message: `The file is saved as ${encoding.toUpperCase()} but its XML declaration says "${declared}": Tomcat's parser reads the rest of the file as ${declared} and refuses it ("Content is not allowed in prolog"). Declare encoding="UTF-16", or save the file as ${declared}.`,
    span: {
      file,
      line,
      column,
      endLine: line,
      endColumn: column + declared.length,
      offset: at,
      endOffset: at + declared.length,
    },
  };
}

function decodeSingleByte(bytes: Uint8Array, chars: string): string {
  const text = latin1(bytes);
  // Latin-1 is the identity; other tables only differ for the high bytes, which most files barely use.
  let identity = true;
  for (let i = 0x80; i < 256 && identity; i++) identity = chars.charCodeAt(i) === i;
  return identity ? text : text.replace(/[\u0080-\u00ff]/g, (c) => chars[c.charCodeAt(0)]!);
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * `text` (XML markup or character data, never a comment or CDATA section) with every character the
 * file's encoding cannot hold written as a character reference, so encodeSource writes no "?" in its
 * place: `пример` in an ISO-8859-1 file becomes `&#1087;&#1088;...`, which reads back as written.
 */
export function referenceUnencodable(source: SourceFile, text: string): string {
  if (source.encoding.startsWith('utf-')) return text;
  const table = source.encoding === 'us-ascii' ? null : byteTable(source.encoding);
  if (table === null && source.encoding !== 'us-ascii') return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 || (table !== null && table.bytes.has(c))) continue;
    const cp = text.codePointAt(i)!;
    out += `${text.slice(from, i)}&#${cp};`;
    if (cp > 0xffff) i++;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Encodes decoded text back to bytes in the file's own encoding (used by --fix and persist). */
export function encodeSource(source: SourceFile, text: string): Uint8Array {
  let body: Buffer;
  switch (source.encoding) {
    case 'utf-8':
      body = Buffer.from(text, 'utf8');
      break;
    case 'utf-16le':
      body = Buffer.from(text, 'utf16le');
      break;
    case 'utf-16be':
      body = Buffer.from(text, 'utf16le').swap16();
      break;
    default: {
      const table = byteTable(source.encoding);
      if (!table) {
        body = Buffer.from(text, 'utf8');
        break;
      }
      body = Buffer.allocUnsafe(text.length);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        // A character the encoding lacks becomes "?", as Java's encoders write it.
        body[i] = c < 0x80 ? c : (table.bytes.get(c) ?? 0x3f);
      }
    }
  }
  if (!source.bom) return body;
  const bom =
    source.encoding === 'utf-16le' ? [0xff, 0xfe] : source.encoding === 'utf-16be' ? [0xfe, 0xff] : [0xef, 0xbb, 0xbf];
  return Buffer.concat([Buffer.from(bom), body]);
}
