import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Diagnostic } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';

/**
 * The largest configuration file tollgate reads: 8 MiB, forty times Debian's
 * conf/web.xml (170 KB), the largest descriptor we have seen. Past it a file is
 * not read at all, so memory stays bounded whatever is committed (a 50 MB
 * descriptor of 236,000 filters took 1.6 GB to lint).
 */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

export type ReadResult = { bytes: Uint8Array } | { absent: true } | { diagnostic: Diagnostic };

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Reads a configuration file whole, refusing what is not a regular file (a FIFO
 * or /dev/zero would block or never end) and anything over MAX_CONFIG_BYTES,
 * checked on the open descriptor so a file that grows meanwhile is caught too.
 */
export function readConfigBytes(path: string, limit = MAX_CONFIG_BYTES): ReadResult {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever. No effect on regular files.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true };
    return unreadable(path, (err as Error).message);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return unreadable(path, 'it is a directory');
    if (!stat.isFile()) return unreadable(path, 'it is not a regular file (a device, FIFO or socket)');
    if (stat.size > limit) return tooLarge(path, stat.size, limit);
    // One byte more than the size says, to see the end; a file that grew meanwhile gets a larger buffer.
    // A read of a regular file that returns less than asked for has reached the end: no second read to see 0.
    let buf = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      const want = buf.length - length;
      const n = readSync(fd, buf, length, want, null);
      if (n === 0) break;
      length += n;
      if (length > limit) return tooLarge(path, length, limit);
      if (n < want) break;
      if (length === buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, limit + 1));
        buf.copy(grown, 0, 0, length);
        buf = grown;
      }
    }
    return { bytes: buf.subarray(0, length) };
  } catch (err) {
    return unreadable(path, (err as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** What readConfigBytes gives for `path` when its bytes come from elsewhere (an editor's unsaved buffer): the same size limit. */
export function acceptConfigBytes(path: string, bytes: Uint8Array, limit = MAX_CONFIG_BYTES): ReadResult {
  return bytes.length > limit ? tooLarge(path, bytes.length, limit) : { bytes };
}

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
