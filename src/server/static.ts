/**
 * The "default" servlet: serves the files of a context's docBase the way
 * Tomcat's DefaultServlet does with its stock settings (listings off,
 * read-only, ranges on, weak ETags), behind a context's filter chain.
 *
 * When the request went through a tollgate context (`exchangeOf(req)`), the
 * headers go through the exchange's response API, so filters see the
 * content type, and the file's modification time is published both as the
 * `Last-Modified` header and as the request attribute LAST_MODIFIED_ATTRIBUTE
 * (milliseconds since the epoch) for ExpiresFilter's `modification` base.
 */
import type { FileHandle } from 'node:fs/promises';
import { constants, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { defaultErrorPage, exchangeOf, type ErrorRenderer, type Exchange } from '../runtime/index.js';
import { decodeRequestPath, splitRequestTarget } from '../runtime/request-path.js';
import { evaluateRange, matchEntityTags, parseHttpDate, type ByteRange } from './http-conditions.js';
import type { ResourcesSettings } from '../plan/index.js';
import { createMimeLookup, type MimeLookup, type MimeMappings } from './mime.js';
import {
  createResourceCache,
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_CACHE_TTL_MS,
  OBJECT_MAX_SIZE_FACTOR,
  type FileResource,
  type Resource,
  type ResourceCache,
} from './static-cache.js';
import { ExchangeOut, fileHeaders, LAST_MODIFIED_ATTRIBUTE, PlainOut, type Out } from './static-out.js';
import { METHOD_NOT_IMPLEMENTED_STATUS, methodNotImplementedMessage } from './servlet-methods.js';

export { LAST_MODIFIED_ATTRIBUTE };

/** Tomcat's stock `<welcome-file-list>`. */
export const DEFAULT_WELCOME_FILES: readonly string[] = ['index.html', 'index.htm', 'index.jsp'];

const ALLOW = 'OPTIONS, GET, HEAD, POST';
const RESOLVED: Promise<void> = Promise.resolve();
const BOUNDARY = 'CATALINA_MIME_BOUNDARY';

export interface StaticOptions {
  /** Directory whose files are served. */
  docBase: string;
  /** Welcome files tried, in order, for a directory request (default: Tomcat's). */
  welcomeFiles?: readonly string[];
  /** A lookup, or the context's merged mime-mappings layered over Tomcat's stock table. */
  mimeTypes?: MimeLookup | MimeMappings;
  /** Context path stripped from the URL when the request has no tollgate exchange (default ROOT). */
  contextPath?: string;
  /** Serve files reached through symbolic links (Tomcat's allowLinking, default false). */
  allowLinking?: boolean;
  /**
   * Folders (real paths) every served file must lie in, whatever links and docBase say; `tollgate serve`
   * passes the base and home. Default: anywhere. Files under /proc, /sys and /dev are never served.
   */
  within?: readonly string[];
  /** Error body when the request has no exchange (an exchange uses its context's renderer). */
  errorPage?: ErrorRenderer;
  /** Tomcat's `<Resources cachingAllowed>`, default true: false asks the file system on every request. */
  cachingAllowed?: boolean;
  /**
   * How long what was learnt about a path (missing, directory, a file's
   * length, time and, within `cacheObjectMaxBytes`, its bytes) is trusted
   * before the file system is asked again, in ms: `<Resources cacheTtl>`,
   * default 5000. See static-cache.ts for what Tomcat does after that.
   */
  cacheTtlMs?: number;
  /** Largest file whose bytes are cached (`cacheObjectMaxSize`, 512 KB), at most cacheMaxBytes / 20 as in Tomcat. */
  cacheObjectMaxBytes?: number;
  /** What the cache may hold, entries' overhead included (`cacheMaxSize`, 10240 KB). */
  cacheMaxBytes?: number;
}

/** The static handler's options from a context's `<Resources>` element. */
export function staticResourceOptions(
  r: ResourcesSettings,
): Pick<StaticOptions, 'allowLinking' | 'cachingAllowed' | 'cacheTtlMs' | 'cacheObjectMaxBytes' | 'cacheMaxBytes'> {
  return {
    allowLinking: r.allowLinking,
    cachingAllowed: r.cachingAllowed,
    cacheTtlMs: r.cacheTtlMs,
    cacheObjectMaxBytes: r.cacheObjectMaxBytes,
    cacheMaxBytes: r.cacheMaxBytes,
  };
}

/** Serves one request; the promise settles when the response is complete. */
export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface Target {
  /** Raw request URI (still %-encoded). */
  uri: string;
  query: string | null;
  /** Decoded, normalised path within the context. */
  path: string;
}

/** Entries the cache may hold is bounded by its byte budget: each costs at least 500 bytes (see static-cache.ts). */

/** Builds the default servlet of one context. Throws TypeError for invalid options. */
export function createStaticHandler(options: StaticOptions): StaticHandler {
  if (
    options === null ||
    typeof options !== 'object' ||
    typeof options.docBase !== 'string' ||
    options.docBase === ''
  ) {
    throw new TypeError('createStaticHandler needs { docBase: string }');
  }
  const docBase = resolve(options.docBase);
  const welcomeFiles = [...(options.welcomeFiles ?? DEFAULT_WELCOME_FILES)];
  const mime: MimeLookup =
    typeof options.mimeTypes === 'function' ? options.mimeTypes : createMimeLookup(options.mimeTypes);
  const contextPath = options.contextPath ?? '';
  if (contextPath !== '' && (!contextPath.startsWith('/') || contextPath.endsWith('/'))) {
    throw new TypeError(
      `contextPath must be '' or start with '/' without a trailing '/', got ${JSON.stringify(contextPath)}`,
    );
  }
  const errorPage = options.errorPage ?? defaultErrorPage;
  const maxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const resources = createResourceCache({
    docBase,
    mime,
    allowLinking: options.allowLinking ?? false,
    ...(options.within ? { within: options.within } : {}),
    cachingAllowed: options.cachingAllowed ?? true,
    ttlMs: options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
    maxBytes,
    objectMaxBytes: options.cacheObjectMaxBytes ?? Math.floor(maxBytes / OBJECT_MAX_SIZE_FACTOR),
  });
  const locate = resources.get;

  /** The first of the context's welcome files that exists in directory `dir` (ending in /), as DefaultServlet picks it. */
  async function firstWelcome(dir: string): Promise<FileResource | null> {
    for (const welcome of welcomeFiles) {
      const file = await locate(dir + welcome);
      if (file.kind === 'file') return file;
    }
    return null;
  }

  return function serveStatic(req, res) {
    const ex = exchangeOf(req);
    if (ex !== undefined) {
      try {
        if (serveFromCache(ex, res)) return RESOLVED;
      } catch {
        // As the general path answers an unexpected failure.
        if (res.headersSent) res.destroy();
        else new ExchangeOut(ex).error(500);
        return RESOLVED;
      }
    }
    return serveAny(req, res, ex);
  };

  /**
   * The common request, answered before serveStatic returns: a GET or HEAD
   * through a context, asking nothing conditional and no range, for a plain
   * path whose file bytes (or absence) the cache holds and still trusts.
   * Whatever else the request is, false: the general path answers it, and
   * would answer these the same way (it takes the same steps for them, one
   * await apart).
   */
  function serveFromCache(ex: Exchange, res: ServerResponse): boolean {
    const r = ex.request;
    const method = r.method;
    if ((method !== 'GET' && method !== 'HEAD') || r.dispatcherType !== 'REQUEST') return false;
    const path = r.pathWithinContext;
    if (path === '' || !plainUri(r.requestURI) || isSpecial(path)) return false;
    const found = resources.peek(path);
    if (found === undefined || found.kind === 'dir' || !unconditionalRequest(r)) return false;
    if (found.kind !== 'file') {
      ex.response.sendError(404, `The requested resource [${r.requestURI}] is not available`);
      return true;
    }
    if (found.bytes === null) return false;
    fileHeaders(ex, found);
    if (method === 'HEAD' || found.size === 0) res.end();
    else if (found.latin1 !== null) res.end(found.latin1, 'latin1');
    else res.end(found.bytes);
    return true;
  }

  async function serveAny(req: IncomingMessage, res: ServerResponse, ex: Exchange | undefined): Promise<void> {
    const out = ex !== undefined ? new ExchangeOut(ex) : new PlainOut(req, res, errorPage);
    try {
      await handle(req, res, ex, out);
    } catch {
      // An unexpected I/O failure: a 500 while nothing is sent, a truncated response otherwise.
      if (res.headersSent) res.destroy();
      else out.error(500);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, ex: Exchange | undefined, out: Out): Promise<void> {
    const target = ex !== undefined ? exchangeTarget(ex) : urlTarget(req.url ?? '/', contextPath);
    if (target === 'bad') {
      // Tomcat closes the connection after refusing a request-target (observed on 10.1.60).
      if (!res.headersSent) res.setHeader('Connection', 'close');
      return out.error(400, invalidUriMessage(req.url ?? '/') ?? undefined);
    }
    if (target === null)
      return out.error(404, `The requested resource [${splitRequestTarget(req.url ?? '/').path}] is not available`);
    if (ex !== undefined && ex.request.dispatcherType === 'ERROR')
      return serveErrorPage(out, target, ex.response.status, req.method === 'HEAD', res);
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      out.header('Allow', ALLOW);
      out.header('Content-Length', '0');
      return out.end(200);
    }
    if (method === 'TRACE') {
      // The connector refuses TRACE (allowTrace=false), listing the methods the servlet declares.
      out.header('Allow', 'HEAD, DELETE, POST, GET, OPTIONS, PUT');
      return out.error(405, 'TRACE method is not allowed');
    }
    if (method === 'PUT' || method === 'DELETE') {
      out.header('Allow', ALLOW);
      return out.error(405);
    }
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      // Tomcat closes the connection after a 501.
      out.header('Connection', 'close');
      return out.error(METHOD_NOT_IMPLEMENTED_STATUS, methodNotImplementedMessage(method));
    }
    if (target.path === '') return out.redirect(directoryLocation(target));
    if (isProtected(target.path)) return out.error(404);
    if (isJsp(target.path)) return noJsp(out, target.path, await locate(target.path));

    let found: Resource = await locate(target.path);
    if (found.kind === 'dir') {
      if (!target.path.endsWith('/')) return out.redirect(directoryLocation(target));
      const welcome = await firstWelcome(target.path);
      if (welcome && isJsp(welcome.path)) return noJsp(out, welcome.path, welcome);
      if (welcome) found = welcome;
    }
    if (found.kind !== 'file') {
      // Tomcat evaluates the If-* headers even for a missing resource (If-Match then fails).
      const verdict = preconditions(out, method, null, 0);
      if (verdict !== 0) return verdict === 304 ? out.end(304) : out.error(verdict);
      return out.error(404, `The requested resource [${target.uri}] is not available`);
    }
    await serveFile(out, method, found, resources, res);
  }

  /**
   * The page of a web.xml `<error-page>`, reached by an ERROR dispatch, as
   * DefaultServlet serves it: whatever the method (service() calls doGet), with
   * the error's status, the page's content type unless one is set, its length,
   * and none of ETag, Last-Modified, Accept-Ranges, conditional requests or
   * ranges. A missing page repeats the error's status (Tomcat then sends no
   * body); a directory without a welcome file is a 404.
   */
  async function serveErrorPage(
    out: Out,
    page: Target,
    status: number,
    head: boolean,
    res: ServerResponse,
  ): Promise<void> {
    const pagePath = page.path;
    if (isJsp(pagePath)) return noJsp(out, pagePath, await locate(pagePath));
    let found: Resource = await locate(pagePath);
    if (found.kind === 'dir') {
      if (!pagePath.endsWith('/')) return out.redirect(directoryLocation(page));
      const welcome = await firstWelcome(pagePath);
      if (!welcome) return out.error(404);
      if (isJsp(welcome.path)) return noJsp(out, welcome.path, welcome);
      found = welcome;
    }
    if (found.kind !== 'file') return out.error(status);
    if (found.type !== null && out.getContentType() === null) out.setContentType(found.type);
    out.header('Content-Length', found.contentLength);
    if (head || found.size === 0) return out.end(status);
    out.status(status);
    await pump(found, resources, 0, found.size - 1, res, true);
  }
}

function noJsp(out: Out, path: string, found: Resource): void {
  const message =
    found.kind === 'file'
      ? `JSP file [${path}] cannot be run: tollgate has no JSP engine`
      : `JSP file [${path}] not found`;
  out.error(404, message);
}

/** The request asks nothing conditional and no range: the common case, answered without parsing any of those headers. */
function unconditional(out: Out): boolean {
  return (
    !out.hasRequestHeader('if-none-match') &&
    !out.hasRequestHeader('if-modified-since') &&
    !out.hasRequestHeader('if-match') &&
    !out.hasRequestHeader('if-unmodified-since') &&
    !out.hasRequestHeader('range')
  );
}

/** unconditional() over the exchange's request, with the names already lower-cased. */
function unconditionalRequest(r: Exchange['request']): boolean {
  return (
    r.headerLowerCased('if-none-match') === null &&
    r.headerLowerCased('if-modified-since') === null &&
    r.headerLowerCased('if-match') === null &&
    r.headerLowerCased('if-unmodified-since') === null &&
    r.headerLowerCased('range') === null
  );
}

/** A request-target path with no %-escape and nothing outside ASCII: nothing to decode, so nothing malformed (see exchangeTarget). */
function plainUri(uri: string): boolean {
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 37 || c > 0x7e) return false;
  }
  return true;
}

/** isProtected or isJsp, with the regular expressions run only for paths whose second or last character could start or end a match. */
function isSpecial(path: string): boolean {
  const second = path.charCodeAt(1) | 0x20;
  if ((second === 0x77 || second === 0x6d) && isProtected(path)) return true;
  const last = path.charCodeAt(path.length - 1) | 0x20;
  return (last === 0x70 || last === 0x78) && isJsp(path);
}

async function serveFile(
  out: Out,
  method: string,
  file: FileResource,
  resources: ResourceCache,
  res: ServerResponse,
): Promise<void> {
  const { size, mtimeMs, etag, type } = file;
  const body = method !== 'HEAD';
  if (unconditional(out)) {
    // The cached resource's precomputed header values, sent as Tomcat sends them for a whole file.
    out.file(file);
    if (!body || size === 0) return out.end(200);
    await pump(file, resources, 0, size - 1, res, true);
    return;
  }
  const verdict = preconditions(out, method, etag, mtimeMs);
  if (verdict === 304) {
    out.header('ETag', etag);
    return out.end(304);
  }
  if (verdict !== 0) return out.error(verdict);

  out.header('Accept-Ranges', 'bytes');
  let ranges: ByteRange[] | null = null;
  const rangeHeader = out.requestHeaders('range');
  if (rangeHeader.length > 0 && method === 'GET' && size > 0) {
    const ifRange = ifRangeHolds(out, etag, mtimeMs);
    if (ifRange === 'bad') return out.error(400);
    if (ifRange) {
      const r = evaluateRange(rangeHeader.join(','), size);
      if (r.kind === 'unsatisfiable') {
        out.header('Content-Range', `bytes */${size}`);
        return out.error(416);
      }
      if (r.kind === 'partial') ranges = r.ranges;
    }
  }
  out.header('ETag', etag);
  out.header('Last-Modified', file.lastModifiedHttp);
  out.lastModified(mtimeMs);

  if (ranges === null) {
    if (type !== null && out.getContentType() === null) out.setContentType(type);
    out.header('Content-Length', file.contentLength);
    out.status(200);
    if (!body || size === 0) return out.end(200);
    await pump(file, resources, 0, size - 1, res, true);
    return;
  }
  out.status(206);
  if (ranges.length === 1) {
    const { start, end } = ranges[0]!;
    out.header('Content-Range', `bytes ${start}-${end}/${size}`);
    // Tomcat's connector writes Content-Type before Content-Length.
    if (type !== null) out.setContentType(type);
    out.header('Content-Length', String(end - start + 1));
    await pump(file, resources, start, end, res, true);
    return;
  }
  // multipart/byteranges, byte for byte as Tomcat frames it (CRLF line ends).
  const heads = ranges.map(
    (r) =>
      `\r\n--${BOUNDARY}\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}Content-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`,
  );
  const tail = `\r\n--${BOUNDARY}--`;
  let length = Buffer.byteLength(tail);
  for (let i = 0; i < ranges.length; i++)
    length += Buffer.byteLength(heads[i]!) + ranges[i]!.end - ranges[i]!.start + 1;
  out.setContentType(`multipart/byteranges; boundary=${BOUNDARY}`);
  out.header('Content-Length', String(length));
  for (let i = 0; i < ranges.length; i++) {
    if (res.destroyed) return;
    res.write(heads[i]!);
    if (!(await pump(file, resources, ranges[i]!.start, ranges[i]!.end, res, false))) return;
  }
  res.end(tail);
}

/**
 * Sends bytes start..end (inclusive) of the file: from memory when its
 * bytes may be cached, streamed from the disk otherwise. False when the
 * transfer broke off (the response is then destroyed, or answered 404 when
 * the file vanished before anything was sent).
 */
async function pump(
  file: FileResource,
  resources: ResourceCache,
  start: number,
  end: number,
  res: ServerResponse,
  last: boolean,
): Promise<boolean> {
  const bytes = file.keepBytes ? await resources.content(file) : null;
  if (bytes !== null) {
    const part = start === 0 && end === bytes.length - 1 ? bytes : bytes.subarray(start, end + 1);
    if (last) res.end(part);
    else res.write(part);
    return !res.destroyed;
  }
  let fh: FileHandle;
  try {
    fh = await open(file.file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    // Deleted while its metadata is still trusted (within the TTL): nothing can be sent.
    if (!res.headersSent) {
      res.statusCode = 404;
      res.setHeader('Content-Length', '0');
      res.end();
    } else res.destroy();
    return false;
  }
  try {
    await pipeline(fh.createReadStream({ start, end, autoClose: false }), res, { end: last });
    return true;
  } catch {
    // The client went away or the file became unreadable mid-way: a truncated response is the only honest signal.
    res.destroy();
    return false;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Tomcat's checkIfHeaders: If-Match (else If-Unmodified-Since), then
 * If-None-Match (else If-Modified-Since). 0 lets the request through;
 * otherwise the status to answer with.
 */
function preconditions(out: Out, method: string, etag: string | null, lastModified: number): 0 | 304 | 400 | 412 {
  const getOrHead = method === 'GET' || method === 'HEAD';
  const ifMatch = out.requestHeaders('if-match');
  if (ifMatch.length > 0) {
    let satisfied = false;
    let star = false;
    for (const h of ifMatch) {
      if (h === '*') {
        star = true;
        if (etag !== null) satisfied = true;
        continue;
      }
      const m = matchEntityTags(h, etag, false);
      if (m === null) return 400;
      if (m) satisfied = true;
    }
    if (star && ifMatch.length > 1) return 400;
    if (!satisfied) return 412;
  } else {
    const ius = out.requestHeaders('if-unmodified-since');
    if (ius.length === 1 && lastModified > 0) {
      const t = parseHttpDate(ius[0]!);
      if (t !== null && lastModified >= t + 1000) return 412;
    }
  }
  const ifNoneMatch = out.requestHeaders('if-none-match');
  if (ifNoneMatch.length > 0) {
    let matched = false;
    for (const h of ifNoneMatch) {
      if (h === '*') {
        if (ifNoneMatch.length > 1) return 400;
        if (etag !== null) matched = true;
        break;
      }
      const m = matchEntityTags(h, etag, true);
      if (m === null) return 400;
      if (m) {
        matched = true;
        break;
      }
    }
    if (matched) return getOrHead ? 304 : 412;
    return 0;
  }
  const ims = out.requestHeaders('if-modified-since');
  if (ims.length === 1 && getOrHead && lastModified > 0) {
    const t = parseHttpDate(ims[0]!);
    if (t !== null && lastModified < t + 1000) return 304;
  }
  return 0;
}

/** Whether If-Range lets the Range header apply; 'bad' for a malformed If-Range (400). */
function ifRangeHolds(out: Out, etag: string, lastModified: number): boolean | 'bad' {
  const values = out.requestHeaders('if-range');
  if (values.length === 0) return true;
  if (values.length > 1) return 'bad';
  const v = values[0]!.trim();
  if (v.length > 2 && (v.charCodeAt(0) === 34 || v.charCodeAt(2) === 34)) {
    const weak = v.startsWith('W/"');
    if ((!weak && v.charCodeAt(0) !== 34) || !v.endsWith('"') || v.indexOf('"', weak ? 3 : 1) !== v.length - 1)
      return 'bad';
    // A weak tag never satisfies If-Range (strong comparison).
    return !weak && v === etag;
  }
  const t = parseHttpDate(v);
  if (t === null) return 'bad';
  return lastModified >= t && lastModified < t + 1000;
}

const PROTECTED = /^\/(?:WEB|META)-INF(?:\/|$)/i;
function isProtected(path: string): boolean {
  return PROTECTED.test(path);
}

/** `*.jsp` and `*.jspx` belong to Tomcat's JSP servlet; matched in any case so no file system serves their source. */
const JSP = /\.jspx?$/i;
function isJsp(path: string): boolean {
  return JSP.test(path);
}

/** Tomcat's directory redirect: the request URI plus `/`, the query kept, never protocol-relative. */
function directoryLocation(t: Target): string {
  let location = `${t.uri}/${t.query === null ? '' : `?${t.query}`}`;
  while (location.length > 1 && location.charCodeAt(1) === 47) location = location.slice(1);
  return location;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
function decodeStrict(bytes: Buffer): string {
  return strictUtf8.decode(bytes);
}

/** Decodes a raw path the way Tomcat's connector does (UTF-8, malformed bytes refused); 'bad' means 400. */
function strictPath(raw: string): string | 'bad' {
  try {
    return decodeRequestPath(raw, decodeStrict) ?? 'bad';
  } catch {
    return 'bad';
  }
}

/**
 * The message Tomcat's connector gives a request-target it refuses: the
 * first bad %-escape or encoded slash, a character outside RFC 3986, or a
 * plain "Invalid URI"; none for malformed UTF-8.
 */
function invalidUriMessage(target: string): string | null {
  // What Tomcat's HTTP parser refuses in a request-target (controls, space, " < > \ ^ ` { | } and non-ASCII).
  if (/[\x00-\x20"<>\\^`{|}\x7f-\uffff]/.test(target)) {
    return `Invalid character found in the request target [${target} ]. The valid characters are defined in RFC 7230 and RFC 3986`;
  }
  const path = splitRequestTarget(target).path;
  const escape = /%(?:2[fF]|(?![0-9a-fA-F]{2}))/.exec(path);
  if (escape !== null)
    return `Invalid URI: [${/^%2f/i.test(path.slice(escape.index)) ? 'The encoded slash character is not allowed' : 'The hexadecimal encoding is invalid'}]`;
  try {
    strictUtf8.decode(
      Buffer.from(
        path.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ),
    );
  } catch {
    return null;
  }
  return 'Invalid URI';
}

const NEEDS_DECODING = /[%\x80-\uffff]/;
const UTF8_NAME = /^utf-?8$/i;

function exchangeTarget(ex: Exchange): Target | 'bad' {
  const r = ex.request;
  // The runtime decodes with the connector's charset; under UTF-8 a malformed sequence is a 400 in Tomcat.
  // Without an escape or a non-ASCII character there is nothing to decode, so nothing malformed.
  if (
    NEEDS_DECODING.test(r.requestURI) &&
    UTF8_NAME.test(ex.context.settings.uriEncoding) &&
    strictPath(r.requestURI) === 'bad'
  )
    return 'bad';
  return { uri: r.requestURI, query: r.queryString, path: r.pathWithinContext };
}

function urlTarget(url: string, contextPath: string): Target | 'bad' | null {
  const { path: uri, query } = splitRequestTarget(url);
  const decoded = strictPath(uri);
  if (decoded === 'bad') return 'bad';
  if (contextPath === '') return { uri, query, path: decoded };
  if (
    !decoded.startsWith(contextPath) ||
    (decoded.length > contextPath.length && decoded.charCodeAt(contextPath.length) !== 47)
  )
    return null;
  return { uri, query, path: decoded.slice(contextPath.length) };
}
