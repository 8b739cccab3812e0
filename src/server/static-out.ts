/**
 * The response side of the static servlet: one interface over a tollgate
 * exchange (so filters see headers set through the servlet API) or a bare
 * Node response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendErrorReport, type ErrorRenderer, type Exchange } from '../runtime/index.js';
import type { FileResource } from './static-cache.js';

/** Request attribute holding the served file's modification time in milliseconds. */
export const LAST_MODIFIED_ATTRIBUTE = 'tollgate.static.lastModified';

/** The response operations the servlet needs, over an exchange or a bare Node response. */
export interface Out {
  requestHeaders(name: string): string[];
  /** Whether the request has the header (`name` lower-cased). */
  hasRequestHeader(name: string): boolean;
  /**
   * The headers of a whole file, 200, from the resource's precomputed values:
   * Accept-Ranges, ETag, Last-Modified, Content-Type (unless one is set) and
   * Content-Length, and the modification time for ExpiresFilter.
   */
  file(r: FileResource): void;
  header(name: string, value: string): void;
  getContentType(): string | null;
  setContentType(type: string): void;
  status(code: number): void;
  lastModified(ms: number): void;
  end(status: number): void;
  error(status: number, message?: string): void;
  redirect(location: string): void;
}

/**
 * The headers of a whole file through the exchange, as setHeader would set them: the values were built
 * once per cached resource from its length, time and file name (nothing a client sends), so they are
 * stored without validating them again; node:http validates every line when it sends them.
 */
export function fileHeaders(ex: Exchange, r: FileResource): void {
  const res = ex.response;
  res.setHeaderNamed('Accept-Ranges', 'accept-ranges', 'bytes');
  res.setHeaderNamed('ETag', 'etag', r.etag);
  res.setHeaderNamed('Last-Modified', 'last-modified', r.lastModifiedHttp);
  ex.request.setAttribute(LAST_MODIFIED_ATTRIBUTE, r.mtimeMs);
  if (r.type !== null && res.getContentType() === null) res.setContentType(r.type);
  res.setHeaderNamed('Content-Length', 'content-length', r.contentLength);
  res.status = 200;
}

export class ExchangeOut implements Out {
  constructor(private readonly ex: Exchange) {}
  requestHeaders(name: string): string[] {
    return this.ex.request.getHeaders(name);
  }
  hasRequestHeader(name: string): boolean {
    return this.ex.request.headerLowerCased(name) !== null;
  }
  file(r: FileResource): void {
    fileHeaders(this.ex, r);
  }
  header(name: string, value: string): void {
    this.ex.response.setHeader(name, value);
  }
  getContentType(): string | null {
    return this.ex.response.getContentType();
  }
  setContentType(type: string): void {
    this.ex.response.setContentType(type);
  }
  status(code: number): void {
    this.ex.response.status = code;
  }
  lastModified(ms: number): void {
    this.ex.request.setAttribute(LAST_MODIFIED_ATTRIBUTE, ms);
  }
  end(status: number): void {
    this.ex.response.status = status;
    this.ex.response.raw.end();
  }
  error(status: number, message?: string): void {
    this.ex.response.sendError(status, message);
  }
  redirect(location: string): void {
    this.ex.response.sendRedirect(this.ex.response.encodeRedirectURL(location));
  }
}

export class PlainOut implements Out {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly errorPage: ErrorRenderer,
  ) {}
  requestHeaders(name: string): string[] {
    return this.req.headersDistinct[name] ?? [];
  }
  hasRequestHeader(name: string): boolean {
    return this.req.headers[name] !== undefined;
  }
  file(r: FileResource): void {
    if (this.res.headersSent) return;
    if (this.res.getHeaderNames().length > 0) {
      // Headers set before the servlet ran: merged one by one, as setHeader would.
      this.header('Accept-Ranges', 'bytes');
      this.header('ETag', r.etag);
      this.header('Last-Modified', r.lastModifiedHttp);
      if (r.type !== null && this.getContentType() === null) this.setContentType(r.type);
      this.header('Content-Length', r.contentLength);
      this.res.statusCode = 200;
      return;
    }
    // Nothing set yet: the whole header block in one writeHead, built once per cached resource.
    r.head ??= [
      'Accept-Ranges',
      'bytes',
      'ETag',
      r.etag,
      'Last-Modified',
      r.lastModifiedHttp,
      ...(r.type === null ? [] : ['Content-Type', r.type]),
      'Content-Length',
      r.contentLength,
    ];
    this.res.writeHead(200, r.head);
  }
  header(name: string, value: string): void {
    if (!this.res.headersSent) this.res.setHeader(name, value);
  }
  getContentType(): string | null {
    const v = this.res.getHeader('content-type');
    return v === undefined ? null : String(v);
  }
  setContentType(type: string): void {
    this.header('Content-Type', type);
  }
  status(code: number): void {
    if (!this.res.headersSent) this.res.statusCode = code;
  }
  lastModified(): void {
    // Without an exchange there are no request attributes; the Last-Modified header carries the time.
  }
  end(status: number): void {
    this.status(status);
    this.res.end();
  }
  error(status: number, message?: string): void {
    sendErrorReport(this.req, this.res, status, message ?? null, this.errorPage);
  }
  redirect(location: string): void {
    if (this.res.headersSent) return;
    this.res.statusCode = 302;
    this.res.setHeader('Location', location);
    this.res.setHeader('Content-Length', '0');
    this.res.end();
  }
}
