import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import type { Diagnostic, SourceFile, TextEdit } from '../model/index.js';
import { encodeSource } from '../parser/index.js';

const ENCODABLE = new Set(['utf-8', 'iso-8859-1', 'us-ascii', 'utf-16le', 'utf-16be']);

function bomLength(source: SourceFile): number {
  if (!source.bom) return 0;
  return source.encoding === 'utf-8' ? 3 : 2;
}

/** Byte offset in the original file of a character offset in its decoded text. */
function byteOffset(source: SourceFile, offset: number): number {
  const prefix = encodeSource({ ...source, bom: false }, source.text.slice(0, offset));
  return bomLength(source) + prefix.length;
}

/**
 * Applies the fixes of these diagnostics to the files on disk. Only the bytes
 * each edit covers change: the rest of the file is copied byte for byte, and
 * the file is replaced atomically (temporary file, fsync, rename). Overlapping
 * edits are skipped (a second run applies them).
 */
export function applyFixes(diagnostics: Diagnostic[], files: Map<string, SourceFile>): { fixed: number; files: string[]; skipped: string[] } {
  const byFile = new Map<string, TextEdit[]>();
  for (const d of diagnostics) for (const e of d.fix ?? []) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  let fixed = 0;
  const written: string[] = [];
  const skipped: string[] = [];
  for (const [file, edits] of byFile) {
    const source = files.get(file);
    if (!source || !ENCODABLE.has(source.encoding)) {
      skipped.push(file);
      continue;
    }
    const original = readFileSync(file);
    // Offsets map to bytes only when decoding was lossless (no replaced bytes): check before touching the file.
    if (!Buffer.from(encodeSource(source, source.text)).equals(original)) {
      skipped.push(file);
      continue;
    }
    edits.sort((a, b) => a.offset - b.offset);
    const chunks: Buffer[] = [];
    let cursor = 0;
    let lastEnd = -1;
    for (const e of edits) {
      if (e.offset < lastEnd) continue;
      const start = byteOffset(source, e.offset);
      const end = byteOffset(source, e.endOffset);
      chunks.push(original.subarray(cursor, start), Buffer.from(encodeSource({ ...source, bom: false }, e.text)));
      cursor = end;
      lastEnd = e.endOffset;
      fixed++;
    }
    chunks.push(original.subarray(cursor));
    writeAtomically(file, Buffer.concat(chunks));
    written.push(file);
  }
  return { fixed, files: written, skipped };
}

/** Writes through a temporary file in the same directory, so a crash leaves the old or the new file, never half of one. */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = join(dirname(file), `.${basename(file)}.tollgate-${process.pid}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
