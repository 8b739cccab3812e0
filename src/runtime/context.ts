/**
 * One web application (context) as Connect-style middleware: decode the
 * path as Tomcat does, build the exchange, run the filters the compiled
 * `selectChain` picks, then hand over to the downstream handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { charsetDecoder } from '../protocol/charset.js';
import { defaultErrorPage, sendErrorReport, type ErrorRenderer } from './error-page.js';
import { createChainSelector, type SelectorTable } from '../protocol/chain-selector.js';
import {
  advance,
  Exchange,
  exchangeOf,
  failed,
  type ContextState,
  type Servlet,
  type ThrownError,
} from './exchange.js';
import { EXCHANGE } from './response.js';
import { getLogger } from './logging.js';
import { decodeRequestPath, invalidPathMessage, splitRequestTarget } from './request-path.js';
import { createMimeLookup, type MimeLookup, type MimeMappings } from './mime.js';
import { memoryContextStores } from './memory-state.js';
import { MemorySessionStore } from './session.js';
import type { ContextStores, SessionStore } from './state.js';
import { SessionManager } from './session-manager.js';
import type { ContextSettings, FilterDeclaration, RuntimeFilter, SessionCookieSettings } from './types.js';

/** Everything about a context; only what differs from Tomcat's defaults needs to be given. */
export interface ContextRuntimeOptions {
  /** `''` (ROOT, the default) or `/name`. */
  contextPath?: string;
  /** web.xml session-timeout in minutes (default 30; zero or negative: never). */
  sessionTimeoutMinutes?: number;
  /** Built filters, or declarations the runtime builds with a logger named by their class. */
  filters?: readonly (RuntimeFilter | FilterDeclaration)[];
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
  /**
   * Where the context keeps sessions and rate-limit windows (a StateBackend's
   * `context(host, path)`, for example Redis's). Default: memory.
   */
  stores?: ContextStores;
  /** The session store (over `stores.sessions`). Default: a MemorySessionStore limited by `maxActiveSessions`. */
  sessionStore?: SessionStore;
  /**
   * `<Manager maxActiveSessions>` of the default store: a new session beyond this many live ones is refused
   * (the request that needed it fails with 500, as on Tomcat). Default -1: no limit, sessions bounded by
   * their timeout. A store given in `stores` or `sessionStore` applies its own limit.
   */
  maxActiveSessions?: number;
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
  /**
   * The context's filter and servlet mappings (a plan's or a compiled
   * module's `table`): the filters each request runs are chosen by path and
   * dispatcher type (REQUEST, FORWARD, INCLUDE, ERROR) as Tomcat chooses
   * them. Used when `selectChain` is not given.
   */
  table?: SelectorTable;
  /**
   * Whether the URLs this middleware sees include the context path (default
   * true, as a Tomcat connector sees them: `/shop/items` for context `/shop`).
   * false: the middleware is mounted at the context's root (node:http, or
   * Express's `app.use('/shop', mw)`, whose `req.url` is `/items`), and every
   * request belongs to the context; `contextPath` still names it to filters,
   * cookies and `requestURI`.
   */
  contextPathInUrl?: boolean;
  /**
   * The handler forward and include dispatches end in when the caller names
   * none (`forward(req, res, '/x')`): your own servlet.
   */
  servlet?: Servlet;
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

/** Request attributes of an exception dispatched to an `<exception-type>` page (RequestDispatcher.ERROR_EXCEPTION*). */
export const EXCEPTION_ATTRIBUTES = {
  exception: 'jakarta.servlet.error.exception',
  exceptionType: 'jakarta.servlet.error.exception_type',
} as const;

/** RequestDispatcher.FORWARD_*: the first request's path, set on a forward. */
export const FORWARD_ATTRIBUTES = {
  requestUri: 'jakarta.servlet.forward.request_uri',
  contextPath: 'jakarta.servlet.forward.context_path',
  servletPath: 'jakarta.servlet.forward.servlet_path',
  pathInfo: 'jakarta.servlet.forward.path_info',
  queryString: 'jakarta.servlet.forward.query_string',
} as const;

/** RequestDispatcher.INCLUDE_*: the included target's path. */
export const INCLUDE_ATTRIBUTES = {
  requestUri: 'jakarta.servlet.include.request_uri',
  contextPath: 'jakarta.servlet.include.context_path',
  servletPath: 'jakarta.servlet.include.servlet_path',
  pathInfo: 'jakarta.servlet.include.path_info',
  queryString: 'jakarta.servlet.include.query_string',
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
  refuse(
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
    status: number,
    message?: string | null,
    headers?: Readonly<Record<string, string>>,
  ): void;
  /** Whether a decoded request path (no query) falls inside this context. */
  owns(decodedPath: string): boolean;
  /** Destroys the filters and stops session sweeping. */
  destroy(): void;
}

const RUNTIME_LOGGER = 'tollgate.runtime.ContextRuntime';
const CLOSE_CONNECTION: Readonly<Record<string, string>> = { Connection: 'close' };

/** Builds the middleware of one context. Throws TypeError for invalid options and rethrows a failing filter factory. */
export function createContextRuntime(options: ContextRuntimeOptions = {}): ContextMiddleware {
  const settings = resolveSettings(options);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('clock must be a function returning milliseconds');
  const store =
    options.sessionStore ??
    options.stores?.sessions ??
    new MemorySessionStore({ maxActiveSessions: options.maxActiveSessions ?? -1, clock });
  const stores: ContextStores =
    options.stores === undefined
      ? memoryContextStores(store)
      : { sessions: store, rateLimiter: (name) => options.stores!.rateLimiter(name) };
  const sessions = new SessionManager({
    store,
    clock,
    sessionTimeoutMinutes: settings.sessionTimeoutMinutes,
    contextPath: settings.contextPath,
    cookie: settings.sessionCookie,
  });
  const filters = (options.filters ?? []).map((f, i) => instantiate(f, i, settings, stores));
  const all: readonly number[] = filters.map((_, i) => i);
  const table = options.table ?? null;
  const selector = table === null ? null : createChainSelector(table);
  const selectChain =
    options.selectChain ??
    (selector === null ? () => all : (ex: Exchange) => selector(ex.mappingPath, ex.request.dispatcherType).chain);
  if (typeof selectChain !== 'function') throw new TypeError('selectChain must be a function returning filter indexes');
  const errorLocation = errorPageLookup(options.errorPages ?? []);
  const exceptionLocation = exceptionPageLookup(options.errorPages ?? []);
  const servletNameOf =
    options.servletNameOf ??
    (selector === null ? null : (ex: Exchange) => selector(ex.mappingPath).servlet?.servletName ?? null);
  const defaultServlet = options.servlet ?? null;
  if (defaultServlet !== null && typeof defaultServlet !== 'function')
    throw new TypeError('servlet must be a function (req, res)');
  const inUrl = options.contextPathInUrl ?? true;
  if (typeof inUrl !== 'boolean') throw new TypeError('contextPathInUrl must be a boolean');
  const state: ContextState = {
    settings,
    sessions,
    logger: getLogger(RUNTIME_LOGGER),
    renderError: options.errorPage ?? defaultErrorPage,
    filters,
    errorLocation,
    exceptionLocation,
    dispatchError: (from, status, message, location, thrown) => dispatchError(from, status, message, location, thrown),
    dispatch: (from, type, location, servlet) => dispatch(from, type, location, servlet),
  };
  const uriDecoder = charsetDecoder(settings.uriEncoding)!;
  const contextPath = settings.contextPath;
  const redirectRoot = options.contextRootRedirect ?? true;

  /** Whether a decoded path belongs to this context. */
  const owns = (decodedPath: string): boolean =>
    contextPath === '' ||
    (decodedPath.startsWith(contextPath) &&
      (decodedPath.length === contextPath.length || decodedPath.charCodeAt(contextPath.length) === 47));

  function run(req: IncomingMessage, res: ServerResponse, next: () => void, onStopped?: () => void): void {
    // A request belongs to one context, as in Tomcat's mapper: one another context already ran is passed on.
    // A request already inside a dispatch of this context (a framework's router re-entered as the servlet of a
    // forward) has had its chain.
    const claimed = exchangeOf(req);
    if (claimed !== undefined && (claimed.context !== state || claimed.request.dispatcherType !== 'REQUEST')) {
      next();
      return;
    }
    // Express rewrites req.url under a mount path; originalUrl keeps the whole target. Mounted at the context's
    // root, the URL as the framework routes it is the path within the context.
    const target = inUrl ? ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/') : (req.url ?? '/');
    const split = splitRequestTarget(target);
    const query = split.query;
    const path = inUrl ? split.path : contextPath + split.path;
    const decoded = decodeRequestPath(path, uriDecoder);
    if (decoded === null) {
      // CoyoteAdapter refuses the URI before any filter runs; the host's report says why.
      // ... and closes the connection after it (observed on Tomcat 10.1.60).
      sendErrorReport(req, res, 400, invalidPathMessage(path), state.renderError, CLOSE_CONNECTION);
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
    // A networked store is asked for the session now, so its answer travels with the first filter's state
    // (one round trip); filters that need the session await it, the servlet is called after it.
    // The loading promise handles the store's failure itself (sessionStoreFailed), so it never rejects.
    if (sessions.writesBack) void ex.request.sessionReady();
    const result = advance(ex);
    if (result === undefined) chainReturned(ex, onStopped);
    // advance's promise never rejects: invoke catches each filter's failure.
    else void result.then(() => chainReturned(ex, onStopped));
  }

  /**
   * StandardHostValve.status + custom: the error attributes are set and the
   * request is forwarded to `location` (ApplicationDispatcher with
   * DispatcherType.ERROR): the filters mapped for ERROR on that path run, then
   * the downstream handler serves the page with the status kept. The original
   * request's attributes are carried over; the REQUEST chain's response
   * wrappers (commit hooks) play no part, as Tomcat forwards the unwrapped response.
   */
  function dispatchError(
    from: Exchange,
    status: number,
    message: string | null,
    location: string,
    thrown?: ThrownError,
  ): void {
    const q = location.indexOf('?');
    const locPath = q < 0 ? location : location.slice(0, q);
    const locQuery = q < 0 ? null : location.slice(q + 1);
    const original = from.request;
    let servletName: string | null;
    try {
      servletName = servletNameOf?.(from) ?? null;
    } catch {
      servletName = null;
    }
    // The page is served by the context's servlet when it has one (a framework routes it by req.url), else downstream.
    const req = from.req;
    const res = from.res;
    const downstream = defaultServlet === null ? from.downstream : () => defaultServlet(req, res);
    const ex = new Exchange(state, req, res, contextPath + locPath, locQuery, safeDecode(locPath), downstream);
    req.url = inUrl ? contextPath + location : location;
    ex.request.dispatcherType = 'ERROR';
    ex.request.adoptSession(original);
    for (const name of original.getAttributeNames()) ex.request.setAttribute(name, original.getAttribute(name));
    ex.request.setAttribute(ERROR_ATTRIBUTES.statusCode, status);
    ex.request.setAttribute(ERROR_ATTRIBUTES.message, message ?? '');
    ex.request.setAttribute(ERROR_ATTRIBUTES.requestUri, original.requestURI);
    ex.request.setAttribute(ERROR_ATTRIBUTES.servletName, servletName);
    if (thrown !== undefined) {
      const e = thrown.error;
      ex.request.setAttribute(EXCEPTION_ATTRIBUTES.exception, e);
      ex.request.setAttribute(
        EXCEPTION_ATTRIBUTES.exceptionType,
        e !== null && typeof e === 'object' ? (e as object).constructor : undefined,
      );
    }
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
    else void result.then(() => chainReturned(ex, undefined));
  }

  /**
   * ApplicationDispatcher.forward / include to a context-relative location:
   * the filters mapped for FORWARD (INCLUDE) on the target run, then the
   * servlet. The target's query parameters come first, then the original
   * request's. A forward takes the response over (it must not be committed)
   * and completes it; the forward attributes keep the first request's path.
   * An include leaves the request's own path as it was (the include
   * attributes carry the target's) and the response open. Either way the
   * caller's exchange is current again when the promise settles; it rejects
   * with what the servlet threw.
   */
  async function dispatch(
    from: Exchange,
    type: 'FORWARD' | 'INCLUDE',
    location: string,
    servlet: Servlet | null,
  ): Promise<void> {
    const target = servlet ?? defaultServlet;
    if (target === null)
      throw new TypeError(
        `${type.toLowerCase()} needs a servlet: pass one, or give the context runtime a \`servlet\` option`,
      );
    if (typeof location !== 'string' || !location.startsWith('/'))
      throw new TypeError(
        `the ${type.toLowerCase()} location must be context-relative and start with "/", got ${JSON.stringify(location)}`,
      );
    const req = from.req;
    const res = from.res;
    if (type === 'FORWARD' && res.headersSent) throw new Error('Cannot forward after the response has been committed');
    const { path: locPath, query: locQuery } = splitRequestTarget(location);
    const decoded = decodeRequestPath(locPath, uriDecoder);
    if (decoded === null)
      throw new TypeError(`the ${type.toLowerCase()} location ${JSON.stringify(location)} is not a valid path`);
    const original = from.request;
    await original.parseParameters();
    const forward = type === 'FORWARD';
    let servletResult: unknown;
    const run = (): unknown => (servletResult = target(req, res));
    const ex = forward
      ? new Exchange(state, req, res, contextPath + locPath, locQuery, decoded, run)
      : new Exchange(state, req, res, original.requestURI, original.queryString, original.pathWithinContext, run);
    ex.request.dispatcherType = type;
    ex.request.adoptSession(original);
    ex.mappingPath = decoded;
    for (const name of original.getAttributeNames()) ex.request.setAttribute(name, original.getAttribute(name));
    if (forward) {
      // Set once: a forward of a forward keeps the first request's values.
      if (original.getAttribute(FORWARD_ATTRIBUTES.requestUri) === undefined) {
        ex.request.setAttribute(FORWARD_ATTRIBUTES.requestUri, original.requestURI);
        ex.request.setAttribute(FORWARD_ATTRIBUTES.contextPath, original.contextPath);
        ex.request.setAttribute(FORWARD_ATTRIBUTES.servletPath, original.servletPath);
        ex.request.setAttribute(FORWARD_ATTRIBUTES.pathInfo, original.pathInfo ?? undefined);
        ex.request.setAttribute(FORWARD_ATTRIBUTES.queryString, original.queryString ?? undefined);
      }
    } else {
      ex.request.setAttribute(INCLUDE_ATTRIBUTES.requestUri, contextPath + locPath);
      ex.request.setAttribute(INCLUDE_ATTRIBUTES.contextPath, contextPath);
      ex.request.setAttribute(INCLUDE_ATTRIBUTES.servletPath, decoded);
      ex.request.setAttribute(INCLUDE_ATTRIBUTES.queryString, locQuery ?? undefined);
    }
    ex.request.adoptParameters(original);
    if (forward) res.removeHeader('content-length');
    // Frameworks route by req.url: during a forward it is the target's, as getRequestURI is.
    const url = req.url;
    if (forward) req.url = inUrl ? contextPath + location : location;
    try {
      ex.chain = selectChain(ex);
      await advance(ex);
      if (
        servletResult !== undefined &&
        servletResult !== null &&
        typeof (servletResult as Promise<unknown>).then === 'function'
      )
        await (servletResult as Promise<unknown>);
    } finally {
      req.url = url;
      (req as unknown as Record<symbol, unknown>)[EXCHANGE] = from;
      (res as unknown as Record<symbol, unknown>)[EXCHANGE] = from;
    }
    // After a forward the response is complete (ApplicationDispatcher closes it), unless the servlet still writes.
    if (forward && ex.reachedDownstream === false && !ex.handedOff && !res.writableEnded && !res.destroyed) res.end();
  }

  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
    status: number,
    message?: string | null,
    headers?: Readonly<Record<string, string>>,
  ): void {
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

  const middleware = ((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
    run(req, res, next as () => void)) as ContextMiddleware;
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

/**
 * StandardContext.findErrorPage(Throwable): the page of the thrown value's
 * class or its nearest superclass. A JavaScript error's classes are its
 * prototype chain's constructor names, matched against the simple name of
 * `<exception-type>` (`com.example.NotFoundException` for a class named
 * NotFoundException); any thrown value also matches java.lang.RuntimeException,
 * java.lang.Exception and java.lang.Throwable, in that order.
 */
function exceptionPageLookup(pages: readonly ErrorPageEntry[]): (err: unknown) => string | null {
  const bySimpleName = new Map<string, string>();
  const catchAll = new Map<string, string>();
  for (const p of pages) {
    const type = p.exceptionType?.trim();
    if (type === undefined || type === '') continue;
    if (CATCH_ALL.includes(type)) catchAll.set(type, p.location);
    else {
      const simple = type.slice(Math.max(type.lastIndexOf('.'), type.lastIndexOf('$')) + 1);
      if (!bySimpleName.has(simple)) bySimpleName.set(simple, p.location);
    }
  }
  if (bySimpleName.size === 0 && catchAll.size === 0) return () => null;
  return (err) => {
    if (err !== null && typeof err === 'object') {
      for (
        let proto = Object.getPrototypeOf(err) as { constructor?: { name?: string } } | null;
        proto !== null && proto !== Error.prototype && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto) as typeof proto
      ) {
        const name = proto.constructor?.name;
        const hit = name === undefined ? undefined : bySimpleName.get(name);
        if (hit !== undefined) return hit;
      }
    }
    for (const t of CATCH_ALL) {
      const hit = catchAll.get(t);
      if (hit !== undefined) return hit;
    }
    return null;
  };
}

const CATCH_ALL = ['java.lang.RuntimeException', 'java.lang.Exception', 'java.lang.Throwable'];

/** The location for a status: its own page, else the default page (StandardContext.findErrorPage(code), then (0)). */
function errorPageLookup(pages: readonly ErrorPageEntry[]): (status: number) => string | null {
  if (!Array.isArray(pages)) throw new TypeError('errorPages must be an array');
  const byStatus = new Map<number, string>();
  for (const [i, p] of pages.entries()) {
    if (
      p === null ||
      typeof p !== 'object' ||
      !Number.isInteger(p.errorCode) ||
      typeof p.location !== 'string' ||
      !p.location.startsWith('/')
    ) {
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

function instantiate(
  f: RuntimeFilter | FilterDeclaration<unknown>,
  index: number,
  settings: ContextSettings,
  stores: ContextStores,
): RuntimeFilter {
  if (f === null || typeof f !== 'object')
    throw new TypeError(`filters[${index}] must be a filter or a filter declaration`);
  if ('factory' in f) {
    if (typeof f.factory !== 'function')
      throw new TypeError(`filters[${index}] (${f.filterName}): factory must be a function`);
    const built = f.factory(f.config, {
      filterName: f.filterName,
      contextPath: settings.contextPath,
      logger: getLogger(f.className),
      settings,
      stores,
    });
    if (built === null || typeof built !== 'object' || typeof built.doFilter !== 'function')
      throw new TypeError(`filters[${index}] (${f.filterName}): the factory did not return a filter`);
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
  if (
    typeof contextPath !== 'string' ||
    (contextPath !== '' && (!contextPath.startsWith('/') || contextPath.endsWith('/')))
  ) {
    throw new TypeError(
      `contextPath must be '' (ROOT) or start with '/' and not end with '/', got ${JSON.stringify(contextPath)}`,
    );
  }
  const uriEncoding = o.uriEncoding ?? 'UTF-8';
  if (charsetDecoder(uriEncoding) === null)
    throw new TypeError(`uriEncoding ${JSON.stringify(uriEncoding)} is not a supported charset`);
  for (const [name, v] of [
    ['requestCharacterEncoding', o.requestCharacterEncoding],
    ['responseCharacterEncoding', o.responseCharacterEncoding],
  ] as const) {
    if (v != null && charsetDecoder(v) === null)
      throw new TypeError(`${name} ${JSON.stringify(v)} is not a supported charset`);
  }
  const int = (name: string, v: number | undefined, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${name} must be a number, got ${String(v)}`);
    return v;
  };
  const c = o.sessionCookie ?? {};
  const sameSite = c.sameSite ?? null;
  if (sameSite !== null && sameSite !== 'Strict' && sameSite !== 'Lax' && sameSite !== 'None')
    throw new TypeError(`sessionCookie.sameSite must be Strict, Lax, None or null, got ${String(sameSite)}`);
  const cookieName = c.name ?? 'JSESSIONID';
  const mimeType =
    typeof o.mimeTypes === 'function'
      ? o.mimeTypes
      : createMimeLookup(o.mimeTypes, { defaults: o.mimeDefaults ?? true });
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(cookieName))
    throw new TypeError(`sessionCookie.name ${JSON.stringify(cookieName)} is not a valid cookie name`);
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
