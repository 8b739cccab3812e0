/**
 * The response side of the static servlet: one interface over a tollgate
 * exchange (so filters see headers set through the servlet API) or a bare
 * Node response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendErrorReport, type ErrorRenderer, type Exchange } from '../runtime/index.js';

/** Request attribute holding the served file's modification time in milliseconds. */
export const LAST_MODIFIED_ATTRIBUTE = 'tollgate.static.lastModified';

/** The response operations the servlet needs, over an exchange or a bare Node response. */
export interface Out {
  requestHeaders(name: string): string[];
  header(name: string, value: string): void;
  getContentType(): string | null;
  setContentType(type: string): void;
  status(code: number): void;
  lastModified(ms: number): void;
  end(status: number): void;
  error(status: number, message?: string): void;
  redirect(location: string): void;
}

export class ExchangeOut implements Out {
  constructor(private readonly ex: Exchange) {}
  requestHeaders(name: string): string[] {
    return this.ex.request.getHeaders(name);
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
