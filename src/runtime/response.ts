/**
 * The response side of an exchange: HttpServletResponse semantics over
 * Node's ServerResponse. The headers live in the runtime's own store
 * (response-headers.ts) until commit, or in node's own table on the
 * public-API path; either way downstream code may keep using
 * `res.setHeader`/`res.writeHead`. The content-type/charset pair is re-read
 * from the header when someone else changed it.
 */
import type { ServerResponse } from 'node:http';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { isSupportedCharset } from '../protocol/charset.js';
import type { Exchange } from './exchange.js';
import { parseContentType } from './media-type.js';
import {
  BEFORE_COMMIT,
  headersOf,
  interceptCommit,
  ResponseHeaders,
  type HeaderTable,
  type HeaderValue,
} from './response-headers.js';
import { httpDate as formatHttpDate } from './http-date.js';
import { endWithReport, reportLength } from './error-page.js';

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

type HookedResponse = ServerResponse & {
  [EXCHANGE]?: Exchange;
  [BEFORE_COMMIT]?: (res: ServerResponse) => void;
};

/** A store for a response whose headers were already sent before the exchange began: nothing reads it but getters. */
const SENT = new ResponseHeaders();

export class ExchangeResponse {
  /** The Node response underneath. */
  readonly raw: ServerResponse;
  /** The headers until commit (shared by every exchange of the same response). */
  readonly headers: HeaderTable;
  private readonly ex: Exchange;
  /** Content type without charset, and the charset text, as the servlet API keeps them. */
  private typeWithoutCharset: string | null = null;
  private charset: string | null = null;
  /** The Content-Type header value last written by this object; anything else means someone wrote it directly. */
  private written: HeaderValue | undefined = undefined;
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
    this.headers = headersOf(raw) ?? SENT;
    (raw as HookedResponse)[BEFORE_COMMIT] = commitCurrentExchange;
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
    validateHeaderName(name);
    validateHeaderValue(name, value as string);
    this.headers.set(name, name.toLowerCase(), typeof value === 'object' ? [...value] : value);
  }

  /**
   * setHeader for a filter's own header: a literal name other than
   * Content-Type with its lower-cased form, and a value built from the
   * filter's validated configuration or from header values already stored.
   * Nothing is checked per request; node:http still validates every line when
   * the headers are sent.
   */
  setHeaderNamed(name: string, lowerCased: string, value: string): void {
    if (this.raw.headersSent) return;
    this.headers.set(name, lowerCased, value);
  }

  /** Adds a header line, keeping existing ones. Ignored once committed. */
  addHeader(name: string, value: string): void {
    if (this.raw.headersSent) return;
    if (isContentType(name)) {
      this.setContentType(value);
      return;
    }
    validateHeaderName(name);
    validateHeaderValue(name, value);
    this.headers.append(name, name.toLowerCase(), value);
  }

  /** addHeader for a filter's own header, as setHeaderNamed. */
  addHeaderNamed(name: string, lowerCased: string, value: string): void {
    if (this.raw.headersSent) return;
    this.headers.append(name, lowerCased, value);
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
    const v = this.headers.get(name.toLowerCase());
    if (v === undefined) return null;
    return typeof v === 'object' ? (v[0] ?? null) : String(v);
  }

  /** All values of a header. */
  getHeaders(name: string): string[] {
    const v = isContentType(name) ? (this.getContentType() ?? undefined) : this.headers.get(name.toLowerCase());
    if (v === undefined) return [];
    return typeof v === 'object' ? [...v] : [String(v)];
  }

  /** Every line of a header with a lower-cased name other than Content-Type joined with ',' (getHeaders(name).join(',')), or null when there is none. */
  joinedHeader(lowerCased: string): string | null {
    const v = this.headers.get(lowerCased);
    if (v === undefined) return null;
    if (typeof v !== 'object') return String(v);
    return v.length === 0 ? null : v.join(',');
  }

  containsHeader(name: string): boolean {
    return isContentType(name) ? this.getContentType() !== null : this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    if (this.raw.headersSent) return;
    if (isContentType(name)) {
      this.setContentType(null);
      return;
    }
    // Through node's method on the response: removing Date or Content-Length also changes what node adds itself.
    this.raw.removeHeader(name);
  }

  getHeaderNames(): string[] {
    return this.headers.keys();
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
          else
            this.ex.context.logger.warning(`Unable to set the response charset [${cs}]: the encoding is not supported`);
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
    const value =
      this.typeWithoutCharset === null
        ? undefined
        : this.charset === null
          ? this.typeWithoutCharset
          : `${this.typeWithoutCharset};charset=${this.charset}`;
    if (value === undefined) this.headers.remove('content-type');
    else {
      validateHeaderValue('Content-Type', value);
      this.headers.set('Content-Type', 'content-type', value);
    }
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
    const h = this.headers.get('content-type');
    return h !== undefined && h !== this.apiWritten;
  }

  private resync(): void {
    const h = this.headers.get('content-type');
    if (h === this.written) return;
    // Someone wrote the header directly: it is the truth now.
    this.written = h;
    const text = h === undefined ? null : typeof h === 'object' ? (h[0] ?? null) : String(h);
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
    const bodyless =
      status === 204 || status === 304 || (status >= 100 && status < 200) || this.ex.request.method === 'HEAD';
    if (bodyless) {
      res.end();
    } else {
      res.setHeader('content-length', reportLength(page));
      endWithReport(res, page);
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
  addUrlEncoder(encoder: UrlEncoder<never>, arg?: unknown): void {
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
  onBeforeCommit(hook: CommitHook<never>, arg?: unknown): boolean {
    if (this.raw.headersSent || this.hooksRan) return false;
    if (this.hooks === null) interceptCommit(this.raw);
    (this.hooks ??= []).push(hook, arg);
    return true;
  }

  /** Called by the store's writeHead: runs each hook once; a failing hook is logged and skipped. */
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
    if (this.raw.headersSent) return;
    const mgr = this.ex.context.sessions;
    const prefix = `${mgr.cookie.name}=`;
    const existing = this.headers.get('set-cookie');
    const lines =
      existing === undefined
        ? []
        : typeof existing === 'object'
          ? existing.filter((l) => !l.startsWith(prefix))
          : [String(existing)].filter((l) => !l.startsWith(prefix));
    const cookie = mgr.cookieHeader(id, secureRequest);
    validateHeaderValue('Set-Cookie', cookie);
    lines.push(cookie);
    this.headers.set('Set-Cookie', 'set-cookie', lines);
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

/** The store's before-commit call: the hooks of the exchange the response belongs to now. */
function commitCurrentExchange(res: ServerResponse): void {
  (res as HookedResponse)[EXCHANGE]?.response.runCommitHooks();
}

/** FastHttpDateFormat's RFC 1123 form, which Date#toUTCString writes too. */
function httpDate(name: string, ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError(`${name}: a date header needs milliseconds since the epoch, got ${String(ms)}`);
  return formatHttpDate(ms);
}
