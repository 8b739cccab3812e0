/**
 * The response side of an exchange: HttpServletResponse semantics over
 * Node's ServerResponse. Node's headers stay the single source of truth, so
 * downstream code may keep using `res.setHeader`/`res.writeHead`; the
 * content-type/charset pair is re-read from the header when someone else
 * changed it.
 */
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isSupportedCharset } from '../protocol/charset.js';
import type { Exchange } from './exchange.js';
import { parseContentType } from './media-type.js';

/** Runs once, just before the status line and headers go out. */
export type CommitHook<T = undefined> = (ex: Exchange, arg: T) => void;

/**
 * A filter's wrapper of setContentType (Tomcat: an HttpServletResponseWrapper
 * overriding it): gets the type as the application passes it and the charset
 * set explicitly so far, returns the type to set.
 */
export type ContentTypeWrapper<T = undefined> = (type: string, charsetSet: string | null, arg: T) => string;

/** Transforms a URL already encoded by the encoders registered before it. */
export type UrlEncoder<T = undefined> = (url: string, kind: 'url' | 'redirect', ex: Exchange, arg: T) => string;

/** Where the exchange is kept on Node's req and res (shared between copies of the runtime). */
export const EXCHANGE = Symbol.for('tollgate.runtime.exchange');
const ORIGINAL_WRITE_HEAD = Symbol.for('tollgate.runtime.writeHead');

type HookedResponse = ServerResponse & {
  [EXCHANGE]?: Exchange;
  [ORIGINAL_WRITE_HEAD]?: ServerResponse['writeHead'];
};

export class ExchangeResponse {
  /** The Node response underneath. */
  readonly raw: ServerResponse;
  private readonly ex: Exchange;
  /** Content type without charset, and the charset text, as the servlet API keeps them. */
  private typeWithoutCharset: string | null = null;
  private charset: string | null = null;
  /** The Content-Type header value last written by this object; anything else means someone wrote it directly. */
  private written: string | number | string[] | undefined = undefined;
  /** The value setContentType/setCharacterEncoding last wrote (unlike `written`, not moved by a direct write). */
  private apiWritten: string | undefined = undefined;
  private wrapper: ContentTypeWrapper<unknown> | null = null;
  private wrapperArg: unknown = undefined;
  private hooks: unknown[] | null = null;
  private hooksRan = false;
  private encoders: unknown[] | null = null;
  /** Status and message of the error sent with sendError, if any. */
  error: { status: number; message: string | null } | null = null;
  /** The location sent with sendRedirect, if any (like sendError, it ends what the application may set). */
  redirected: string | null = null;

  constructor(ex: Exchange, raw: ServerResponse) {
    this.ex = ex;
    this.raw = raw;
  }

  get status(): number {
    return this.raw.statusCode;
  }
  /** Ignored once the response is committed. */
  set status(code: number) {
    if (!this.raw.headersSent) this.raw.statusCode = code;
  }

  /** Whether the status line and headers have been sent. */
  get committed(): boolean {
    return this.raw.headersSent;
  }

  // ---- headers

  /** Replaces a header (Content-Type goes through setContentType). Ignored once committed. */
  setHeader(name: string, value: string | number | readonly string[]): void {
    if (this.raw.headersSent) return;
    if (isContentType(name)) {
      this.setContentType(typeof value === 'object' ? (value[0] ?? null) : String(value));
      return;
    }
    this.raw.setHeader(name, typeof value === 'object' ? [...value] : value);
  }

  /** Adds a header line, keeping existing ones. Ignored once committed. */
  addHeader(name: string, value: string): void {
    if (this.raw.headersSent) return;
    if (isContentType(name)) {
      this.setContentType(value);
      return;
    }
    // Node's appendHeader validates the line and, for a header not yet set, hands it to setHeader to validate again.
    if (this.raw.hasHeader(name)) this.raw.appendHeader(name, value);
    else this.raw.setHeader(name, value);
  }

  /** setDateHeader: the date (ms since the epoch) as an HTTP date, `Thu, 01 Jan 1970 00:00:00 GMT`. Ignored once committed. */
  setDateHeader(name: string, ms: number): void {
    this.setHeader(name, httpDate(name, ms));
  }

  /** addDateHeader: another line with the date as an HTTP date. Ignored once committed. */
  addDateHeader(name: string, ms: number): void {
    this.addHeader(name, httpDate(name, ms));
  }

  /** The first value of a header, or null. */
  getHeader(name: string): string | null {
    if (isContentType(name)) return this.getContentType();
    const v = this.raw.getHeader(name);
    if (v === undefined) return null;
    return Array.isArray(v) ? (v[0] ?? null) : String(v);
  }

  /** All values of a header. */
  getHeaders(name: string): string[] {
    const v = isContentType(name) ? (this.getContentType() ?? undefined) : this.raw.getHeader(name);
    if (v === undefined) return [];
    return Array.isArray(v) ? [...v] : [String(v)];
  }

  containsHeader(name: string): boolean {
    return isContentType(name) ? this.getContentType() !== null : this.raw.hasHeader(name);
  }

  removeHeader(name: string): void {
    if (this.raw.headersSent) return;
    if (isContentType(name)) {
      this.setContentType(null);
      return;
    }
    this.raw.removeHeader(name);
  }

  getHeaderNames(): string[] {
    return this.raw.getHeaderNames();
  }

  // ---- content type and charset

  /** `type/subtype` plus `;charset=x` once a charset is set; null when no content type is set. */
  getContentType(): string | null {
    this.resync();
    if (this.typeWithoutCharset === null) return null;
    return this.charset === null ? this.typeWithoutCharset : `${this.typeWithoutCharset};charset=${this.charset}`;
  }

  /**
   * Sets the content type. A charset parameter becomes the response charset;
   * without one, a charset set earlier is kept (servlet semantics). null clears both.
   */
  setContentType(type: string | null): void {
    if (this.raw.headersSent) return;
    this.resync();
    if (type !== null && this.wrapper !== null) type = this.wrapper(type, this.charset, this.wrapperArg);
    if (type === null) {
      this.typeWithoutCharset = null;
      this.charset = null;
    } else {
      const parsed = parseContentType(type);
      if (parsed === null || parsed.charset === null) {
        // Unparseable or charset-free values pass through as given.
        this.typeWithoutCharset = type;
      } else {
        this.typeWithoutCharset = parsed.withoutCharset;
        const cs = parsed.charset.trim();
        if (cs !== '') {
          if (isSupportedCharset(cs)) this.charset = cs;
          else this.ex.context.logger.warning(`Unable to set the response charset [${cs}]: the encoding is not supported`);
        }
      }
    }
    this.writeContentType();
  }

  /** The charset set explicitly, else the context's response-character-encoding, else ISO-8859-1. */
  getCharacterEncoding(): string {
    this.resync();
    return this.charset ?? this.ex.context.settings.responseCharacterEncoding ?? 'ISO-8859-1';
  }

  /** Whether a charset was set explicitly (setCharacterEncoding, or a content type with charset). */
  get characterEncodingSet(): boolean {
    this.resync();
    return this.charset !== null;
  }

  /** Sets the charset (null unsets it). An unsupported charset is logged and ignored. Ignored once committed. */
  setCharacterEncoding(charset: string | null): void {
    if (this.raw.headersSent) return;
    this.resync();
    if (charset !== null && !isSupportedCharset(charset)) {
      this.ex.context.logger.warning(`Unable to set the response charset [${charset}]: the encoding is not supported`);
      return;
    }
    this.charset = charset;
    this.writeContentType();
  }

  private writeContentType(): void {
    const value = this.typeWithoutCharset === null ? undefined : this.charset === null ? this.typeWithoutCharset : `${this.typeWithoutCharset};charset=${this.charset}`;
    if (value === undefined) this.raw.removeHeader('content-type');
    else this.raw.setHeader('content-type', value);
    this.written = value;
    this.apiWritten = value;
  }

  /**
   * Wraps setContentType (and setHeader/addHeader of Content-Type) for what
   * runs after the calling filter, as a Tomcat filter wraps the response it
   * passes on: a type set before, or by the container on an error page, is
   * not seen. The last wrapper registered is the one that runs.
   */
  wrapContentType<T>(wrapper: ContentTypeWrapper<T>, arg: T): void {
    this.wrapper = wrapper as ContentTypeWrapper<unknown>;
    this.wrapperArg = arg;
  }

  /** Whether the Content-Type header was written other than through this API (res.setHeader, res.writeHead). */
  get contentTypeWrittenDirectly(): boolean {
    const h = this.raw.getHeader('content-type');
    return h !== undefined && h !== this.apiWritten;
  }

  private resync(): void {
    const h = this.raw.getHeader('content-type');
    if (h === this.written) return;
    // Someone wrote the header directly: it is the truth now.
    this.written = h;
    const text = h === undefined ? null : Array.isArray(h) ? (h[0] ?? null) : String(h);
    if (text === null) {
      this.typeWithoutCharset = null;
      this.charset = null;
      return;
    }
    const parsed = parseContentType(text);
    if (parsed === null || parsed.charset === null || parsed.charset === '') {
      this.typeWithoutCharset = text;
      this.charset = null;
    } else {
      this.typeWithoutCharset = parsed.withoutCharset;
      this.charset = parsed.charset;
    }
  }

  // ---- errors and redirects

  /**
   * Sends an error page with this status and ends the response, keeping the
   * headers already set. Returns false (and does nothing) once committed.
   * When the context has a web.xml error page for the status (or a default
   * one), the request is forwarded there with the ERROR dispatcher instead
   * (the response then completes asynchronously); during that dispatch an
   * error ends the response with its status and no body, as on Tomcat 10.1.
   */
  sendError(status: number, message?: string): boolean {
    const res = this.raw;
    if (res.headersSent || res.writableEnded || this.ex.handedOff) return false;
    this.error = { status, message: message ?? null };
    res.statusCode = status;
    const context = this.ex.context;
    if (this.ex.request.dispatcherType === 'ERROR') {
      // An error while serving an error page (the page is missing, an ERROR filter refuses it): Tomcat 10.1
      // looks for no further page and reports nothing, so the status goes out with the headers so far and no body.
      res.removeHeader('content-length');
      // Content-Length: 0, except on a HEAD response, which carries none (observed).
      if (this.ex.request.method !== 'HEAD') res.setHeader('content-length', 0);
      res.end();
      return true;
    }
    const location = context.errorLocation(status);
    if (location !== null) {
      // StandardHostValve: the buffer is reset (headers kept) and the request forwarded to the page.
      this.ex.handedOff = true;
      res.removeHeader('content-length');
      context.dispatchError(this.ex, status, message ?? null, location);
      return true;
    }
    const page = context.renderError(status, message ?? null);
    res.removeHeader('content-length');
    if (page === null) {
      if (this.ex.request.method !== 'HEAD') res.setHeader('content-length', 0);
      res.end();
      return true;
    }
    this.setContentType(page.contentType);
    if (page.headers !== undefined) for (const k of Object.keys(page.headers)) res.setHeader(k, page.headers[k]!);
    const bodyless = status === 204 || status === 304 || (status >= 100 && status < 200) || this.ex.request.method === 'HEAD';
    if (bodyless) {
      res.end();
    } else {
      res.setHeader('content-length', Buffer.byteLength(page.body));
      res.end(page.body);
    }
    return true;
  }

  /** Redirects (302 by default) to `location` as given and ends the response; false once committed. */
  sendRedirect(location: string, status = 302): boolean {
    const res = this.raw;
    if (res.headersSent || res.writableEnded) return false;
    this.redirected = location;
    res.statusCode = status;
    res.setHeader('location', location);
    res.setHeader('content-length', 0);
    res.end();
    return true;
  }

  // ---- URL encoding

  /** Encodes a URL for use in a page (filters such as CsrfPreventionFilter add to it). */
  encodeURL(url: string): string {
    return this.encode(url, 'url');
  }

  /** Encodes a URL for use in a redirect. */
  encodeRedirectURL(url: string): string {
    return this.encode(url, 'redirect');
  }

  /**
   * Wraps URL encoding: each encoder gets the result of the ones registered
   * before it, like nested response wrappers (the first filter's is innermost).
   * Sessions are tracked by cookie only, so the base encoding is the identity.
   */
  addUrlEncoder<T>(encoder: UrlEncoder<T>, arg: T): void;
  addUrlEncoder(encoder: UrlEncoder): void;
  addUrlEncoder(encoder: UrlEncoder<any>, arg?: unknown): void {
    (this.encoders ??= []).push(encoder, arg);
  }

  private encode(url: string, kind: 'url' | 'redirect'): string {
    const list = this.encoders;
    if (list === null) return url;
    let out = url;
    for (let i = 0; i < list.length; i += 2) out = (list[i] as UrlEncoder<unknown>)(out, kind, this.ex, list[i + 1]);
    return out;
  }

  // ---- commit hook

  /**
   * Runs `hook(ex, arg)` once, just before the headers are sent, however
   * they are sent (writeHead, write, end, sendError, a 304 from downstream).
   * Hooks run in reverse registration order (innermost filter first).
   * Headers it sets are sent. Returns false when the response is already committed.
   */
  onBeforeCommit<T>(hook: CommitHook<T>, arg: T): boolean;
  onBeforeCommit(hook: CommitHook): boolean;
  onBeforeCommit(hook: CommitHook<any>, arg?: unknown): boolean {
    const res = this.raw as HookedResponse;
    if (res.headersSent || this.hooksRan) return false;
    if (this.hooks === null) {
      this.hooks = [];
      // Node's implicit header path (write/end) calls this.writeHead too, so one instance property covers all.
      // A response already patched (a second context on the same request) must not wrap itself.
      if (res.writeHead !== (writeHeadWithHooks as unknown)) {
        res[ORIGINAL_WRITE_HEAD] = res.writeHead;
        res.writeHead = writeHeadWithHooks as ServerResponse['writeHead'];
      }
    }
    this.hooks.push(hook, arg);
    return true;
  }

  /** Called by the patched writeHead: runs each hook once; a failing hook is logged and skipped. */
  runCommitHooks(): void {
    if (this.hooksRan) return;
    this.hooksRan = true;
    const list = this.hooks;
    if (list === null) return;
    // Last registered first: a hook stands for a response wrapper, and the innermost wrapper (the filter
    // nearest the servlet) sees the servlet's calls first. With two AddDefaultCharsetFilters or two
    // ExpiresFilters on one request, the one later in the chain decides, as on Tomcat 10.1.60.
    for (let i = list.length - 2; i >= 0; i -= 2) runHook(this.ex, list[i] as CommitHook<unknown>, list[i + 1]);
  }

  /** Writes (or replaces) this response's session cookie. */
  setSessionCookie(id: string, secureRequest: boolean): void {
    const res = this.raw;
    if (res.headersSent) return;
    const mgr = this.ex.context.sessions;
    const prefix = `${mgr.cookie.name}=`;
    const existing = res.getHeader('set-cookie');
    const lines = existing === undefined ? [] : Array.isArray(existing) ? existing.filter((l) => !l.startsWith(prefix)) : [String(existing)].filter((l) => !l.startsWith(prefix));
    lines.push(mgr.cookieHeader(id, secureRequest));
    res.setHeader('set-cookie', lines);
  }
}

function isContentType(name: string): boolean {
  return name.length === 12 && name.toLowerCase() === 'content-type';
}

function runHook(ex: Exchange, hook: CommitHook<unknown>, arg: unknown): void {
  try {
    hook(ex, arg);
  } catch (err) {
    ex.context.logger.severe(`A before-commit hook failed for [${ex.request.requestURI}]`, err);
  }
}

/** Installed on a response instance by onBeforeCommit: applies writeHead's arguments, runs the hooks, then sends. */
function writeHeadWithHooks(this: HookedResponse, statusCode: number, reasonOrHeaders?: unknown, maybeHeaders?: unknown): ServerResponse {
  const original = this[ORIGINAL_WRITE_HEAD]!;
  const ex = this[EXCHANGE];
  if (ex === undefined || this.headersSent) return original.apply(this, arguments as unknown as Parameters<ServerResponse['writeHead']>);
  const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
  const headers = reason === undefined ? reasonOrHeaders : maybeHeaders;
  this.statusCode = statusCode;
  // Headers passed to writeHead are applied first so the hooks see (and may override) them.
  if (headers !== undefined && headers !== null) applyHeaders(this, headers as OutgoingHttpHeaders | OutgoingHttpHeader[]);
  ex.response.runCommitHooks();
  // A hook that answered by itself (sendError) has already sent the headers.
  if (this.headersSent) return this;
  return reason === undefined ? original.call(this, this.statusCode) : (original as (code: number, reason: string) => ServerResponse).call(this, this.statusCode, reason);
}

function applyHeaders(res: ServerResponse, headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): void {
  if (!Array.isArray(headers)) {
    for (const k of Object.keys(headers)) {
      const v = (headers as OutgoingHttpHeaders)[k];
      if (v !== undefined) res.setHeader(k, v);
    }
    return;
  }
  if (headers.length > 0 && Array.isArray(headers[0])) {
    for (const pair of headers as unknown as [string, string | string[]][]) res.appendHeader(pair[0], pair[1]);
    return;
  }
  for (let i = 0; i + 1 < headers.length; i += 2) res.appendHeader(String(headers[i]), headers[i + 1] as string | string[]);
}

/** FastHttpDateFormat's RFC 1123 form, which Date#toUTCString writes too. */
function httpDate(name: string, ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new TypeError(`${name}: a date header needs milliseconds since the epoch, got ${String(ms)}`);
  return new Date(ms).toUTCString();
}
