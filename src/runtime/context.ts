/**
 * One web application (context) as Connect-style middleware: decode the
 * path as Tomcat does, build the exchange, run the filters the compiled
 * `selectChain` picks, then hand over to the downstream handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { charsetDecoder } from '../protocol/charset.js';
import { defaultErrorPage, sendErrorReport, type ErrorRenderer } from './error-page.js';
import { advance, Exchange, exchangeOf, failed, type ContextState } from './exchange.js';
import { getLogger } from './logging.js';
import { decodeRequestPath, invalidPathMessage, splitRequestTarget } from './request-path.js';
import { createMimeLookup, type MimeLookup, type MimeMappings } from './mime.js';
import { MemorySessionStore, type SessionStore } from './session.js';
import { SessionManager } from './session-manager.js';
import type { ContextSettings, FilterDeclaration, RuntimeFilter, SessionCookieSettings } from './types.js';

/** Everything about a context; only what differs from Tomcat's defaults needs to be given. */
export interface ContextRuntimeOptions {
  /** `''` (ROOT, the default) or `/name`. */
  contextPath?: string;
  /** web.xml session-timeout in minutes (default 30; zero or negative: never). */
  sessionTimeoutMinutes?: number;
  /** Built filters, or declarations the runtime builds with a logger named by their class. */
  filters?: readonly (RuntimeFilter | FilterDeclaration<any>)[];
  /**
   * Indexes into `filters` to run for this request, in order (the compiler
   * generates it from the filter mappings). Default: every filter.
   */
  selectChain?: (ex: Exchange) => readonly number[];
  requestCharacterEncoding?: string | null;
  responseCharacterEncoding?: string | null;
  /** Default 1000, the value of the connectors in Tomcat's stock server.xml (the Connector's own default is 10000). */
  maxParameterCount?: number;
  /** Default 2 MiB (2097152), Tomcat's Connector default. */
  maxPostSize?: number;
  /** Default ['POST']. */
  parseBodyMethods?: readonly string[];
  /** Default 'UTF-8'. */
  uriEncoding?: string;
  useBodyEncodingForURI?: boolean;
  /** Default false: remote host names are the addresses. */
  enableLookups?: boolean;
  sessionCookie?: Partial<SessionCookieSettings>;
  /** Default: a MemorySessionStore bounded by `maxSessions`. */
  sessionStore?: SessionStore;
  /** Bound of the default store (default 10,000). */
  maxSessions?: number;
  /** Clock in ms since the epoch (default Date.now): session times and expiry. */
  clock?: () => number;
  /** Body of sendError responses (default: an HTML status report). */
  errorPage?: ErrorRenderer;
  /** Redirect `/ctx` to `/ctx/` as Tomcat's mapper does (default true). */
  contextRootRedirect?: boolean;
  /**
   * ServletContext.getMimeType for the filters (and a static handler given
   * `settings.mimeType`): a lookup, or the application's `<mime-mapping>`s,
   * which go over Tomcat's stock conf/web.xml table unless `mimeDefaults` is false.
   */
  mimeTypes?: MimeLookup | MimeMappings;
  /** Whether `mimeTypes` mappings go over Tomcat's stock table (default true). */
  mimeDefaults?: boolean;
  /**
   * web.xml `<error-page>`s after the merge (src/chain/merge.ts mergeErrorPages):
   * a sendError whose status has a page (or, failing that, the default page:
   * errorCode 0 without exceptionType) is forwarded to its location with the
   * ERROR dispatcher. Exception-type pages are accepted and not dispatched.
   */
  errorPages?: readonly ErrorPageEntry[];
  /** The servlet the mapper chose for a request (the jakarta.servlet.error.servlet_name attribute), if known. */
  servletNameOf?: (ex: Exchange) => string | null;
}

/** One `<error-page>`: errorCode 0 and no exceptionType is the default page. */
export interface ErrorPageEntry {
  readonly errorCode: number;
  readonly exceptionType?: string | null;
  /** Context-relative, starting with "/"; may carry a query string. */
  readonly location: string;
}

/**
 * Request attributes of an error dispatch (jakarta.servlet.RequestDispatcher.ERROR_*), the ones Tomcat 10.1.60
 * sets for a status error (observed; error.method and error.query_string are Servlet 6.1, Tomcat 11).
 */
export const ERROR_ATTRIBUTES = {
  statusCode: 'jakarta.servlet.error.status_code',
  message: 'jakarta.servlet.error.message',
  requestUri: 'jakarta.servlet.error.request_uri',
  servletName: 'jakarta.servlet.error.servlet_name',
} as const;

/** Connect-style middleware for one context, with its state and a way to stop it. */
export interface ContextMiddleware {
  (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  readonly contextPath: string;
  readonly settings: ContextSettings;
  readonly sessions: SessionManager;
  readonly filters: readonly RuntimeFilter[];
  /**
   * Like calling the middleware, plus `onStopped` when the chain ended
   * without reaching `next` (the runtime has then completed the response).
   */
  run(req: IncomingMessage, res: ServerResponse, next: () => void, onStopped?: () => void): void;
  /**
   * Answers `sendError(status, message)` for a request the container refuses
   * before any filter runs (Tomcat: TRACE refused by the connector, WEB-INF and
   * META-INF by StandardContextValve), so the context's error pages still apply;
   * `headers` are set first (Allow). `next` is the downstream handler an error
   * page is served by.
   */
  refuse(req: IncomingMessage, res: ServerResponse, next: () => void, status: number, message?: string | null, headers?: Readonly<Record<string, string>>): void;
  /** Whether a decoded request path (no query) falls inside this context. */
  owns(decodedPath: string): boolean;
  /** Destroys the filters and stops session sweeping. */
  destroy(): void;
}

const RUNTIME_LOGGER = 'tollgate.runtime.ContextRuntime';

/** Builds the middleware of one context. Throws TypeError for invalid options and rethrows a failing filter factory. */
export function createContextRuntime(options: ContextRuntimeOptions = {}): ContextMiddleware {
  const settings = resolveSettings(options);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('clock must be a function returning milliseconds');
  const store = options.sessionStore ?? new MemorySessionStore({ maxSessions: options.maxSessions ?? 10_000, clock });
  const sessions = new SessionManager({ store, clock, sessionTimeoutMinutes: settings.sessionTimeoutMinutes, contextPath: settings.contextPath, cookie: settings.sessionCookie });
  const filters = (options.filters ?? []).map((f, i) => instantiate(f, i, settings));
  const all: readonly number[] = filters.map((_, i) => i);
  const selectChain = options.selectChain ?? (() => all);
  if (typeof selectChain !== 'function') throw new TypeError('selectChain must be a function returning filter indexes');
  const errorLocation = errorPageLookup(options.errorPages ?? []);
  const servletNameOf = options.servletNameOf ?? null;
  const state: ContextState = {
    settings,
    sessions,
    logger: getLogger(RUNTIME_LOGGER),
    renderError: options.errorPage ?? defaultErrorPage,
    filters,
    errorLocation,
    dispatchError: (from, status, message, location) => dispatchError(from, status, message, location),
  };
  const uriDecoder = charsetDecoder(settings.uriEncoding)!;
  const contextPath = settings.contextPath;
  const redirectRoot = options.contextRootRedirect ?? true;

  /** Whether a decoded path belongs to this context. */
  const owns = (decodedPath: string): boolean =>
    contextPath === '' || (decodedPath.startsWith(contextPath) && (decodedPath.length === contextPath.length || decodedPath.charCodeAt(contextPath.length) === 47));

  function run(req: IncomingMessage, res: ServerResponse, next: () => void, onStopped?: () => void): void {
    // A request belongs to one context, as in Tomcat's mapper: one another context already ran is passed on.
    const claimed = exchangeOf(req);
    if (claimed !== undefined && claimed.context !== state) {
      next();
      return;
    }
    // Express rewrites req.url under a mount path; originalUrl keeps the whole target.
    const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const { path, query } = splitRequestTarget(target);
    const decoded = decodeRequestPath(path, uriDecoder);
    if (decoded === null) {
      // CoyoteAdapter refuses the URI before any filter runs; the host's report says why.
      sendErrorReport(req, res, 400, invalidPathMessage(path), state.renderError);
      onStopped?.();
      return;
    }
    if (!owns(decoded)) {
      next();
      return;
    }
    const inContext = decoded.slice(contextPath.length);
    if (inContext === '' && redirectRoot) {
      answer(res, 302, `${path}/${query === null ? '' : `?${query}`}`);
      onStopped?.();
      return;
    }
    const ex = new Exchange(state, req, res, path, query, inContext, next);
    let chain: readonly number[];
    try {
      chain = selectChain(ex);
    } catch (err) {
      failed(ex, `Selecting the filter chain failed for [${path}]`, err, true);
      onStopped?.();
      return;
    }
    ex.chain = chain;
    const result = advance(ex);
    if (result === undefined) chainReturned(ex, onStopped);
    else result.then(() => chainReturned(ex, onStopped));
  }

  /**
   * StandardHostValve.status + custom: the error attributes are set and the
   * request is forwarded to `location` (ApplicationDispatcher with
   * DispatcherType.ERROR): the filters mapped for ERROR on that path run, then
   * the downstream handler serves the page with the status kept. The original
   * request's attributes are carried over; the REQUEST chain's response
   * wrappers (commit hooks) play no part, as Tomcat forwards the unwrapped response.
   */
  function dispatchError(from: Exchange, status: number, message: string | null, location: string): void {
    const q = location.indexOf('?');
    const locPath = q < 0 ? location : location.slice(0, q);
    const locQuery = q < 0 ? null : location.slice(q + 1);
    const original = from.request;
    let servletName: string | null = null;
    try {
      servletName = servletNameOf?.(from) ?? null;
    } catch {
      servletName = null;
    }
    const ex = new Exchange(state, from.req, from.res, contextPath + locPath, locQuery, safeDecode(locPath), from.downstream);
    ex.request.dispatcherType = 'ERROR';
    for (const name of original.getAttributeNames()) ex.request.setAttribute(name, original.getAttribute(name));
    ex.request.setAttribute(ERROR_ATTRIBUTES.statusCode, status);
    ex.request.setAttribute(ERROR_ATTRIBUTES.message, message ?? '');
    ex.request.setAttribute(ERROR_ATTRIBUTES.requestUri, original.requestURI);
    ex.request.setAttribute(ERROR_ATTRIBUTES.servletName, servletName);
    let chain: readonly number[];
    try {
      chain = selectChain(ex);
    } catch (err) {
      failed(ex, `Selecting the filter chain failed for the error page [${location}]`, err, true);
      return;
    }
    ex.chain = chain;
    const result = advance(ex);
    if (result === undefined) chainReturned(ex, undefined);
    else result.then(() => chainReturned(ex, undefined));
  }

  function refuse(req: IncomingMessage, res: ServerResponse, next: () => void, status: number, message?: string | null, headers?: Readonly<Record<string, string>>): void {
    const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const { path, query } = splitRequestTarget(target);
    const decoded = decodeRequestPath(path, uriDecoder);
    if (decoded === null) {
      sendErrorReport(req, res, 400, invalidPathMessage(path), state.renderError);
      return;
    }
    if (!owns(decoded)) {
      answer(res, 404, undefined);
      return;
    }
    const ex = new Exchange(state, req, res, path, query, decoded.slice(contextPath.length), next);
    for (const k of Object.keys(headers ?? {})) ex.response.setHeader(k, headers![k]!);
    ex.response.sendError(status, message ?? undefined);
  }

  const middleware = ((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => run(req, res, next as () => void)) as ContextMiddleware;
  Object.defineProperties(middleware, {
    contextPath: { value: contextPath, enumerable: true },
    settings: { value: settings, enumerable: true },
    sessions: { value: sessions, enumerable: true },
    filters: { value: filters, enumerable: true },
    run: { value: run },
    refuse: { value: refuse },
    owns: { value: owns },
    destroy: {
      value: () => {
        for (const f of filters) destroyFilter(f);
        sessions.close();
      },
    },
  });
  return middleware;
}

/** The chain is over: if it stopped short of downstream, complete the response as a container would. */
function chainReturned(ex: Exchange, onStopped: (() => void) | undefined): void {
  if (ex.reachedDownstream) return;
  const res = ex.response.raw;
  // After sendError handed the response to an error-page dispatch, that dispatch completes it.
  if (!ex.handedOff && !res.writableEnded && !res.destroyed) res.end();
  if (onStopped !== undefined) onStopped();
}

/** The location for a status: its own page, else the default page (StandardContext.findErrorPage(code), then (0)). */
function errorPageLookup(pages: readonly ErrorPageEntry[]): (status: number) => string | null {
  if (!Array.isArray(pages)) throw new TypeError('errorPages must be an array');
  const byStatus = new Map<number, string>();
  for (const [i, p] of pages.entries()) {
    if (p === null || typeof p !== 'object' || !Number.isInteger(p.errorCode) || typeof p.location !== 'string' || !p.location.startsWith('/')) {
      throw new TypeError(`errorPages[${i}] must have an integer errorCode and a location starting with "/"`);
    }
    if (p.exceptionType != null && p.exceptionType !== '') continue;
    byStatus.set(p.errorCode, p.location);
  }
  if (byStatus.size === 0) return () => null;
  const fallback = byStatus.get(0) ?? null;
  return (status) => byStatus.get(status) ?? fallback;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function answer(res: ServerResponse, status: number, location: string | undefined): void {
  if (res.headersSent) return;
  res.statusCode = status;
  if (location !== undefined) res.setHeader('location', location);
  res.setHeader('content-length', 0);
  res.end();
}

function instantiate(f: RuntimeFilter | FilterDeclaration<unknown>, index: number, settings: ContextSettings): RuntimeFilter {
  if (f === null || typeof f !== 'object') throw new TypeError(`filters[${index}] must be a filter or a filter declaration`);
  if ('factory' in f) {
    if (typeof f.factory !== 'function') throw new TypeError(`filters[${index}] (${f.filterName}): factory must be a function`);
    const built = f.factory(f.config, { filterName: f.filterName, contextPath: settings.contextPath, logger: getLogger(f.className), settings });
    if (built === null || typeof built !== 'object' || typeof built.doFilter !== 'function') throw new TypeError(`filters[${index}] (${f.filterName}): the factory did not return a filter`);
    return built;
  }
  if (typeof f.doFilter !== 'function') throw new TypeError(`filters[${index}] has no doFilter method`);
  return f;
}

function destroyFilter(f: RuntimeFilter): void {
  try {
    f.destroy?.();
  } catch (err) {
    getLogger(RUNTIME_LOGGER).warning(`Filter [${f.name}] failed to destroy`, err);
  }
}

function resolveSettings(o: ContextRuntimeOptions): ContextSettings {
  const contextPath = o.contextPath ?? '';
  if (typeof contextPath !== 'string' || (contextPath !== '' && (!contextPath.startsWith('/') || contextPath.endsWith('/')))) {
    throw new TypeError(`contextPath must be '' (ROOT) or start with '/' and not end with '/', got ${JSON.stringify(contextPath)}`);
  }
  const uriEncoding = o.uriEncoding ?? 'UTF-8';
  if (charsetDecoder(uriEncoding) === null) throw new TypeError(`uriEncoding ${JSON.stringify(uriEncoding)} is not a supported charset`);
  for (const [name, v] of [['requestCharacterEncoding', o.requestCharacterEncoding], ['responseCharacterEncoding', o.responseCharacterEncoding]] as const) {
    if (v != null && charsetDecoder(v) === null) throw new TypeError(`${name} ${JSON.stringify(v)} is not a supported charset`);
  }
  const int = (name: string, v: number | undefined, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${name} must be a number, got ${String(v)}`);
    return v;
  };
  const c = o.sessionCookie ?? {};
  const sameSite = c.sameSite ?? null;
  if (sameSite !== null && sameSite !== 'Strict' && sameSite !== 'Lax' && sameSite !== 'None') throw new TypeError(`sessionCookie.sameSite must be Strict, Lax, None or null, got ${String(sameSite)}`);
  const cookieName = c.name ?? 'JSESSIONID';
  const mimeType = typeof o.mimeTypes === 'function' ? o.mimeTypes : createMimeLookup(o.mimeTypes, { defaults: o.mimeDefaults ?? true });
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(cookieName)) throw new TypeError(`sessionCookie.name ${JSON.stringify(cookieName)} is not a valid cookie name`);
  return {
    contextPath,
    sessionTimeoutMinutes: int('sessionTimeoutMinutes', o.sessionTimeoutMinutes, 30),
    requestCharacterEncoding: o.requestCharacterEncoding ?? null,
    responseCharacterEncoding: o.responseCharacterEncoding ?? null,
    maxParameterCount: int('maxParameterCount', o.maxParameterCount, 1000),
    maxPostSize: int('maxPostSize', o.maxPostSize, 2 * 1024 * 1024),
    parseBodyMethods: [...(o.parseBodyMethods ?? ['POST'])],
    uriEncoding,
    useBodyEncodingForURI: o.useBodyEncodingForURI ?? false,
    enableLookups: o.enableLookups ?? false,
    sessionCookie: {
      name: cookieName,
      path: c.path ?? null,
      domain: c.domain ?? null,
      httpOnly: c.httpOnly ?? true,
      secure: c.secure ?? false,
      sameSite,
      partitioned: c.partitioned ?? false,
      pathUsesTrailingSlash: c.pathUsesTrailingSlash ?? false,
    },
    mimeType,
  };
}
