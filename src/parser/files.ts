/**
 * The file-access layer: every read of a user's files goes through here (the loader, the lint rules
 * that look at files, the audit, the report, the language server). tollgate's main use is CI on pull
 * requests, so every byte of a base is written by a stranger, and what tollgate prints is published.
 *
 * - Regular files only: a FIFO, device or socket is refused from fstat(2) on a descriptor opened with
 *   O_NONBLOCK, so nothing ever waits for a writer or reads /dev/zero forever.
 * - A path is read only when its real path (every symbolic link resolved) lies inside one of the
 *   scope's roots (the base and --home); with `followSymlinks` anywhere, but never under /proc, /sys or
 *   /dev, whatever the flag.
 * - Per-file, per-archive and per-run byte caps, and a deadline per file checked between reads.
 * - Archives (jar, war) through readArchiveEntry: the central directory first, only the entry asked
 *   for is inflated, with caps on its size, its compression ratio and the run's total.
 *
 * What is not read becomes a diagnostic naming the file and why: it never throws on user input.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic, FileScope } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';

/** node:zlib, loaded by the first jar read: the lint of a configuration file never inflates, and loading it was 1% of that start. */
let loadedZlib: typeof import('node:zlib') | undefined;
const zlib = (): typeof import('node:zlib') =>
  (loadedZlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));

/**
 * The largest configuration file tollgate reads: 8 MiB, forty times Debian's
 * conf/web.xml (170 KB), the largest descriptor we have seen. Past it a file is
 * not read at all, so memory stays bounded whatever is committed (a 50 MB
 * descriptor of 236,000 filters took 1.6 GB to lint).
 */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;
/** The largest archive whose directory is read: Tomcat's catalina.jar is 1.7 MB, tomcat-embed-core 3.6 MB. */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** The most one run reads and inflates: a base of 1,000 applications is about 25 MB of descriptors. */
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** One file's read is abandoned past this (a stalled network filesystem); regular local files take microseconds. */
export const FILE_DEADLINE_MS = 5000;
/** The largest archive entry inflated (ServerInfo.properties is 1 KB, a web.xml at most MAX_CONFIG_BYTES). */
export const MAX_ENTRY_BYTES = MAX_CONFIG_BYTES;
/** The most an entry may inflate per compressed byte: text deflates 3-20 times, a zip bomb over 1,000. */
export const MAX_COMPRESSION_RATIO = 200;

/** Where nothing is read, even with --follow-symlinks: the kernel's views of processes, devices and drivers. */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

export type ReadResult = { bytes: Uint8Array } | { absent: true } | { diagnostic: Diagnostic };

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** The real path of `path`, or the path resolved when it cannot be (absent, a loop). */
export function realOrResolved(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** The scope of a run over `roots` (the base, --home): their real paths, the default caps. */
export function fileScope(
  roots: readonly string[],
  opts: { followSymlinks?: boolean; maxFileBytes?: number; maxTotalBytes?: number; deadlineMs?: number } = {},
): FileScope {
  return {
    roots: [...new Set(roots.map(realOrResolved))],
    followSymlinks: opts.followSymlinks ?? false,
    maxFileBytes: opts.maxFileBytes ?? MAX_CONFIG_BYTES,
    maxArchiveBytes: MAX_ARCHIVE_BYTES,
    maxTotalBytes: opts.maxTotalBytes ?? MAX_TOTAL_BYTES,
    deadlineMs: opts.deadlineMs ?? FILE_DEADLINE_MS,
    used: { bytes: 0 },
  };
}

/** Whether an absolute real path lies in /proc, /sys or /dev, which nothing of tollgate reads or serves. */
export function isKernelPath(real: string): boolean {
  return SYSTEM_DIRS.some((d) => inside(real, d));
}

/** Whether `path` is `dir` or lies inside it (path components, not string prefixes). */
export function inside(path: string, dir: string): boolean {
  if (path === dir) return true;
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Where a path may be read from: its real path, absent, or why not. */
export type Place = { real: string } | { absent: true } | { refused: string; lookup?: true };

/**
 * Resolves `path` and says whether the scope lets it be read. A link out of the roots, a value
 * naming a place outside them, and anything under /proc, /sys or /dev are refused with the reason.
 */
export function placeOf(path: string, scope: FileScope): Place {
  const lexical = resolve(path);
  let real: string;
  try {
    real = realpathSync.native(lexical);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true };
    if (code === 'ELOOP') return { refused: 'it is a loop of symbolic links' };
    return { refused: (err as Error).message, lookup: true };
  }
  if (isKernelPath(real))
    return { refused: `it leads to ${real}, a kernel or device file, which tollgate never reads` };
  if (scope.followSymlinks || scope.roots.some((r) => inside(real, r))) return { real };
  const where = scope.roots.length > 1 ? 'the base and --home' : 'the base';
  const viaLink = scope.roots.some((r) => inside(lexical, r));
  return {
    refused: viaLink
      ? `it is (or lies under) a symbolic link leading to ${real}, outside ${where}; tollgate follows links only within them (--follow-symlinks follows the rest: unsafe on untrusted input)`
      : `it lies outside ${where}; tollgate reads only within them (--follow-symlinks reads the rest: unsafe on untrusted input)`,
  };
}

/** The scope of a base: its own, or the base and home folders with the default caps. */
export function scopeOf(base: { base: string; home: string; scope?: FileScope }): FileScope {
  return base.scope ?? fileScope([base.base, base.home]);
}

/** stat(2) of a path the scope lets be read; null when absent or refused. */
export function statInScope(path: string, scope: FileScope): Stats | null {
  const p = placeOf(path, scope);
  if (!('real' in p)) return null;
  try {
    return statSync(p.real);
  } catch {
    return null;
  }
}

export function isFileInScope(path: string, scope: FileScope): boolean {
  return statInScope(path, scope)?.isFile() === true;
}

export function isDirInScope(path: string, scope: FileScope): boolean {
  return statInScope(path, scope)?.isDirectory() === true;
}

/** Whether something is at the path in the scope (a regular file, a folder or anything else). */
export function existsInScope(path: string, scope: FileScope): boolean {
  return statInScope(path, scope) !== null;
}

/** The names in a folder the scope lets be read, sorted; empty when absent or refused. */
export function listInScope(path: string, scope: FileScope): string[] {
  const p = placeOf(path, scope);
  if (!('real' in p)) return [];
  try {
    return readdirSync(p.real).sort();
  } catch {
    return [];
  }
}

/** The entries of a folder the scope lets be read, sorted by name. */
export function entriesInScope(path: string, scope: FileScope): Dirent[] {
  const p = placeOf(path, scope);
  if (!('real' in p)) return [];
  try {
    return readdirSync(p.real, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}

/**
 * Reads a user's file whole, within the scope: regular files only (checked on the open descriptor,
 * so a file swapped meanwhile is caught too), at most `limit` bytes (checked while reading, so a file
 * that grows is caught), within the run's total and the per-file deadline.
 */
export function readInScope(path: string, scope: FileScope, limit = scope.maxFileBytes): ReadResult {
  const place = placeOf(path, scope);
  if ('absent' in place) return place;
  if ('refused' in place) return refused(path, place.refused);
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever. No effect on regular
    // files. O_NOFOLLOW: the real path has no link left; one put there since is not followed.
    fd = openSync(place.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true };
    if (code === 'ELOOP') return refused(path, 'it became a symbolic link while being read');
    return unreadable(path, (err as Error).message);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return unreadable(path, 'it is a directory');
    if (!stat.isFile())
      return refused(path, 'it is not a regular file (a device, FIFO or socket), which tollgate never reads');
    if (stat.size > limit) return tooLarge(path, stat.size, limit);
    const left = scope.maxTotalBytes - scope.used.bytes;
    if (stat.size > left) return overBudget(path, scope);
    const started = performance.now();
    // One byte more than the size says, to see the end; a file that grew meanwhile gets a larger buffer.
    // A read of a regular file that returns less than asked for has reached the end: no second read to see 0.
    let buf = Buffer.allocUnsafe(Math.min(stat.size + 1, limit + 1));
    let length = 0;
    for (;;) {
      // At most 1 MiB per read, so the deadline is looked at between reads of a slow filesystem.
      const want = Math.min(buf.length - length, 1024 * 1024);
      const n = readSync(fd, buf, length, want, null);
      if (n === 0) break;
      length += n;
      if (length > limit) return tooLarge(path, length, limit);
      if (length > left) return overBudget(path, scope);
      if (performance.now() - started > scope.deadlineMs)
        return unreadable(path, `reading it took over ${scope.deadlineMs / 1000} s (a stalled filesystem?): abandoned`);
      if (n < want) break;
      if (length === buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, limit + 1));
        buf.copy(grown, 0, 0, length);
        buf = grown;
      }
    }
    scope.used.bytes += length;
    return { bytes: buf.subarray(0, length) };
  } catch (err) {
    return unreadable(path, (err as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** What readInScope gives for `path` when its bytes come from elsewhere (an editor's unsaved buffer): the same size limit. */
export function acceptConfigBytes(path: string, bytes: Uint8Array, limit = MAX_CONFIG_BYTES): ReadResult {
  return bytes.length > limit ? tooLarge(path, bytes.length, limit) : { bytes };
}

/** A user's file as text (latin1 keeps every byte one character), or null when absent or not read (the reason in `why`). */
export function readTextInScope(
  path: string,
  scope: FileScope,
  encoding: BufferEncoding = 'utf8',
): { text: string } | { absent: true } | { diagnostic: Diagnostic } {
  const r = readInScope(path, scope);
  if (!('bytes' in r)) return r;
  return { text: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.length).toString(encoding) };
}

// --- archives -------------------------------------------------------------------------------------

const u16 = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number): number =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

let crcTable: Uint32Array | null = null;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * One entry of a zip archive (a jar, a war), read with limits: the archive through readInScope
 * (regular file, in scope, at most maxArchiveBytes), its central directory first, then only the entry
 * named, stored or deflated, at most `maxEntryBytes` inflated, at most MAX_COMPRESSION_RATIO times
 * its compressed size, within the run's total, its CRC checked. `absent` when the archive or the entry
 * is not there; a bad or hostile archive is a diagnostic naming what was not read and why.
 */
export function readArchiveEntry(
  archive: string,
  entry: string,
  scope: FileScope,
  maxEntryBytes = MAX_ENTRY_BYTES,
): ReadResult {
  const r = readInScope(archive, scope, scope.maxArchiveBytes);
  if (!('bytes' in r)) return r;
  const zip = r.bytes;
  const bad = (why: string): ReadResult => unreadable(`${archive}`, `${why}, so ${entry} in it was not read`);
  // The end of central directory record: 22 bytes and a comment of at most 65,535, at the end.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (u32(zip, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return bad('it is not a zip archive (no central directory)');
  const count = u16(zip, eocd + 10);
  const cdSize = u32(zip, eocd + 12);
  const cdOffset = u32(zip, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
    return bad('it is a ZIP64 archive, which tollgate does not read');
  if (cdOffset + cdSize > eocd) return bad('its central directory lies outside the archive');
  const want = Buffer.from(entry, 'utf8');
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(zip, at) !== 0x02014b50) return bad('its central directory is damaged');
    const flags = u16(zip, at + 8);
    const method = u16(zip, at + 10);
    const crc = u32(zip, at + 16);
    const compressed = u32(zip, at + 20);
    const size = u32(zip, at + 24);
    const nameLength = u16(zip, at + 28);
    const extraLength = u16(zip, at + 30);
    const commentLength = u16(zip, at + 32);
    const local = u32(zip, at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.length !== want.length || Buffer.compare(name, want) !== 0) continue;
    if (flags & 1) return bad(`${entry} is encrypted`);
    if (size > maxEntryBytes)
      return bad(`${entry} says it inflates to ${mib(size)}, over the ${mib(maxEntryBytes)} tollgate inflates`);
    if (size > MAX_COMPRESSION_RATIO * Math.max(compressed, 1) && size > 64 * 1024)
      return bad(
        `${entry} would inflate ${Math.round(size / Math.max(compressed, 1))} times its size (a zip bomb?); tollgate inflates at most ${MAX_COMPRESSION_RATIO} times`,
      );
    if (size > scope.maxTotalBytes - scope.used.bytes) return overBudget(archive, scope);
    if (local + 30 > zip.length || u32(zip, local) !== 0x04034b50)
      return bad(`the local header of ${entry} is damaged`);
    const start = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
    if (start + compressed > zip.length) return bad(`${entry} runs past the end of the archive`);
    const data = zip.subarray(start, start + compressed);
    let out: Uint8Array;
    if (method === 0) {
      if (compressed !== size) return bad(`${entry} is stored with two different sizes`);
      out = data;
    } else if (method === 8) {
      try {
        // maxOutputLength stops inflating there whatever the data says: the declared size is only a claim.
        out = zlib().inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
      } catch (err) {
        const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
        return bad(tooBig ? `${entry} inflates past the ${size} bytes it declares` : `${entry} does not inflate`);
      }
      if (out.length !== size) return bad(`${entry} inflates to ${out.length} bytes, not the ${size} it declares`);
    } else return bad(`${entry} is compressed with method ${method}, which tollgate does not read`);
    if (crc32(out) !== crc) return bad(`${entry} fails its CRC check`);
    scope.used.bytes += out.length;
    return { bytes: out };
  }
  return { absent: true };
}

// --- diagnostics ----------------------------------------------------------------------------------

function unreadable(path: string, why: string): ReadResult {
  return {
    diagnostic: {
      ruleId: 'file-unreadable',
      severity: 'error',
      message: `Cannot read ${path}: ${why}`,
      span: fileStartSpan(path),
    },
  };
}

export function refused(path: string, why: string): ReadResult {
  return {
    diagnostic: {
      ruleId: 'file-unreadable',
      severity: 'error',
      message: `Not reading ${path}: ${why}.`,
      span: fileStartSpan(path),
    },
  };
}

function overBudget(path: string, scope: FileScope): ReadResult {
  return unreadable(
    path,
    `this run has already read ${mib(scope.used.bytes)}, and tollgate reads at most ${mib(scope.maxTotalBytes)} in one run`,
  );
}

function tooLarge(path: string, size: number, limit: number): ReadResult {
  return {
    diagnostic: {
      ruleId: 'file-too-large',
      severity: 'error',
      message: `${path} is ${size > limit + 1 ? mib(size) : `over ${mib(limit)}`}: tollgate reads configuration files of up to ${mib(limit)} and left this one unread, so nothing in it is checked and serve/compile leave what depends on it unstarted. Tomcat would read it; no real descriptor comes near this size (Debian's conf/web.xml is 170 KB).`,
      span: fileStartSpan(path),
    },
  };
}
