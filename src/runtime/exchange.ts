/**
 * One request/response pair as the filters and the downstream handler see
 * it, plus the position of the request in its filter chain.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRenderer } from './error-page.js';
import type { Logger } from './logging.js';
import { ExchangeRequest } from './request.js';
import { EXCHANGE, ExchangeResponse } from './response.js';
import type { SessionManager } from './session-manager.js';
import type { ContextSettings, FilterResult, NextFilter, RuntimeFilter } from './types.js';

/** What every exchange of one context shares. */
export interface ContextState {
  readonly settings: ContextSettings;
  readonly sessions: SessionManager;
  /** The runtime's own logger (filter failures, hook failures). */
  readonly logger: Logger;
  readonly renderError: ErrorRenderer;
  readonly filters: readonly RuntimeFilter[];
  /**
   * The web.xml error page for a status sendError set (its own page, else the
   * default page), or null when the container's own report is sent.
   */
  readonly errorLocation: (status: number) => string | null;
  /** Forwards to an error page with the ERROR dispatcher (context.ts); the response belongs to that dispatch from then on. */
  readonly dispatchError: (
    from: Exchange,
    status: number,
    message: string | null,
    location: string,
    thrown?: ThrownError,
  ) => void;
  /** The `<exception-type>` error page for a thrown value, or null. */
  readonly exceptionLocation: (err: unknown) => string | null;
  /** A FORWARD or INCLUDE dispatch to a context-relative location (context.ts). */
  readonly dispatch: (
    from: Exchange,
    type: 'FORWARD' | 'INCLUDE',
    location: string,
    servlet: Servlet | null,
  ) => Promise<void>;
}

/** The servlet a dispatch ends in: a Node handler; a promise it returns is awaited and its rejection handled as a thrown exception. */
export type Servlet = (req: IncomingMessage, res: ServerResponse) => unknown;

/** An error dispatched to an `<exception-type>` page. */
export interface ThrownError {
  readonly error: unknown;
}

export class Exchange {
  readonly request: ExchangeRequest;
  readonly response: ExchangeResponse;
  readonly context: ContextState;
  /** Continues the chain; the same function is handed to every filter of this exchange. */
  readonly next: NextFilter;

  // Chain position, owned by the executor in context.ts.
  /** @internal Indexes into context.filters, in run order. */
  chain: readonly number[] = EMPTY;
  /** @internal Index of the next entry of `chain` to run; chain.length means downstream. */
  pos = 0;
  /** @internal Whether the downstream handler has been called. */
  reachedDownstream = false;
  /** @internal The downstream continuation (Connect's `next`); a promise it returns is watched for rejection. */
  downstream: () => unknown;
  /** @internal The path filter mappings are matched against: the path within the context, or an INCLUDE's target. */
  mappingPath: string;
  /** @internal Set when sendError handed the response to an error-page dispatch (the chain no longer completes it). */
  handedOff = false;

  constructor(
    context: ContextState,
    req: IncomingMessage,
    res: ServerResponse,
    requestURI: string,
    queryString: string | null,
    pathInContext: string,
    downstream: () => unknown,
  ) {
    this.context = context;
    this.request = new ExchangeRequest(this, req, requestURI, queryString, context.settings.contextPath, pathInContext);
    this.response = new ExchangeResponse(this, res);
    this.downstream = downstream;
    this.mappingPath = pathInContext;
    // A bound function, not an arrow: V8 allocated this per-request closure in the old
    // generation, and the dead closure kept its request's objects (the exchange, req, res) alive through every
    // scavenge until a full collection; most on Node 24, less on 22 and 20 (bench/README.md, issue 35 item 3, fourth session).
    this.next = advance.bind(undefined, this) as NextFilter;
    (req as unknown as Record<symbol, unknown>)[EXCHANGE] = this;
    (res as unknown as Record<symbol, unknown>)[EXCHANGE] = this;
  }

  /** The Node request. */
  get req(): IncomingMessage {
    return this.request.raw;
  }

  /** The Node response. */
  get res(): ServerResponse {
    return this.response.raw;
  }
}

const EMPTY: readonly number[] = [];

/** The exchange a tollgate context built for this Node request (or response), if any. */
export function exchangeOf(reqOrRes: IncomingMessage | ServerResponse): Exchange | undefined {
  return (reqOrRes as unknown as Record<symbol, Exchange | undefined>)[EXCHANGE];
}

// ---- the executor: index-based, synchronous unless a filter returns a promise

/** Runs the next filter of the chain, or the downstream handler after the last one. */
export function advance(ex: Exchange): FilterResult {
  const i = ex.pos++;
  const chain = ex.chain;
  if (i < chain.length) return invoke(ex, ex.context.filters[chain[i]!]!);
  if (i === chain.length) {
    // The servlet calls getSession synchronously: a networked store's answer must be in first.
    const loading = ex.request.sessionPending;
    if (loading !== null) return loading.then(() => enterDownstream(ex));
    enterDownstream(ex);
  }
  return undefined;
}

function invoke(ex: Exchange, filter: RuntimeFilter): FilterResult {
  let result: FilterResult;
  try {
    result = filter.doFilter(ex, ex.next);
  } catch (err) {
    filterFailed(ex, filter, err);
    return undefined;
  }
  if (result === undefined || typeof (result as Promise<void> | null)?.then !== 'function') return undefined;
  return result.then(undefined, (err: unknown) => filterFailed(ex, filter, err));
}

function enterDownstream(ex: Exchange): void {
  ex.reachedDownstream = true;
  let result: unknown;
  try {
    result = ex.downstream();
  } catch (err) {
    downstreamFailed(ex, err);
    return;
  }
  // A handler's rejected promise is its thrown exception (StandardWrapperValve): the exception's error page, else 500.
  if (result !== undefined && result !== null && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(undefined, (err: unknown) => downstreamFailed(ex, err));
  }
}

function downstreamFailed(ex: Exchange, err: unknown): void {
  failed(ex, `The handler after the filter chain threw an exception processing [${ex.request.requestURI}]`, err, true);
}

function filterFailed(ex: Exchange, filter: RuntimeFilter, err: unknown): void {
  // After downstream was reached, its (possibly still asynchronous) handler owns the response.
  failed(
    ex,
    `Filter [${filter.name}] threw an exception processing [${ex.request.requestURI}]`,
    err,
    !ex.reachedDownstream,
  );
}

/** Logs a failure, stops the chain, and answers 500 when the failing party owns an uncommitted response. */
export function failed(ex: Exchange, message: string, err: unknown, ownsResponse: boolean): void {
  ex.context.logger.severe(message, err);
  if (ex.pos <= ex.chain.length) ex.pos = ex.chain.length + 1;
  if (!ownsResponse) return;
  const res = ex.response.raw;
  if (res.writableEnded) return;
  if (res.headersSent) {
    // Headers are out: the only honest signal left is a truncated response.
    res.destroy();
    return;
  }
  try {
    sendThrowable(ex, err);
  } catch (renderErr) {
    ex.context.logger.severe('The error page could not be sent', renderErr);
    res.destroy();
  }
}

/**
 * StandardHostValve.throwable: the `<exception-type>` page for the thrown
 * value (status 500, with the exception attributes), else what a 500 gets
 * (its page, the default page, or the report).
 */
export function sendThrowable(ex: Exchange, err: unknown): void {
  const res = ex.response.raw;
  if (res.headersSent || res.writableEnded || ex.handedOff) return;
  const location = ex.request.dispatcherType === 'ERROR' ? null : ex.context.exceptionLocation(err);
  if (location === null) {
    ex.response.sendError(500);
    return;
  }
  ex.response.error = { status: 500, message: messageOf(err) };
  res.statusCode = 500;
  res.removeHeader('content-length');
  ex.handedOff = true;
  ex.context.dispatchError(ex, 500, messageOf(err), location, { error: err });
}

function messageOf(err: unknown): string | null {
  return err instanceof Error ? err.message : err === undefined || err === null ? null : String(err);
}
