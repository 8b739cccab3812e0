/**
 * The response headers of an exchange until commit, on one of two paths
 * chosen once at load by a feature test (`storePathWorks`):
 *
 * - the store path (where the test passes: Node 20, 22 and 24): the runtime
 *   keeps the headers in its own table and hands them to node:http once, at
 *   commit, as one `writeHead` with a flat list. Filters set, read and replace
 *   headers many times per request; through node:http each of those calls
 *   validated the line and stored a fresh [name, value] pair, and the headers
 *   were validated once more when sent. Code that holds the Node response (the
 *   downstream handler, a framework) keeps using `res.setHeader`, `res.getHeader`
 *   and the rest: those public methods are replaced on the response instance
 *   (an own property each, one shared function, nothing allocated per request),
 *   as the `on-headers` pattern does, so that they read and write this store,
 *   with node:http's own validation and errors, and `writeHead` runs the
 *   commit hooks and sends the store.
 * - the public-API path (`NodeTable`, the fallback): the headers live in
 *   node:http's own table, read and written through its public methods; no
 *   method of the response is replaced, except that a response whose exchange
 *   registers a before-commit hook (ExpiresFilter, AddDefaultCharsetFilter, a
 *   session written back) gets its commit methods wrapped: node:http has no
 *   public "before the headers go out" event.
 *
 * test/runtime/response-headers.test.ts sends the same requests through both
 * paths on every supported Node line (.ci/run) and compares the bytes.
 * No `_`-prefixed member of a node:http object is read or written on either.
 */
import { Socket } from 'node:net';
import {
  IncomingMessage,
  ServerResponse,
  validateHeaderName,
  validateHeaderValue,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';

/** A header value as node:http accepts it. */
export type HeaderValue = string | number | readonly string[];

/** Where the store is kept on the Node response (shared between copies of the runtime). */
export const HEADERS = Symbol.for('tollgate.runtime.responseHeaders');

/** Called by the patched writeHead before the store is sent (the exchange's commit hooks). */
export const BEFORE_COMMIT = Symbol.for('tollgate.runtime.beforeCommit');

/** node's header methods as this module calls them (loosely typed: @types/node lacks getRawHeaderNames, and values are passed on as given). */
interface NodeHeaderMethods {
  setHeader(name: string, value: unknown): ServerResponse;
  getHeader(name: unknown): unknown;
  removeHeader(name: unknown): void;
  appendHeader(name: string, value: unknown): ServerResponse;
  writeHead(...args: unknown[]): ServerResponse;
  getRawHeaderNames(): string[];
  getHeaderNames(): string[];
  hasHeader(name: string): boolean;
  getHeaders(): OutgoingHttpHeaders;
  setHeaders(headers: unknown): ServerResponse;
  write(...args: unknown[]): boolean;
  end(...args: unknown[]): ServerResponse;
  flushHeaders(): void;
}

type Patched = ServerResponse &
  NodeHeaderMethods & { [HEADERS]?: HeaderTable; [BEFORE_COMMIT]?: (res: ServerResponse) => void };

const proto = ServerResponse.prototype as unknown as NodeHeaderMethods;
const nodeSetHeader = proto.setHeader;
const nodeGetHeader = proto.getHeader;
const nodeRemoveHeader = proto.removeHeader;
const nodeAppendHeader = proto.appendHeader;
const nodeWriteHead = proto.writeHead;
const nodeGetRawHeaderNames = proto.getRawHeaderNames;
const nodeGetHeaderNames = proto.getHeaderNames;
const nodeWrite = proto.write;
const nodeEnd = proto.end;
const nodeFlushHeaders = proto.flushHeaders;

/**
 * Whether node:http's `write`, `end` and `flushHeaders` send the headers by
 * calling the response's own `writeHead` (they do on Node 20, 22 and 24: an
 * implicit header goes through `this.writeHead(this.statusCode)`). Probed
 * once, on a response with no socket, whose output node only buffers.
 */
export function writeRoutesThroughWriteHead(): boolean {
  const acts: ((res: ServerResponse) => void)[] = [
    (res) => res.end(),
    (res) => res.write('x'),
    (res) => res.flushHeaders(),
  ];
  try {
    return acts.every((act) => {
      const req = new IncomingMessage(new Socket());
      req.method = 'GET';
      req.httpVersionMajor = 1;
      req.httpVersionMinor = 1;
      const res = new ServerResponse(req);
      let called = false;
      (res as unknown as NodeHeaderMethods).writeHead = function (this: ServerResponse, ...args: unknown[]) {
        called = true;
        return nodeWriteHead.apply(this, args);
      };
      act(res);
      return called && res.headersSent;
    });
  } catch {
    return false;
  }
}

/** What the exchange's response reads and writes its headers through, on either path. `key` is the lower-cased name. */
export interface HeaderTable {
  get(key: string): HeaderValue | undefined;
  has(key: string): boolean;
  /** Replaces the header (validated by the caller). */
  set(name: string, key: string, value: HeaderValue): void;
  /** Adds line(s) after any existing ones, keeping the name as first set. */
  append(name: string, key: string, value: HeaderValue): void;
  /** Removes the header; whether it was there. */
  remove(key: string): boolean;
  /** Lower-cased names, in order. */
  keys(): string[];
}

/**
 * The load-time feature test of the store path: node:http sends implicit
 * headers through the instance's writeHead, so replacing it reaches every
 * commit.
 */
export function storePathWorks(): boolean {
  return writeRoutesThroughWriteHead();
}

/** Which path responses take from now on. */
let path: 'store' | 'node' = storePathWorks() ? 'store' : 'node';
/** On the public-API path: whether write, end and flushHeaders are wrapped too (where node does not route them through writeHead). */
let commitExplicitly = !writeRoutesThroughWriteHead();

/** The path responses take (for the benchmarks and tests). */
export function headerPath(): 'store' | 'node' {
  return path;
}

/**
 * Chooses the path for responses seen from now on, and on the public-API path
 * whether write, end and flushHeaders are wrapped as well. For the tests, which
 * check on every supported Node that both paths send the same bytes, and for
 * the benchmarks (TOLLGATE_HEADER_PATH=node).
 */
export function setHeaderPath(p: 'store' | 'node', explicitCommit = !writeRoutesThroughWriteHead()): void {
  path = p;
  commitExplicitly = explicitCommit;
}

if (process.env.TOLLGATE_HEADER_PATH === 'node') setHeaderPath('node');

/** One entry per header name: [name as last set, lower-cased name, value], flattened. */
export class ResponseHeaders implements HeaderTable {
  private readonly entries: unknown[] = [];
  /**
   * Set when node held headers before the store was installed: node then keeps a (now empty) header table of its
   * own, and a writeHead with a list would merge into it through the replaced methods, so the store is sent
   * through node's table instead.
   */
  nodeHadHeaders = false;

  /** Position of the entry for a lower-cased name, or -1. */
  indexOf(key: string): number {
    const e = this.entries;
    for (let i = 1; i < e.length; i += 3) if (e[i] === key) return i - 1;
    return -1;
  }

  /** The value as set (a list for several lines), or undefined. `key` is lower-cased. */
  get(key: string): HeaderValue | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : (this.entries[i + 2] as HeaderValue);
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** Replaces the header (validated by the caller). */
  set(name: string, key: string, value: HeaderValue): void {
    const i = this.indexOf(key);
    if (i < 0) {
      this.entries.push(name, key, value);
    } else {
      this.entries[i] = name;
      this.entries[i + 2] = value;
    }
  }

  /** Adds line(s) after any existing ones, keeping the name as first set (node's appendHeader). */
  append(name: string, key: string, value: HeaderValue): void {
    const i = this.indexOf(key);
    if (i < 0) {
      this.entries.push(name, key, value);
      return;
    }
    const existing = this.entries[i + 2] as HeaderValue;
    const lines: string[] = Array.isArray(existing) ? [...(existing as string[])] : [existing as string];
    if (Array.isArray(value)) for (const v of value as string[]) lines.push(v);
    else lines.push(value as string);
    this.entries[i + 2] = lines;
  }

  /** Removes the header; whether it was there. */
  remove(key: string): boolean {
    const i = this.indexOf(key);
    if (i < 0) return false;
    this.entries.splice(i, 3);
    return true;
  }

  /** Lower-cased names, in order. */
  keys(): string[] {
    const out: string[] = [];
    for (let i = 1; i < this.entries.length; i += 3) out.push(this.entries[i] as string);
    return out;
  }

  /** Names as set, in order. */
  rawNames(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.entries.length; i += 3) out.push(this.entries[i] as string);
    return out;
  }

  /** node's getHeaders(): lower-cased names to values, on a null prototype. */
  toObject(): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = Object.create(null) as OutgoingHttpHeaders;
    for (let i = 0; i < this.entries.length; i += 3)
      out[this.entries[i + 1] as string] = this.entries[i + 2] as OutgoingHttpHeader;
    return out;
  }

  /** Puts every header into node's own table (with node's setHeader). */
  copyInto(res: ServerResponse): void {
    const e = this.entries;
    for (let i = 0; i < e.length; i += 3) nodeSetHeader.call(res, e[i] as string, e[i + 2]);
  }

  /** [name, value, name, value...] for writeHead: node writes a list value as one line per element. */
  flat(): unknown[] {
    const e = this.entries;
    const out = new Array<unknown>((e.length / 3) * 2);
    for (let i = 0, j = 0; i < e.length; i += 3, j += 2) {
      out[j] = e[i];
      out[j + 1] = e[i + 2];
    }
    return out;
  }
}

/**
 * The store of a Node response, installed on first use: node's header
 * methods are replaced on the instance, and headers node already holds (set
 * before the runtime saw the response) move into the store. Null when the
 * headers are already sent (nothing can change them any more).
 */
export function headersOf(res: ServerResponse): HeaderTable | null {
  const p = res as Patched;
  const existing = p[HEADERS];
  if (existing !== undefined) return existing;
  if (res.headersSent) return null;
  if (path === 'node') {
    const table = new NodeTable(res);
    p[HEADERS] = table;
    return table;
  }
  const store = new ResponseHeaders();
  const held = nodeGetRawHeaderNames.call(res);
  if (held.length > 0) adopt(res, store, held);
  p[HEADERS] = store;
  const m = res as unknown as Record<keyof NodeHeaderMethods, unknown>;
  m.setHeader = setHeader;
  m.getHeader = getHeader;
  m.hasHeader = hasHeader;
  m.removeHeader = removeHeader;
  m.appendHeader = appendHeader;
  m.getHeaders = getHeaders;
  m.getHeaderNames = getHeaderNames;
  m.getRawHeaderNames = getRawHeaderNames;
  m.setHeaders = setHeaders;
  m.writeHead = writeHead;
  return store;
}

/**
 * The public-API path's table: node:http's own header table through its public
 * methods. Validation is node's (a second check of what the caller validated).
 */
class NodeTable implements HeaderTable {
  constructor(private readonly res: ServerResponse) {}
  get(key: string): HeaderValue | undefined {
    return this.res.getHeader(key) as HeaderValue | undefined;
  }
  has(key: string): boolean {
    return this.res.hasHeader(key);
  }
  set(name: string, _key: string, value: HeaderValue): void {
    this.res.setHeader(name, value);
  }
  append(name: string, _key: string, value: HeaderValue): void {
    this.res.appendHeader(name, value as string | readonly string[]);
  }
  remove(key: string): boolean {
    if (!this.res.hasHeader(key)) return false;
    this.res.removeHeader(key);
    return true;
  }
  keys(): string[] {
    return this.res.getHeaderNames();
  }
}

/** Where the public-API path marks a response whose commit methods it wrapped. */
const INTERCEPTED = Symbol.for('tollgate.runtime.commitIntercepted');

/**
 * Makes sure the response's before-commit call runs before its headers go out:
 * on the store path the store's writeHead does that already; on the public-API
 * path writeHead (and write, end and flushHeaders where node does not route
 * them through writeHead) are wrapped, once, on this response only.
 */
export function interceptCommit(res: ServerResponse): void {
  const p = res as Patched & { [INTERCEPTED]?: true };
  if (!(p[HEADERS] instanceof NodeTable) || p[INTERCEPTED] === true || res.headersSent) return;
  p[INTERCEPTED] = true;
  const m = res as unknown as Record<keyof NodeHeaderMethods, unknown>;
  m.writeHead = hookedWriteHead;
  if (commitExplicitly) {
    m.write = write;
    m.end = end;
    m.flushHeaders = flushHeaders;
  }
}

/** The public-API path's writeHead: its headers go into node's table as node would apply them, the hooks run, then node's writeHead sends. */
function hookedWriteHead(
  this: Patched,
  statusCode: number,
  reasonOrHeaders?: unknown,
  maybeHeaders?: unknown,
): ServerResponse {
  // eslint-disable-next-line prefer-rest-params
  if (this.headersSent) return nodeWriteHead.apply(this, arguments as unknown as unknown[]);
  const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
  const headers = reason === undefined ? reasonOrHeaders : maybeHeaders;
  this.statusCode = statusCode;
  if (headers !== undefined && headers !== null)
    applyHeaders(this, this[HEADERS]!, headers as OutgoingHttpHeaders | OutgoingHttpHeader[]);
  const before = this[BEFORE_COMMIT];
  if (before !== undefined) before(this);
  if (this.headersSent) return this;
  return reason === undefined
    ? nodeWriteHead.call(this, this.statusCode)
    : nodeWriteHead.call(this, this.statusCode, reason);
}

/**
 * The public-API path on a Node whose write, end and flushHeaders do not
 * call writeHead: the commit hooks run before node's own method sends the
 * headers from its table, with its own framing.
 */
function commitImplicitly(res: Patched): void {
  if (res.headersSent) return;
  const before = res[BEFORE_COMMIT];
  if (before !== undefined) before(res);
}

function write(this: Patched, ...args: unknown[]): boolean {
  commitImplicitly(this);
  return nodeWrite.apply(this, args);
}

function end(this: Patched, ...args: unknown[]): ServerResponse {
  // end() after end() is node's to answer.
  if (!this.writableEnded) commitImplicitly(this);
  return nodeEnd.apply(this, args);
}

function flushHeaders(this: Patched): void {
  commitImplicitly(this);
  nodeFlushHeaders.call(this);
}

/**
 * Copies headers node already holds into the store. Node's table keeps them
 * until commit (removing one now would tell node that Date, Connection,
 * Content-Length or Transfer-Encoding was removed on purpose); at commit it is
 * emptied and refilled from the store (`sendThroughNodeTable`).
 */
function adopt(res: ServerResponse, store: ResponseHeaders, names: string[]): void {
  for (const name of names) store.set(name, name.toLowerCase(), nodeGetHeader.call(res, name) as HeaderValue);
  store.nodeHadHeaders = true;
}

/**
 * Puts the store into node's own table, in the store's order: every name node
 * holds is removed first, then each of the store's is set. Removing Date,
 * Connection, Content-Length or Transfer-Encoding sets node's removed-on-purpose
 * flag, which is right: such a header is either in the store (node's header
 * writer clears the flag again when it writes the header) or was removed
 * through this module's removeHeader, which set the same flag then.
 */
function sendThroughNodeTable(res: ServerResponse, store: ResponseHeaders): void {
  for (const name of nodeGetHeaderNames.call(res)) nodeRemoveHeader.call(res, name);
  store.copyInto(res);
}

function storeOf(res: ServerResponse): ResponseHeaders {
  return (res as Patched)[HEADERS] as ResponseHeaders;
}

function setHeader(this: ServerResponse, name: string, value: HeaderValue): ServerResponse {
  // After commit, node's own method throws its ERR_HTTP_HEADERS_SENT.
  if (this.headersSent) return nodeSetHeader.call(this, name, value);
  validateHeaderName(name);
  validateHeaderValue(name, value as string);
  storeOf(this).set(name, name.toLowerCase(), value);
  return this;
}

function appendHeader(this: ServerResponse, name: string, value: HeaderValue): ServerResponse {
  if (this.headersSent) return nodeAppendHeader.call(this, name, value);
  validateHeaderName(name);
  validateHeaderValue(name, value as string);
  storeOf(this).append(name, name.toLowerCase(), value);
  return this;
}

function getHeader(this: ServerResponse, name: string): HeaderValue | undefined {
  if (typeof name !== 'string') return nodeGetHeader.call(this, name) as undefined;
  return storeOf(this).get(name.toLowerCase());
}

function hasHeader(this: ServerResponse, name: string): boolean {
  if (typeof name !== 'string') return nodeGetHeader.call(this, name) !== undefined;
  return storeOf(this).has(name.toLowerCase());
}

function removeHeader(this: ServerResponse, name: string): void {
  if (typeof name !== 'string' || this.headersSent) {
    nodeRemoveHeader.call(this, name);
    return;
  }
  const key = name.toLowerCase();
  storeOf(this).remove(key);
  // Node remembers these removals (no Date header, no automatic Content-Length...): its own method sets the flags.
  if (key === 'date' || key === 'connection' || key === 'content-length' || key === 'transfer-encoding')
    nodeRemoveHeader.call(this, name);
}

function getHeaders(this: ServerResponse): OutgoingHttpHeaders {
  return storeOf(this).toObject();
}

function getHeaderNames(this: ServerResponse): string[] {
  return storeOf(this).keys();
}

function getRawHeaderNames(this: ServerResponse): string[] {
  return storeOf(this).rawNames();
}

function setHeaders(this: ServerResponse, headers: unknown): ServerResponse {
  if (this.headersSent) return proto.setHeaders.call(this, headers);
  // node's setHeaders: a Headers or Map, each entry through setHeader (Set-Cookie of a Headers as its list of lines).
  if (
    headers === null ||
    typeof headers !== 'object' ||
    typeof (headers as Map<string, unknown>).entries !== 'function'
  )
    return proto.setHeaders.call(this, headers);
  const cookies = headers instanceof Headers ? headers.getSetCookie() : [];
  for (const [k, v] of (headers as Map<string, HeaderValue>).entries()) {
    if (cookies.length > 0 && k.toLowerCase() === 'set-cookie') continue;
    this.setHeader(k, v);
  }
  if (cookies.length > 0) this.setHeader('set-cookie', cookies);
  return this;
}

/** writeHead on a response with a store: its arguments go into the store, the hooks run, then the store is sent in one call. */
function writeHead(
  this: Patched,
  statusCode: number,
  reasonOrHeaders?: unknown,
  maybeHeaders?: unknown,
): ServerResponse {
  // Node's writeHead reads how many arguments it was given: forward them as they came.
  // eslint-disable-next-line prefer-rest-params
  if (this.headersSent) return nodeWriteHead.apply(this, arguments as unknown as unknown[]);
  const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
  const headers = reason === undefined ? reasonOrHeaders : maybeHeaders;
  this.statusCode = statusCode;
  // Headers passed to writeHead are applied first so the hooks see (and may override) them.
  if (headers !== undefined && headers !== null)
    applyHeaders(this, storeOf(this), headers as OutgoingHttpHeaders | OutgoingHttpHeader[]);
  const before = this[BEFORE_COMMIT];
  if (before !== undefined) before(this);
  // A hook that answered by itself (sendError) has already sent the headers.
  if (this.headersSent) return this;
  const store = storeOf(this);
  if (store.nodeHadHeaders) {
    sendThroughNodeTable(this, store);
    return reason === undefined
      ? nodeWriteHead.call(this, this.statusCode)
      : nodeWriteHead.call(this, this.statusCode, reason);
  }
  const flat = store.flat();
  return reason === undefined
    ? nodeWriteHead.call(this, this.statusCode, flat)
    : nodeWriteHead.call(this, this.statusCode, reason, flat);
}

/** writeHead's headers as node applies them over headers already set: an object replaces, a list replaces each name and keeps its repeats. */
function applyHeaders(
  res: ServerResponse,
  store: HeaderTable,
  headers: OutgoingHttpHeaders | OutgoingHttpHeader[],
): void {
  if (!Array.isArray(headers)) {
    for (const k of Object.keys(headers)) {
      const v = (headers as OutgoingHttpHeaders)[k];
      if (v !== undefined) res.setHeader(k, v);
    }
    return;
  }
  const pairs: [string, HeaderValue][] = [];
  if (headers.length > 0 && Array.isArray(headers[0])) {
    for (const pair of headers as unknown as [string, HeaderValue][]) pairs.push([pair[0], pair[1]]);
  } else {
    if (headers.length % 2 !== 0)
      throw Object.assign(
        new TypeError("The argument 'headers' is invalid: a flat header list needs a value for every name"),
        { code: 'ERR_INVALID_ARG_VALUE' },
      );
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1] as HeaderValue]);
  }
  for (const [k] of pairs) store.remove(k.toLowerCase());
  for (const [k, v] of pairs) if (k) res.appendHeader(k, v as string);
}
