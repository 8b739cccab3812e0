import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
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

/** Whether the file's encoding can hold this text (Latin-1 has no "€"; nothing holds a lone surrogate). */
function canEncode(source: SourceFile, text: string): boolean {
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)) return false;
  if (source.encoding === 'us-ascii') return /^[\u0000-\u007f]*$/.test(text);
  if (source.encoding === 'iso-8859-1') return /^[\u0000-\u00ff]*$/.test(text);
  return true;
}

/** Two edits of one file that cannot both apply: overlapping ranges, or two edits at one place (whose order is unknown). */
function conflicts(a: TextEdit, b: TextEdit): boolean {
  return a.offset === b.offset || (a.offset < b.endOffset && b.offset < a.endOffset);
}

interface FileState {
  source: SourceFile;
  original: Buffer;
  edits: TextEdit[];
}

/**
 * Applies the fixes of these diagnostics to the files on disk. Only the bytes
 * each edit covers change: the rest of the file is copied byte for byte, and
 * the file is replaced atomically (temporary file, fsync, rename). A fix is
 * applied whole or not at all: one that overlaps a fix already taken waits
 * for the next pass. `fixed` counts the diagnostics whose fix was applied;
 * `skipped` lists files whose encoding cannot be rewritten safely.
 */
export function applyFixes(
  diagnostics: Diagnostic[],
  files: Map<string, SourceFile>,
): { fixed: number; files: string[]; skipped: string[] } {
  const states = new Map<string, FileState | null>();
  const skipped: string[] = [];
  const stateOf = (file: string): FileState | null => {
    if (states.has(file)) return states.get(file)!;
    const source = files.get(file);
    let state: FileState | null = null;
    if (source && ENCODABLE.has(source.encoding)) {
      const original = readFileSync(file);
      // Offsets map to bytes only when decoding was lossless (no replaced bytes), and the file is as it was linted.
      if (Buffer.from(encodeSource(source, source.text)).equals(original)) state = { source, original, edits: [] };
    }
    if (!state) skipped.push(file);
    states.set(file, state);
    return state;
  };

  let fixed = 0;
  for (const d of diagnostics) {
    if (!d.fix?.length) continue;
    const targets = d.fix.map((e) => ({ e, state: stateOf(e.file) }));
    const applicable = targets.every(
      ({ e, state }) => state !== null && canEncode(state.source, e.text) && !state.edits.some((x) => conflicts(x, e)),
    );
    // Edits within one fix may not collide either.
    const selfConsistent = d.fix.every((e, i) =>
      d.fix!.slice(i + 1).every((o) => o.file !== e.file || !conflicts(e, o)),
    );
    if (!applicable || !selfConsistent) continue;
    for (const { e, state } of targets) state!.edits.push(e);
    fixed++;
  }

  const written: string[] = [];
  for (const [file, state] of states) {
    if (!state || state.edits.length === 0) continue;
    const { source, original } = state;
    const chunks: Buffer[] = [];
    let cursor = 0;
    for (const e of state.edits.sort((a, b) => a.offset - b.offset)) {
      chunks.push(
        original.subarray(cursor, byteOffset(source, e.offset)),
        Buffer.from(encodeSource({ ...source, bom: false }, e.text)),
      );
      cursor = byteOffset(source, e.endOffset);
    }
    chunks.push(original.subarray(cursor));
    writeAtomically(file, Buffer.concat(chunks));
    written.push(file);
  }
  return { fixed, files: written, skipped };
}

/**
 * Writes through a temporary file in the same directory, so a crash leaves the
 * old or the new file, never half of one. A replaced file keeps its permission
 * bits (Tomcat's conf files are often 0640).
 */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = join(dirname(file), `.${basename(file)}.tollgate-${process.pid}.tmp`);
  let mode: number | null = null;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    // a new file: the default mode
  }
  const fd = openSync(tmp, 'w', mode ?? 0o666);
  try {
    if (mode !== null) fchmodSync(fd, mode);
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
