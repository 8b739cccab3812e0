import type { PropertiesFile, PropertyEntry, SourceFile } from '../model/index.js';
import { LineIndex } from './lines.js';

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\f';

/**
 * Reads a Java .properties file as java.util.Properties.load(InputStream) does (ISO-8859-1,
 * `#`/`!` comments, `\` continuations, keys ended by an unescaped `=`, `:` or white space,
 * `\u` escapes of four hex digits), keeping where each key and value was written so findings point at them.
 */
export function parsePropertiesFile(
  input: string | Uint8Array,
  file: string,
): { properties: PropertiesFile; source: SourceFile } {
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('latin1');
  const source: SourceFile = { path: file, text, encoding: 'iso-8859-1', bom: false };
  const lines = new LineIndex(file, text);
  const entries: PropertyEntry[] = [];
  let pos = 0;
  while (pos < text.length) {
    // One logical line: its characters and, for each, where it stands in the file.
    let logical = '';
    const at: number[] = [];
    const start = skipBlanks(text, pos);
    let first = true;
    let end: number;
    let next: number;
    let i = start;
    for (;;) {
      if (!first) i = skipBlanks(text, i);
      const eol = lineEnd(text, i);
      const piece = text.slice(i, eol);
      if (first && (piece === '' || piece[0] === '#' || piece[0] === '!')) {
        logical = '';
        end = -1;
        next = afterTerminator(text, eol);
        break;
      }
      let slashes = 0;
      for (let k = piece.length - 1; k >= 0 && piece[k] === '\\'; k--) slashes++;
      const keep = slashes % 2 === 1 ? piece.length - 1 : piece.length;
      for (let k = 0; k < keep; k++) {
        logical += piece[k];
        at.push(i + k);
      }
      end = i + keep;
      next = afterTerminator(text, eol);
      first = false;
      if (slashes % 2 === 0 || next >= text.length) break;
      i = next;
    }
    pos = next;
    if (end < 0 || logical === '') continue;
    // The key ends at the first unescaped separator or white space.
    let k = 0;
    while (k < logical.length) {
      const c = logical[k]!;
      if (c === '\\') {
        k += 2;
        continue;
      }
      if (c === '=' || c === ':' || isBlank(c)) break;
      k++;
    }
    const keyEnd = Math.min(k, logical.length);
    let v = keyEnd;
    while (v < logical.length && isBlank(logical[v])) v++;
    if (v < logical.length && (logical[v] === '=' || logical[v] === ':')) v++;
    while (v < logical.length && isBlank(logical[v])) v++;
    const keyStart = at[0]!;
    const keyStop = keyEnd > 0 ? at[keyEnd - 1]! + 1 : keyStart;
    const valueStart = v < logical.length ? at[v]! : end;
    entries.push({
      key: { value: unescape(logical.slice(0, keyEnd)), span: lines.span(keyStart, keyStop) },
      value: { value: unescape(logical.slice(v)), span: lines.span(valueStart, end) },
      span: lines.span(keyStart, end),
    });
  }
  return { properties: { file, entries }, source };
}

/** The value Java keeps for a key (the last entry wins), or undefined. */
export function propertyOf(properties: PropertiesFile, key: string): PropertyEntry | undefined {
  for (let i = properties.entries.length - 1; i >= 0; i--)
    if (properties.entries[i]!.key.value === key) return properties.entries[i];
  return undefined;
}

function skipBlanks(text: string, i: number): number {
  while (i < text.length && isBlank(text[i])) i++;
  return i;
}

function lineEnd(text: string, i: number): number {
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

function afterTerminator(text: string, eol: number): number {
  if (text[eol] === '\r' && text[eol + 1] === '\n') return eol + 2;
  return eol < text.length ? eol + 1 : eol;
}

function unescape(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  });
}
