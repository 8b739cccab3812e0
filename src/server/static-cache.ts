/**
 * The default servlet's view of a docBase, cached as Tomcat's StandardRoot
 * caches it (org.apache.catalina.webresources.Cache and CachedResource, 10.1):
 *
 * - Every path looked up gets an entry, a missing one included, with what the
 *   request path needs precomputed once: kind, length, last-modified time,
 *   weak ETag `W/"length-lastModifiedMillis"`, the Last-Modified date, the
 *   MIME type, and (read on first use) the bytes of a file no larger than
 *   the object limit.
 * - An entry is trusted for `ttl` ms after it was last checked. After that
 *   the file system is asked again: an entry whose length and modification
 *   time are unchanged is kept, bytes and all, for another `ttl`; any other
 *   is replaced. So a file changed within the TTL is served as it was, and
 *   a file rewritten with the same length in the same millisecond is served
 *   as it was until it is evicted, exactly as Tomcat serves it.
 * - An entry costs 500 bytes plus two per path character plus its length
 *   when that is within the object limit (CachedResource.getSize). When an
 *   insertion takes the total over `maxBytes`, entries in insertion order
 *   that were not checked within their TTL are dropped until the total is
 *   95% of it; when that cannot make room the new entry is dropped (Tomcat
 *   logs cache.addFail) and the path is served uncached. The total never
 *   stays above `maxBytes`, so a client probing random paths cannot grow it.
 *   Tomcat's background sweep to 90% every 10 s is left out: it bounds
 *   nothing the insertion rule does not.
 * - Tomcat does not cache `/WEB-INF/classes` and `/WEB-INF/lib`; the default
 *   servlet never serves them, so the cache needs no exception for them.
 */
import { constants, open, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { inside, isKernelPath } from '../parser/files.js';
import { formatHttpDate, weakETag } from './http-conditions.js';
import type { MimeLookup } from './mime.js';

/** Tomcat's defaults: cacheTtl 5000 ms, cacheMaxSize 10240 KB, cacheObjectMaxSize cacheMaxSize/20. */
export const DEFAULT_CACHE_TTL_MS = 5000;
export const DEFAULT_CACHE_MAX_BYTES = 10240 * 1024;
/** cacheObjectMaxSize is at most cacheMaxSize / 20 (Cache.enforceObjectMaxSizeLimit). */
export const OBJECT_MAX_SIZE_FACTOR = 20;
const ENTRY_BYTES = 500;
/**
 * Files up to this size also keep their bytes as a string (see FileResource.latin1): it saves
 * node:http a writev per response, for at most this many bytes more memory per small file.
 */
export const LATIN1_MAX_BYTES = 16 * 1024;
const TARGET_FREE_PERCENT_GET = 5;

export interface FileResource {
  kind: 'file';
  path: string;
  /** Absolute file name. */
  file: string;
  size: number;
  mtimeMs: number;
  /** Precomputed response header values. */
  etag: string;
  lastModifiedHttp: string;
  contentLength: string;
  /** The MIME type of the file's name; null when the table has none. */
  type: string | null;
  /** The flat header list of a whole-file 200 without an exchange, built on first use. */
  head?: string[];
  /** The file's bytes once read; only files within the object limit keep them. */
  bytes: Buffer | null;
  /**
   * The same bytes as a Latin-1 string (one character per byte), for files
   * up to LATIN1_MAX_BYTES: node:http sends a string body written as Latin-1
   * in one write with the header block, where a Buffer body is a second
   * chunk of a writev.
   */
  latin1: string | null;
  /** Whether the bytes may be kept (size within the object limit and the entry is in the cache). */
  keepBytes: boolean;
  nextCheck: number;
  cost: number;
}

export type Resource = FileResource | { kind: 'dir' | 'missing'; path: string; nextCheck: number; cost: number };

export interface ResourceCacheOptions {
  docBase: string;
  mime: MimeLookup;
  allowLinking: boolean;
  /**
   * Real paths (symbolic links resolved) a served file must lie in: `tollgate serve` passes the base and
   * home, so a context whose docBase names a place outside them, or a link that allowLinking lets out,
   * serves nothing from there. Absent: anywhere. A file under /proc, /sys or /dev is never served.
   */
  within?: readonly string[];
  /** false: no cache (Tomcat's cachingAllowed="false"), every request asks the file system. */
  cachingAllowed: boolean;
  /** 0 or less: every request checks the file system, keeping the entry (and its bytes) when nothing changed. */
  ttlMs: number;
  maxBytes: number;
  objectMaxBytes: number;
}

export interface ResourceCache {
  /** The resource at a decoded, normalised context path (starting with '/'). */
  get(path: string): Promise<Resource>;
  /**
   * What `get` would answer at once, without waiting: the cached entry while
   * it is trusted (within its TTL), else undefined (not cached, stale, or no
   * cache), when only `get` can tell.
   */
  peek(path: string): Resource | undefined;
  /** The file's bytes from the cache or the disk; null when it cannot be read whole now. */
  content(r: FileResource): Promise<Buffer | null>;
  /** Bytes accounted for, as Tomcat's Cache.getSize counts them. */
  readonly size: number;
  readonly entries: number;
}

export function createResourceCache(o: ResourceCacheOptions): ResourceCache {
  const { docBase, mime, allowLinking, maxBytes, cachingAllowed: caching, within } = o;
  const ttlMs = Math.max(0, o.ttlMs);
  const objectMax = Math.min(o.objectMaxBytes, Math.floor(maxBytes / OBJECT_MAX_SIZE_FACTOR));
  // Insertion order is the order Tomcat's unordered eviction walks in.
  const cache = new Map<string, Resource>();
  // Concurrent requests for a path not yet cached share one look-up (Tomcat: putIfAbsent).
  const pending = new Map<string, Promise<Resource>>();
  let size = 0;
  let realBase: Promise<string> | null = null;

  function remove(path: string): void {
    const e = cache.get(path);
    if (e === undefined) return;
    cache.delete(path);
    size -= e.cost;
    if (e.kind === 'file') {
      e.keepBytes = false;
      e.bytes = null;
      e.latin1 = null;
    }
  }

  function admit(r: Resource, now: number): void {
    cache.set(r.path, r);
    size += r.cost;
    if (size <= maxBytes) return;
    const target = (maxBytes * (100 - TARGET_FREE_PERCENT_GET)) / 100;
    for (const e of cache.values()) {
      if (size <= target) break;
      // As Tomcat: nothing checked within its TTL is evicted.
      if (e.nextCheck > now) continue;
      remove(e.path);
    }
    if (size > maxBytes) remove(r.path);
  }

  async function lookup(path: string, now: number): Promise<Resource> {
    const file = join(docBase, ...path.split('/'));
    const missing = (): Resource => ({
      kind: 'missing',
      path,
      nextCheck: now + ttlMs,
      cost: ENTRY_BYTES + 2 * path.length,
    });
    if (file !== docBase && !file.startsWith(docBase + sep)) return missing();
    let st;
    try {
      st = await stat(file);
      const real = await realpath(file);
      if (!allowLinking) {
        // As Tomcat without allowLinking: the canonical path must be the requested one (no symlinks).
        realBase ??= realpath(docBase).catch(() => docBase);
        const rel = file.slice(docBase.length);
        if (real !== (await realBase) + rel.replace(/[/\\]+$/, '')) return missing();
      }
      // Not Tomcat's: the kernel's files and (for serve) anything outside the base are never served.
      if (isKernelPath(real) || (within !== undefined && !within.some((r) => inside(real, r)))) return missing();
    } catch {
      return missing();
    }
    if (st.isDirectory()) return { kind: 'dir', path, nextCheck: now + ttlMs, cost: ENTRY_BYTES + 2 * path.length };
    if (!st.isFile() || path.endsWith('/')) return missing();
    const size = st.size;
    const mtimeMs = Math.floor(st.mtimeMs);
    const keepBytes = caching && size <= objectMax;
    return {
      kind: 'file',
      path,
      file,
      size,
      mtimeMs,
      etag: weakETag(size, mtimeMs),
      lastModifiedHttp: formatHttpDate(mtimeMs),
      contentLength: String(size),
      type: mime(path.slice(path.lastIndexOf('/') + 1)),
      bytes: null,
      latin1: null,
      keepBytes,
      nextCheck: now + ttlMs,
      cost: ENTRY_BYTES + 2 * path.length + (size <= objectMax ? size : 0),
    };
  }

  /** CachedResource.validateResource past the TTL: unchanged length and time keep the entry. */
  async function revalidate(e: Resource, now: number): Promise<Resource> {
    const fresh = await lookup(e.path, now);
    if (cache.get(e.path) !== e) return fresh;
    const same =
      fresh.kind === e.kind &&
      (fresh.kind !== 'file' || (e.kind === 'file' && fresh.size === e.size && fresh.mtimeMs === e.mtimeMs));
    if (same) {
      e.nextCheck = now + ttlMs;
      return e;
    }
    remove(e.path);
    admit(fresh, now);
    return fresh;
  }

  function get(path: string): Promise<Resource> {
    const now = Date.now();
    if (!caching) return lookup(path, now);
    const hit = cache.get(path);
    if (hit !== undefined && hit.nextCheck > now) return Promise.resolve(hit);
    const inFlight = pending.get(path);
    if (inFlight !== undefined) return inFlight;
    const p = (hit !== undefined ? revalidate(hit, now) : lookup(path, now).then((r) => (admit(r, now), r))).finally(
      () => pending.delete(path),
    );
    pending.set(path, p);
    return p;
  }

  function peek(path: string): Resource | undefined {
    if (!caching) return undefined;
    const hit = cache.get(path);
    return hit !== undefined && hit.nextCheck > Date.now() ? hit : undefined;
  }

  async function content(r: FileResource): Promise<Buffer | null> {
    if (r.bytes !== null) return r.bytes;
    let bytes: Buffer;
    try {
      // Non-blocking, so a file swapped for a FIFO cannot stall the thread waiting for a writer.
      const fh = await open(r.file, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        bytes = await fh.readFile();
      } finally {
        await fh.close().catch(() => undefined);
      }
    } catch {
      return null;
    }
    // The file changed since it was looked at: its metadata no longer describes these bytes.
    if (bytes.length !== r.size) return null;
    if (r.keepBytes) {
      r.bytes = bytes;
      if (bytes.length <= LATIN1_MAX_BYTES) r.latin1 = bytes.toString('latin1');
    }
    return bytes;
  }

  return {
    get,
    peek,
    content,
    get size() {
      return size;
    },
    get entries() {
      return cache.size;
    },
  };
}
