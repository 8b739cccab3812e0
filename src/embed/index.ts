/**
 * tollgate/embed: put a Tomcat configuration's chains in front of your own
 * Node server. Plan a CATALINA_BASE without starting anything (which hosts
 * and contexts Tomcat would start, and what each runs), build a context's
 * chain with your handler as its servlet, serve its static files and error
 * pages, and give your server the connector limits of server.xml.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { CatalinaBase } from '../model/index.js';
import { loadBase } from '../parser/index.js';
import { planBase, type ContextPlan, type Plan, type PlannedContext } from '../plan/index.js';
import { createContextRuntime, type ContextMiddleware, type ContextRuntimeOptions } from '../runtime/context.js';
import {
  createErrorReportRenderer,
  defaultErrorPage,
  sendErrorReport,
  SERVER_INFO,
  type ErrorRenderer,
} from '../runtime/error-page.js';
import { isFilterId, runtimeOptionsOf } from '../runtime/plan-options.js';
import {
  connectorLimits,
  DEFAULT_CONNECTOR_LIMITS,
  headSizeExceeds,
  httpConnector,
  installConnectorHandlers,
  serverOptions,
  tooManyHeaders,
  type ConnectorLimits,
} from '../server/connector.js';
import { errorReportSettings } from '../server/error-report.js';
import {
  createStaticHandler,
  staticResourceOptions,
  type StaticHandler,
  type StaticOptions,
} from '../server/static.js';

export type { ConnectorLimits, ContextMiddleware, ContextPlan, Plan, PlannedContext, StaticHandler, StaticOptions };
export { createStaticHandler, DEFAULT_CONNECTOR_LIMITS };

/** A planned base: Tomcat's verdict on every context, and what the started ones run. */
export interface EmbeddedBase {
  readonly plan: Plan;
  /** The HTTP connector's limits from server.xml (Tomcat's defaults for what it leaves out). */
  readonly connector: ConnectorLimits;
  /** The context that runs at `contextPath` ('' for ROOT) of `host` (default: the default host), or null. */
  context(contextPath: string, host?: string): ContextPlan | null;
  /** Every context of every host, started or not, with Tomcat's reasons. */
  readonly contexts: readonly PlannedContext[];
  /** The error report a host's ErrorReportValve renders (showReport / showServerInfo from server.xml). */
  errorReport(host?: string, serverInfo?: string): ErrorRenderer;
}

export interface PlanOptions {
  /** CATALINA_HOME when it differs from the base. */
  readonly home?: string;
  readonly target?: '9.0' | '10.1' | '11.0';
}

/** Reads and plans a CATALINA_BASE; starts nothing and listens on nothing. */
export function planCatalinaBase(base: string | CatalinaBase, options: PlanOptions = {}): EmbeddedBase {
  const loaded = typeof base === 'string' ? loadBase({ base, ...(options.home ? { home: options.home } : {}) }) : base;
  const plan = planBase(loaded, { target: options.target ?? '10.1' });
  const connector = connectorLimits(httpConnector(loaded.serverXml));
  const hostOf = (host: string | undefined) => (host ?? plan.defaultHost).toLowerCase();
  return {
    plan,
    connector,
    contexts: plan.contexts,
    context(contextPath, host) {
      const h = hostOf(host);
      return plan.plans.find((p) => p.host.toLowerCase() === h && p.contextPath === contextPath) ?? null;
    },
    errorReport(host, serverInfo = SERVER_INFO) {
      const h = hostOf(host);
      const def = loaded.hosts.find((x) => x.name.toLowerCase() === h)?.def ?? null;
      return createErrorReportRenderer({ ...errorReportSettings(def), serverInfo });
    },
  };
}

/** What createContextChain takes besides the plan: the runtime's options, all optional. */
export interface ChainOptions extends Omit<
  ContextRuntimeOptions,
  | 'contextPath'
  | 'filters'
  | 'table'
  | 'selectChain'
  | 'mimeTypes'
  | 'mimeDefaults'
  | 'errorPages'
  | 'sessionTimeoutMinutes'
  | 'requestCharacterEncoding'
> {
  /** Connector limits applied to the context (maxParameterCount, maxPostSize); default Tomcat's connector defaults. */
  readonly connector?: ConnectorLimits;
}

/**
 * The chain of one planned context as Connect-style middleware: its filters
 * with their validated configurations, chosen per request by path and
 * dispatcher type, its `<error-page>`s, MIME map, session timeout and
 * request encoding. `servlet` is your handler for forward/include
 * dispatches; `contextPathInUrl: false` mounts it at the context's root.
 */
export function createContextChain(plan: ContextPlan, options: ChainOptions = {}): ContextMiddleware {
  if (plan === null || typeof plan !== 'object' || !Array.isArray(plan.filters))
    throw new TypeError('createContextChain needs a context plan (planCatalinaBase(...).context(path))');
  // A plan made by hand in JavaScript may name a filter the runtime does not have.
  const missing = plan.filters.find((f) => !isFilterId(f.specId));
  if (missing !== undefined)
    throw new TypeError(`filter "${missing.filterName}" (${missing.className}) has no Node implementation`);
  const { connector = DEFAULT_CONNECTOR_LIMITS, ...rest } = options;
  return createContextRuntime({
    maxParameterCount: connector.maxParameterCount,
    maxPostSize: connector.maxPostSize,
    ...rest,
    ...runtimeOptionsOf(plan),
  });
}

/** The default servlet of a planned context (its docBase, welcome files and MIME map), as `tollgate serve` runs it. */
export function createContextStaticHandler(
  plan: ContextPlan,
  chain: ContextMiddleware,
  options: Partial<StaticOptions> = {},
): StaticHandler {
  return createStaticHandler({
    docBase: plan.docBase,
    welcomeFiles: plan.welcomeFiles,
    contextPath: plan.contextPath,
    mimeTypes: chain.settings.mimeType,
    ...staticResourceOptions(plan.resources),
    ...options,
  });
}

/**
 * The connector limits on your own node:http server: maxHttpHeaderSize,
 * connectionTimeout (headers), keepAliveTimeout, maxKeepAliveRequests and
 * maxHeaderCount, answered as Tomcat answers them (400, 408). Call before
 * `listen`. Works for Express (`http.createServer(app)`) and Fastify
 * (`serverFactory`).
 */
export function applyConnectorLimits(server: Server, limits: ConnectorLimits): Server {
  const o = serverOptions(limits);
  if (o.headersTimeout !== undefined) server.headersTimeout = o.headersTimeout;
  if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
  if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
  installConnectorHandlers(server, limits);
  return server;
}

/**
 * A node:http server with the connector's limits. Only here are the header
 * size (set at creation, counted as Tomcat counts it: request line included)
 * and maxHeaderCount answered before `listener` runs, with Tomcat's 400.
 */
export function createConnectorServer(limits: ConnectorLimits, listener: RequestListener): Server {
  if (typeof listener !== 'function')
    throw new TypeError('createConnectorServer needs a request listener (your handler, an Express app, ...)');
  const guarded: RequestListener = (req, res) => {
    if (headSizeExceeds(req, limits.maxHttpRequestHeaderSize))
      return sendErrorReport(req, res, 400, 'Request header is too large', defaultErrorPage, CLOSE);
    const tooMany = tooManyHeaders(req, limits.maxHeaderCount);
    if (tooMany !== null) return sendErrorReport(req, res, 400, tooMany, defaultErrorPage, CLOSE);
    listener(req, res);
  };
  return applyConnectorLimits(createServer(serverOptions(limits), guarded), limits);
}

const CLOSE: Readonly<Record<string, string>> = { Connection: 'close' };

export {
  createErrorReportRenderer,
  defaultErrorPage,
  sendErrorReport,
  SERVER_INFO,
  type ErrorRenderer,
  type ErrorReport,
  type ErrorReportOptions,
} from '../runtime/error-page.js';
export { forward, include, sendError, sendException, type Servlet } from '../runtime/dispatch.js';
export { exchangeOf } from '../runtime/exchange.js';
export { toNodeListener, mountContexts, fastifyOnRequest, fastifyFormBodyParser } from '../runtime/adapters.js';
