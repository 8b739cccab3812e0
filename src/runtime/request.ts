/**
 * The request side of an exchange: what a servlet sees through
 * HttpServletRequest, computed lazily from Node's IncomingMessage. Values a
 * filter may rewrite (remote address, scheme, headers, ...) are settable and
 * the new values are what later filters and the downstream handler see.
 */
import { reverse } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { readBody } from './body.js';
import { charsetDecoder, type ByteDecoder } from '../protocol/charset.js';
import type { Exchange } from './exchange.js';
import { charsetOfContentType, mediaTypeOnly } from './media-type.js';
import { toTomcatRemoteAddr } from '../protocol/net.js';
import { ParameterMap, parseUrlEncoded, type ParameterFailReason } from './parameters.js';
import type { HttpSession } from './session.js';
import { isPromise, type Awaitable } from './state.js';
import { cookieValues as cookieIds } from './session-manager.js';
import type { DispatcherType } from './types.js';

/** Request attribute Tomcat sets (to true) when parameter parsing skipped anything. */
export const PARAMETER_PARSE_FAILED_ATTR = 'org.apache.catalina.parameter_parse_failed';
/** Request attribute holding the first ParameterFailReason. */
export const PARAMETER_PARSE_FAILED_REASON_ATTR = 'org.apache.catalina.parameter_parse_failed_reason';
/** Request attribute holding the dispatcher type. */
export const DISPATCHER_TYPE_ATTR = 'org.apache.catalina.core.DISPATCHER_TYPE';
/** Globals.REMOTE_IP_FILTER_SECURE: a special attribute of Tomcat's Request that reads and sets the secure flag. */
export const REMOTE_IP_FILTER_SECURE_ATTR = 'org.apache.catalina.filters.RemoteIpFilter.secure';

const RESOLVED: Promise<void> = Promise.resolve();
const latin1 = charsetDecoder('ISO-8859-1')!;

export class ExchangeRequest {
  /** The Node request underneath. */
  readonly raw: IncomingMessage;
  readonly method: string;
  /** The request path as sent, still %-encoded, without the query string (getRequestURI). */
  readonly requestURI: string;
  /** The text after `?`, undecoded; null when the target had no `?`. */
  readonly queryString: string | null;
  /** `''` for ROOT, `/name` otherwise. */
  readonly contextPath: string;
  /**
   * The decoded path within the context. The runtime does not know servlet
   * mappings, so by default all of it is the servlet path (as for the default
   * servlet `/`); a server that maps servlets may split it.
   */
  servletPath: string;
  pathInfo: string | null = null;
  dispatcherType: DispatcherType = 'REQUEST';

  private readonly ex: Exchange;
  /**
   * Headers filters replaced: lower-cased name, then its lines (null when removed), pair after pair. A request
   * carries one or two (RemoteIpFilter's), where a flat array searched in order beats building a Map.
   */
  private overrides: (string | readonly string[] | null)[] | null = null;
  private attributes: Attributes | null = null;
  private remoteAddrValue: string | undefined;
  private remoteHostValue: string | undefined;
  private remotePortValue: number | undefined;
  private schemeValue: string | undefined;
  private secureValue: boolean | undefined;
  private serverNameValue: string | undefined;
  private serverPortValue: number | undefined;
  private localPortValue: number | undefined;
  private localNameValue: string | undefined;
  private explicitEncoding: string | null = null;
  private params: ParameterMap | null = null;
  private parsing: Promise<void> | null = null;
  private bodyBytes: Buffer | null = null;
  private sessionValue: HttpSession | null | undefined;
  private requestedId: string | null | undefined;
  private requestedIdValid = false;
  /** The networked store's load of the requested session, until it settles. */
  private sessionLoading: Promise<void> | null = null;
  /** Set when the store could not be asked: no session is found or created in this request (fail closed). */
  private sessionStoreFailed = false;
  private writeBackQueued = false;

  constructor(
    ex: Exchange,
    raw: IncomingMessage,
    requestURI: string,
    queryString: string | null,
    contextPath: string,
    pathInContext: string,
  ) {
    this.ex = ex;
    this.raw = raw;
    this.method = raw.method ?? 'GET';
    this.requestURI = requestURI;
    this.queryString = queryString;
    this.contextPath = contextPath;
    this.servletPath = pathInContext;
  }

  /** `HTTP/1.1`. */
  get protocol(): string {
    const v = this.raw.httpVersion;
    return v === '1.1' ? 'HTTP/1.1' : `HTTP/${v}`;
  }

  /** scheme://serverName[:serverPort]requestURI, the port omitted when it is the scheme's default (getRequestURL). */
  get requestURL(): string {
    const scheme = this.scheme;
    const port = this.serverPort;
    const defaultPort = (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443) || port <= 0;
    return `${scheme}://${this.serverName}${defaultPort ? '' : `:${port}`}${this.requestURI}`;
  }

  /** servletPath + pathInfo: the path filter URL patterns are matched against. */
  get pathWithinContext(): string {
    return this.pathInfo === null ? this.servletPath : this.servletPath + this.pathInfo;
  }

  // ---- headers

  /** The header's value (repeated headers joined as Node joins them), or null. */
  getHeader(name: string): string | null {
    return this.headerLowerCased(name.toLowerCase());
  }

  /** @internal getHeader for a name already lower-cased (the runtime's own literals and configured names). */
  headerLowerCased(key: string): string | null {
    const at = this.overrideAt(key);
    if (at >= 0) {
      const o = this.overrides![at] as readonly string[] | null;
      return o === null || o.length === 0 ? null : o.length === 1 ? o[0]! : o.join(key === 'cookie' ? '; ' : ', ');
    }
    const v = this.raw.headers[key];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }

  /** Every line of the header, in order (empty when absent). */
  getHeaders(name: string): string[] {
    const key = name.toLowerCase();
    const at = this.overrideAt(key);
    if (at >= 0) {
      const o = this.overrides![at] as readonly string[] | null;
      return o === null ? [] : [...o];
    }
    return linesOf(this.raw, key);
  }

  /** Index of the lines of an overridden header in `overrides`, or -1. */
  private overrideAt(key: string): number {
    const list = this.overrides;
    if (list === null) return -1;
    for (let i = 0; i < list.length; i += 2) if (list[i] === key) return i + 1;
    return -1;
  }

  private override(key: string, lines: readonly string[] | null): void {
    const at = this.overrideAt(key);
    if (at >= 0) this.overrides![at] = lines;
    // The first pair as a literal: an array grown from empty by push reserves room for 16.
    else if (this.overrides === null) this.overrides = [key, lines];
    else this.overrides.push(key, lines);
  }

  /** Header names, lower-cased. */
  getHeaderNames(): string[] {
    const names = new Set(Object.keys(this.raw.headers));
    const list = this.overrides;
    if (list !== null)
      for (let i = 0; i < list.length; i += 2)
        if (list[i + 1] === null) names.delete(list[i] as string);
        else names.add(list[i] as string);
    return [...names];
  }

  /**
   * Replaces (or with null removes) a header for everything downstream of
   * this filter, including code that reads `req.headers` directly.
   */
  setHeader(name: string, value: string | readonly string[] | null): void {
    const key = name.toLowerCase();
    if (typeof value === 'string') {
      // One line: no join needed for Node's view.
      this.override(key, [value]);
      this.raw.headers[key] = value;
      return;
    }
    const lines = value === null ? null : [...value];
    this.override(key, lines);
    if (lines === null || lines.length === 0) delete this.raw.headers[key];
    else this.raw.headers[key] = lines.join(key === 'cookie' ? '; ' : ', ');
  }

  /** Cookies from the Cookie header(s), in order; surrounding double quotes are removed from values. */
  getCookies(): { name: string; value: string }[] {
    const out: { name: string; value: string }[] = [];
    for (const line of this.getHeaders('cookie')) {
      for (const pair of line.split(';')) {
        const eq = pair.indexOf('=');
        if (eq <= 0) continue;
        const name = pair.slice(0, eq).trim();
        let value = pair.slice(eq + 1).trim();
        if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
        if (name !== '') out.push({ name, value });
      }
    }
    return out;
  }

  /** The raw Content-Type header, or null. */
  get contentType(): string | null {
    return this.headerLowerCased('content-type');
  }

  /** Content-Length, or -1 when not declared. */
  get contentLength(): number {
    const v = this.headerLowerCased('content-length');
    return v === null || !/^\d+$/.test(v) ? -1 : Number(v);
  }

  // ---- connection facts (settable by RemoteIpFilter and the like)

  /** Client address in Java's form (IPv6 uncompressed: `0:0:0:0:0:0:0:1`). */
  get remoteAddr(): string {
    return (this.remoteAddrValue ??= toTomcatRemoteAddr(this.raw.socket.remoteAddress ?? ''));
  }
  set remoteAddr(v: string) {
    this.remoteAddrValue = v;
  }

  /** Client host name: the address unless a lookup resolved a name (enableLookups) or a filter set one. */
  get remoteHost(): string {
    return this.remoteHostValue ?? this.remoteAddr;
  }
  set remoteHost(v: string) {
    this.remoteHostValue = v;
  }

  /**
   * Resolves the client's host name by reverse DNS when the context enables
   * lookups (otherwise, and on failure, the address), and remembers it.
   */
  async lookupRemoteHost(): Promise<string> {
    if (this.remoteHostValue !== undefined || !this.ex.context.settings.enableLookups) return this.remoteHost;
    const addr = this.remoteAddr;
    try {
      const names = await reverse(addr);
      this.remoteHostValue ??= names[0] ?? addr;
    } catch {
      this.remoteHostValue ??= addr;
    }
    return this.remoteHostValue;
  }

  get remotePort(): number {
    return (this.remotePortValue ??= this.raw.socket.remotePort ?? -1);
  }
  set remotePort(v: number) {
    this.remotePortValue = v;
  }

  /** `https` on TLS connections, otherwise `http`. */
  get scheme(): string {
    return (this.schemeValue ??= (this.raw.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http');
  }
  set scheme(v: string) {
    this.schemeValue = v;
  }

  get secure(): boolean {
    return (this.secureValue ??= (this.raw.socket as Partial<TLSSocket>).encrypted === true);
  }
  set secure(v: boolean) {
    this.secureValue = v;
  }

  /** The Host header without its port (`[::1]` keeps its brackets); the local address when there is no Host. */
  get serverName(): string {
    if (this.serverNameValue === undefined) this.parseHost();
    return this.serverNameValue!;
  }
  set serverName(v: string) {
    this.serverNameValue = v;
  }

  /** The Host header's port; without one, 443 for https and 80 otherwise; the local port when there is no Host. */
  get serverPort(): number {
    if (this.serverPortValue === undefined) this.parseHost();
    return this.serverPortValue!;
  }
  set serverPort(v: number) {
    this.serverPortValue = v;
  }

  get localAddr(): string {
    return toTomcatRemoteAddr(this.raw.socket.localAddress ?? '');
  }

  /** The local host name (getLocalName): the local address, since no lookup is made, unless a filter set one. */
  get localName(): string {
    return this.localNameValue ?? this.localAddr;
  }
  set localName(v: string) {
    this.localNameValue = v;
  }

  get localPort(): number {
    return (this.localPortValue ??= this.raw.socket.localPort ?? -1);
  }
  set localPort(v: number) {
    this.localPortValue = v;
  }

  private parseHost(): void {
    const host = this.raw.headers.host;
    let name: string;
    let port: number;
    if (host === undefined) {
      name = this.localAddr;
      port = this.localPort;
    } else {
      // A port follows the last ':' that is not inside an IPv6 literal (one after the last ']'): found scanning back.
      let colon = -1;
      for (let i = host.length - 1; i >= 0; i--) {
        const c = host.charCodeAt(i);
        if (c === 58) {
          colon = i;
          break;
        }
        if (c === 93) break;
      }
      const digits = colon >= 0 ? decimalAfter(host, colon + 1) : -1;
      if (digits >= 0) {
        name = host.slice(0, colon);
        port = digits;
      } else {
        name = colon >= 0 ? host.slice(0, colon) : host;
        port = -1;
      }
      if (port < 0) port = this.scheme === 'https' ? 443 : 80;
    }
    this.serverNameValue ??= name;
    this.serverPortValue ??= port;
  }

  // ---- attributes

  /** An attribute, or undefined. Tomcat's parameter-parse and dispatcher attributes are answered too. */
  getAttribute(name: string): unknown {
    if (name.charCodeAt(0) === 111 && name.startsWith('org.apache.catalina.')) {
      if (name === PARAMETER_PARSE_FAILED_ATTR) return this.params?.failure != null ? true : undefined;
      if (name === PARAMETER_PARSE_FAILED_REASON_ATTR) return this.params?.failure ?? undefined;
      if (name === DISPATCHER_TYPE_ATTR) return this.dispatcherType;
      if (name === REMOTE_IP_FILTER_SECURE_ATTR) return this.secure;
    }
    return this.attributes?.get(name);
  }

  /**
   * Sets an attribute; `undefined` or `null` removes it. As in Tomcat's Request, the RemoteIpFilter secure
   * attribute is not stored (nor listed by getAttributeNames): a Boolean sets the secure flag.
   */
  setAttribute(name: string, value: unknown): void {
    if (name === REMOTE_IP_FILTER_SECURE_ATTR) {
      if (typeof value === 'boolean') this.secure = value;
      return;
    }
    if (value === undefined || value === null) this.attributes?.delete(name);
    else (this.attributes ??= new Attributes()).set(name, value);
  }

  removeAttribute(name: string): void {
    this.attributes?.delete(name);
  }

  getAttributeNames(): string[] {
    return this.attributes === null ? [] : this.attributes.names();
  }

  // ---- character encoding and parameters

  /** The set encoding, else the Content-Type charset, else the context's request-character-encoding, else null. */
  get characterEncoding(): string | null {
    if (this.explicitEncoding !== null) return this.explicitEncoding;
    const ct = this.contentType;
    const fromHeader = ct === null ? null : charsetOfContentType(ct);
    return fromHeader ?? this.ex.context.settings.requestCharacterEncoding;
  }

  /** Sets the body encoding. Throws for an unknown charset; has no effect on parameters already parsed. */
  setCharacterEncoding(encoding: string): void {
    if (charsetDecoder(encoding) === null) throw new RangeError(`Unsupported encoding [${encoding}]`);
    this.explicitEncoding = encoding;
  }

  /** Whether parameters are available to the synchronous getters. */
  get parametersParsed(): boolean {
    return this.params !== null && this.parsing === null;
  }

  /**
   * Parses the query string and, for a form POST, reads and parses the body.
   * Never rejects: problems are recorded (parameterFailure). Idempotent.
   */
  parseParameters(): Promise<void> {
    if (this.parsing !== null) return this.parsing;
    if (this.params !== null) return RESOLVED;
    const params = this.parseQuery();
    if (!this.hasFormBody()) return RESOLVED;
    this.parsing = readBody(this.raw, this.ex.context.settings.maxPostSize).then((r) => {
      if (r.ok) {
        this.bodyBytes = r.bytes;
        parseUrlEncoded(r.bytes, this.bodyDecoder(), params);
      } else {
        params.fail(r.reason);
      }
      this.parsing = null;
    });
    return this.parsing;
  }

  /** The first failure reason when parsing skipped anything, else null. Parses first when that is synchronous. */
  get parameterFailure(): ParameterFailReason | null {
    return this.parameters().failure;
  }

  /** How many parameters parsing skipped. */
  get skippedParameterCount(): number {
    return this.parameters().skipped;
  }

  /** The first value of a parameter, `''` for a name without a value, or null. */
  getParameter(name: string): string | null {
    const v = this.parameters().values.get(name);
    return v === undefined ? null : v[0]!;
  }

  getParameterValues(name: string): string[] | null {
    const v = this.parameters().values.get(name);
    return v === undefined ? null : [...v];
  }

  getParameterNames(): string[] {
    return [...this.parameters().values.keys()];
  }

  /** A copy of all parameters. */
  getParameterMap(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [k, v] of this.parameters().values) out.set(k, [...v]);
    return out;
  }

  /**
   * @internal A FORWARD or INCLUDE dispatch: the target's query parameters
   * first, then the original request's, as ApplicationHttpRequest merges them.
   * `original` must have parsed its parameters already.
   */
  adoptParameters(original: ExchangeRequest): void {
    const params = this.parseQuery();
    const from = original.parameters();
    for (const [name, values] of from.values) {
      const own = params.values.get(name);
      if (own === undefined) params.values.set(name, [...values]);
      else own.push(...values);
    }
    if (from.failure !== null) params.fail(from.failure);
    this.bodyBytes = original.bodyBytes;
  }

  /** The form body the runtime consumed while parsing parameters (the stream is then empty), else null. */
  get body(): Buffer | null {
    return this.bodyBytes;
  }

  private parameters(): ParameterMap {
    if (this.params !== null && this.parsing === null) return this.params;
    if (this.params === null && !this.hasFormBody()) return this.parseQuery();
    throw new Error('This request has a form body: await request.parseParameters() before reading parameters');
  }

  private parseQuery(): ParameterMap {
    const params = new ParameterMap(this.ex.context.settings.maxParameterCount);
    this.params = params;
    const q = this.queryString;
    if (q !== null && q !== '') {
      const s = this.ex.context.settings;
      const decode = s.useBodyEncodingForURI ? this.bodyDecoder() : (charsetDecoder(s.uriEncoding) ?? latin1);
      // Node hands the request line over one char per byte.
      parseUrlEncoded(Buffer.from(q, 'latin1'), decode, params);
    }
    return params;
  }

  private hasFormBody(): boolean {
    const s = this.ex.context.settings;
    if (!s.parseBodyMethods.includes(this.method)) return false;
    const ct = this.contentType;
    if (ct === null || mediaTypeOnly(ct) !== 'application/x-www-form-urlencoded') return false;
    const r = this.raw;
    // A body someone else already read is gone (Tomcat: getInputStream was used).
    if (r.readableEnded || r.readableDidRead || r.destroyed) return false;
    return this.contentLength !== 0;
  }

  private bodyDecoder(): ByteDecoder {
    // An unsupported charset falls back to the next source, then ISO-8859-1, as Request.getCharset does.
    const candidates = [
      this.explicitEncoding,
      this.contentType === null ? null : charsetOfContentType(this.contentType),
      this.ex.context.settings.requestCharacterEncoding,
    ];
    for (const c of candidates) {
      const d = c === null ? null : charsetDecoder(c);
      if (d !== null) return d;
    }
    return latin1;
  }

  // ---- sessions

  /** The session id the client sent (JSESSIONID cookie), or null. */
  get requestedSessionId(): string | null {
    if (this.requestedId === undefined) this.readSessionCookies();
    return this.requestedId!;
  }

  /** Whether the id the client sent names a live session. */
  isRequestedSessionIdValid(): boolean {
    if (this.sessionValue === undefined) this.lookupSession();
    return (
      this.requestedIdValid &&
      this.sessionValue != null &&
      this.sessionValue.valid &&
      this.sessionValue.id === this.requestedId
    );
  }

  /** Whether the requested session id came from a cookie (always, when there is one: URL rewriting is not used). */
  isRequestedSessionIdFromCookie(): boolean {
    return this.requestedSessionId !== null;
  }

  /**
   * Starts looking the requested session up (the runtime does it when the
   * request arrives). Undefined when the answer is already there (no cookie,
   * or a memory store); a promise while a networked store answers, which
   * `getSession` needs settled: filters await `sessionReady()` first.
   */
  sessionReady(): Promise<void> | undefined {
    if (this.sessionValue === undefined && this.sessionLoading === null) this.lookupSession();
    return this.sessionLoading ?? undefined;
  }

  /**
   * The session, created (with its Set-Cookie) when `create` is true and
   * there is none. Creating one after the response was committed throws, and
   * so does asking while a networked store is still loading it (await
   * `sessionReady()`) or when the store is unreachable.
   */
  getSession(create = true): HttpSession | null {
    if (this.sessionValue === undefined) this.lookupSession();
    if (this.sessionLoading !== null)
      throw new Error('getSession: the session is still loading from its store (await request.sessionReady() first)');
    const current = this.sessionValue!;
    if (current !== null && current.valid) return current;
    if (!create) return null;
    if (this.sessionStoreFailed) throw new Error('getSession: the session store is unavailable');
    if (this.ex.response.committed) throw new Error('Cannot create a session after the response has been committed');
    const s = this.ex.context.sessions.create();
    this.attach(s);
    this.ex.response.setSessionCookie(s.id, this.secure);
    return s;
  }

  /** Gives the current session a new id (and cookie); throws when there is no session. Returns the new id. */
  changeSessionId(): string {
    const s = this.getSession(false);
    if (s === null) throw new Error('changeSessionId: there is no session associated with this request');
    const id = this.ex.context.sessions.changeId(s);
    this.ex.response.setSessionCookie(id, this.secure);
    return id;
  }

  /** @internal The networked store's load still under way, or null. */
  get sessionPending(): Promise<void> | null {
    return this.sessionLoading;
  }

  /** @internal A dispatch (forward, include, error page) of the same request shares its session. */
  adoptSession(original: ExchangeRequest): void {
    if (original.sessionValue === undefined && original.sessionLoading === null) return;
    this.requestedId = original.requestedId;
    this.requestedIdValid = original.requestedIdValid;
    this.sessionStoreFailed = original.sessionStoreFailed;
    if (original.sessionLoading !== null) {
      this.sessionLoading = original.sessionLoading.then(() => {
        this.sessionLoading = null;
        this.sessionValue = original.sessionValue;
        this.sessionStoreFailed = original.sessionStoreFailed;
      });
    } else {
      this.sessionValue = original.sessionValue;
    }
  }

  private readSessionCookies(): string[] {
    const ids = cookieIds(this.raw.headers.cookie, this.ex.context.sessions.cookie.name);
    this.requestedId = ids.length > 0 ? ids[0]! : null;
    return ids;
  }

  private lookupSession(): void {
    const ids = this.readSessionCookies();
    this.sessionValue = null;
    if (ids.length === 0) return;
    let found: Awaitable<HttpSession | null>;
    try {
      found = this.ex.context.sessions.find(ids);
    } catch {
      this.sessionStoreFailed = true;
      return;
    }
    if (!isPromise(found)) {
      this.found(found);
      return;
    }
    this.sessionLoading = found.then(
      (s) => {
        this.sessionLoading = null;
        this.found(s);
      },
      () => {
        // The store logs the outage; the request goes on without a session and cannot create one.
        this.sessionLoading = null;
        this.sessionStoreFailed = true;
      },
    );
  }

  private found(s: HttpSession | null): void {
    if (s === null) return;
    // With several cookies of that name (paths / and /ctx), the first live one wins.
    s.isNew = false;
    this.requestedId = s.id;
    this.requestedIdValid = true;
    this.attach(s);
  }

  /** A networked store's session is written back before the response is committed (or at once after). */
  private attach(s: HttpSession): void {
    this.sessionValue = s;
    if (this.ex.context.sessions.writesBack) s.onChange = this.queueWriteBack;
  }

  private readonly queueWriteBack = (): void => {
    if (this.writeBackQueued) return;
    this.writeBackQueued = true;
    if (!this.ex.response.onBeforeCommit(writeBackHook, this)) queueMicrotask(() => writeBackHook(this.ex, this));
  };

  /** @internal */
  flushSession(): void {
    this.writeBackQueued = false;
    const s = this.sessionValue;
    if (s == null || s.changes === null) return;
    const done = this.ex.context.sessions.writeBack(s);
    if (isPromise(done)) done.then(undefined, () => undefined);
  }
}

function writeBackHook(_ex: Exchange, req: ExchangeRequest): void {
  req.flushSession();
}

/**
 * Every line of a header, in order, from the request as received (what
 * `headersDistinct` holds, without building it for every header of the request).
 */
function linesOf(raw: IncomingMessage, key: string): string[] {
  // Usually one line: it is returned in a one-element literal, not an array grown from empty by push (room for 16).
  let first: string | undefined;
  let more: string[] | null = null;
  const list = raw.rawHeaders;
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i]!;
    if (name.length !== key.length || (name !== key && !sameLowerCased(name, key))) continue;
    if (first === undefined) first = list[i + 1]!;
    else if (more === null) more = [first, list[i + 1]!];
    else more.push(list[i + 1]!);
  }
  return more ?? (first === undefined ? [] : [first]);
}

/** Whether `name.toLowerCase() === key` for a lower-cased key of the same length, without building the lower-cased copy. */
function sameLowerCased(name: string, key: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // Beyond ASCII, lower-casing can change lengths and map onto ASCII (U+212A KELVIN SIGN is 'k'): ask toLowerCase.
    if (c >= 128) return name.toLowerCase() === key;
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== key.charCodeAt(i)) return false;
  }
  return true;
}

/** The value of the decimal digits from `from` to the end, or -1 when there are none or anything else follows. */
function decimalAfter(text: string, from: number): number {
  if (from >= text.length) return -1;
  let n = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  // Past 15 digits the running sum can round differently from Number's parse of the text.
  return text.length - from > 15 ? Number(text.slice(from)) : n;
}

/**
 * Request attributes in insertion order. A request carries a dozen or so
 * (RemoteIpFilter and CorsFilter set ten on every request), where two small
 * arrays searched by identity beat a Map that rehashes as it grows; past
 * ATTRIBUTES_IN_ARRAYS names they move to a Map, so many attributes stay cheap too.
 */
class Attributes {
  private keys: string[] = [];
  private values: unknown[] = [];
  private map: Map<string, unknown> | null = null;

  get(name: string): unknown {
    if (this.map !== null) return this.map.get(name);
    const i = this.keys.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }

  set(name: string, value: unknown): void {
    if (this.map !== null) {
      this.map.set(name, value);
      return;
    }
    const i = this.keys.indexOf(name);
    if (i >= 0) {
      this.values[i] = value;
      return;
    }
    if (this.keys.length === ATTRIBUTES_IN_ARRAYS) {
      this.map = new Map();
      for (let k = 0; k < this.keys.length; k++) this.map.set(this.keys[k]!, this.values[k]);
      this.map.set(name, value);
      this.keys = [];
      this.values = [];
      return;
    }
    this.keys.push(name);
    this.values.push(value);
  }

  delete(name: string): void {
    if (this.map !== null) {
      this.map.delete(name);
      return;
    }
    const i = this.keys.indexOf(name);
    if (i < 0) return;
    this.keys.splice(i, 1);
    this.values.splice(i, 1);
  }

  names(): string[] {
    return this.map !== null ? [...this.map.keys()] : this.keys.slice();
  }
}

const ATTRIBUTES_IN_ARRAYS = 32;
