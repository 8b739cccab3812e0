import type { Diagnostic, SourceFile } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';

/** Java charset names that WHATWG TextDecoder knows under another label. */
const JAVA_ALIASES: Record<string, string> = {
  'iso8859_1': 'iso-8859-1',
  'iso-latin-1': 'iso-8859-1',
  'latin1': 'iso-8859-1',
  'cp1252': 'windows-1252',
  'ascii': 'us-ascii',
  'utf8': 'utf-8',
};

function sniffDeclaredEncoding(head: string): string | null {
  const m = /^<\?xml[^>]*?\sencoding\s*=\s*(["'])([A-Za-z0-9._:-]+)\1/.exec(head);
  return m ? m[2]! : null;
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
  } else if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f) {
    encoding = 'utf-16le';
  } else if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00) {
    encoding = 'utf-16be';
  }
  const body = bytes.subarray(start);
  if (!bom && encoding === 'utf-8') {
    const head = latin1(body.subarray(0, 200));
    const declared = sniffDeclaredEncoding(head);
    if (declared) {
      const label = JAVA_ALIASES[declared.toLowerCase()] ?? declared.toLowerCase();
      if (label === 'iso-8859-1' || label === 'us-ascii') {
        encoding = label;
      } else {
        try {
          new TextDecoder(label);
          encoding = label;
        } catch {
          const at = head.indexOf(declared);
          diagnostics.push({
            ruleId: 'xml-encoding',
            severity: 'error',
            message: `Unknown encoding "${declared}" in the XML declaration; the file was read as UTF-8.`,
            span: { ...fileStartSpan(file), column: at + 1, endColumn: at + 1 + declared.length, offset: at, endOffset: at + declared.length },
          });
        }
      }
    }
  }
  let text: string;
  if (encoding === 'iso-8859-1') {
    text = latin1(body);
  } else if (encoding === 'us-ascii') {
    text = latin1(body);
  } else {
    const decoder = new TextDecoder(encoding, { fatal: true });
    try {
      text = decoder.decode(body);
    } catch {
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

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Encodes decoded text back to bytes in the file's own encoding (used by --fix and persist). */
export function encodeSource(source: SourceFile, text: string): Uint8Array {
  let body: Buffer;
  switch (source.encoding) {
    case 'iso-8859-1':
    case 'us-ascii':
      body = Buffer.from(text, 'latin1');
      break;
    case 'utf-16le':
      body = Buffer.from(text, 'utf16le');
      break;
    case 'utf-16be':
      body = Buffer.from(text, 'utf16le').swap16();
      break;
    default:
      body = Buffer.from(text, 'utf8');
  }
  if (!source.bom) return body;
  const bom = source.encoding === 'utf-16le' ? [0xff, 0xfe] : source.encoding === 'utf-16be' ? [0xfe, 0xff] : [0xef, 0xbb, 0xbf];
  return Buffer.concat([Buffer.from(bom), body]);
}
