import type { Diagnostic, SourceFile } from '../model/index.js';
import { decodeXml } from './decode.js';

/** Text or bytes to a SourceFile: bytes are decoded as XML, text is taken as is (a leading BOM is dropped). */
export function toSource(input: string | Uint8Array, file: string): { source: SourceFile; diagnostics: Diagnostic[] } {
  if (typeof input !== 'string') return decodeXml(input, file);
  const bom = input.charCodeAt(0) === 0xfeff;
  return { source: { path: file, text: bom ? input.slice(1) : input, encoding: 'utf-8', bom }, diagnostics: [] };
}
