/**
 * The container behind `tollgate serve`: virtual hosts from server.xml (and
 * the host manager), each context running the same plan `tollgate compile`
 * writes, with the static default servlet downstream of its chain.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import type { TomcatTarget } from '../filters/index.js';
import type { CatalinaBase, Diagnostic } from '../model/index.js';
import { realOrResolved, scopeOf } from '../parser/files.js';
import { loadAddedHost, loadBase } from '../parser/index.js';
import { planBase, type ContextPlan, type Plan, type PlannedContext } from '../plan/index.js';
import { createChainSelector } from '../protocol/chain-selector.js';
import { charsetDecoder } from '../protocol/charset.js';
import { decodeRequestPath, pathNeedsWork } from '../runtime/request-path.js';
import { getLogger } from '../runtime/logging.js';
import { createContextRuntime, type ContextMiddleware } from '../runtime/context.js';
import { defaultErrorPage, sendErrorReport, type ErrorRenderer } from '../runtime/error-page.js';
import type { ContextStores, StateBackend } from '../runtime/state.js';
import { runtimeOptionsOf } from '../runtime/plan-options.js';
import {
  absoluteFormAuthority,
  connectorLimits,
  headSizeExceeds,
  hostProblem,
  httpConnector,
  installConnectorHandlers,
  serverOptions,
  tooManyHeaders,
  type ConnectorLimits,
} from './connector.js';
import {
  accessLogsOf,
  AccessLogRouter,
  authenticatedUser,
  recordRequest,
  type AccessLogProblem,
} from './access-log.js';
import { createHostManagerHandler, type HostOperations, type Persister } from './host-manager.js';
import { answerHealth, healthCheckOf, type Metrics } from './ops.js';
import { hostErrorRenderer } from './error-report.js';
import { HostRegistry } from './hosts.js';
import { createServerXmlPersister, storeConfigEnabled } from './persist.js';
import { realmFromConfig } from './realm.js';
import { createStaticHandler, staticResourceOptions, type StaticHandler } from './static.js';
import {
  decide,
  newOutcome,
  plansByContext,
  serveLogger as logger,
  whyNotRunning,
  type ReloadOutcome,
} from './reload.js';

export interface ContainerOptions {
  base: string;
  home?: string;
  /** Default: the HTTP connector's port in server.xml, else 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  address?: string;
  target?: TomcatTarget;
  /** Let the host manager create hosts whose appBase lies outside the base. */
  allowAppBaseOutsideBase?: boolean;
  /** The base already loaded from `base` (the CLI lints it first), so it is not read twice. */
  loaded?: CatalinaBase;
  /** Findings that keep a context from running (PlanOptions.unsafe). */
  unsafe?: readonly Diagnostic[];
  /** The server named in the footer of error reports (Tomcat: `Apache Tomcat/10.1.60`); default SERVER_INFO. */
  serverInfo?: string;
  /** Where the host manager's add/remove/start/stop go (default: this container's registry). */
  hostOperations?: HostOperations;
  /** What `persist` calls (default: a server.xml persister when StoreConfig is enabled, else none). */
  persister?: Persister | null;
  /**
   * Where sessions, CSRF nonces, rate-limit windows and the lock-out table live (default: this process's
   * memory). The caller owns it and closes it after `stop()`.
   */
  state?: StateBackend;
  /** Counts requests for `/metrics` (see ops.ts). */
  metrics?: Metrics;
  /** Where the container's own log lines go (an access log it cannot write); default stderr. */
  log?: (line: string) => void;
  /** Runs after every context is deployed and before the port is opened (a cluster worker catches up on host changes here). */
  beforeListen?: (registry: HostRegistry) => Promise<void>;
  /**
   * A reload: the plans that ran before it. A context the new configuration would have refused runs its
   * previous plan instead (see reload.ts); `outcome` says which did.
   */
  previous?: readonly ContextPlan[];
  /**
   * A reload in the same process: the listening server of the container being replaced. The new
   * container does not listen; it answers that server's requests once `attach()` is called.
   */
  server?: Server;
}

interface RunningContext {
  path: string;
  /** null: Tomcat starts the context but tollgate cannot run it; its requests get 404. */
  middleware: ContextMiddleware | null;
  serve: StaticHandler | null;
  /** Whether a servlet is mapped to a (decoded) path within the context; Tomcat answers 404 without filters when none is. */
  hasServlet: (pathInContext: string) => boolean;
}

export interface Container {
  server: Server;
  address: string;
  port: number;
  base: CatalinaBase;
  /** What Tomcat would start, and why not the rest. */
  plan: Plan;
  /** Why contexts were refused, and the realm's findings (lint's are the caller's to add). */
  diagnostics: Diagnostic[];
  /** What started and what did not, for the start-up message. */
  summary: string[];
  /** The virtual hosts the container routes to. */
  registry: HostRegistry;
  /**
   * Stops accepting connections and lets the requests in flight finish: idle kept-alive connections are
   * closed, responses still to come say `Connection: close`. Resolves when the last connection has
   * closed, or after `timeoutMs` with the rest cut.
   */
  drain(timeoutMs: number): Promise<void>;
  /** Closes every connection at once, releases the contexts and writes what the access logs hold. */
  stop(): Promise<void>;
  /** The AccessLogValves of server.xml and the contexts (flushed by `stop()`). */
  accessLogs: AccessLogRouter;
  /** Whether `drain()` has begun (readiness answers 503 from then on). */
  readonly draining: boolean;
  /** The plans the contexts run (a context kept by a reload runs its previous one). */
  running: ContextPlan[];
  /** With `previous`: what the reload did with each context. */
  outcome: ReloadOutcome;
  /** A reload's container (`server` given) starts answering the server's requests. */
  attach(): void;
  /**
   * The container replaced by a reload stops answering: its requests in flight finish, its contexts are
   * released and its access logs written; the server stays open for the next container.
   */
  release(): void;
}

/** Tomcat does not start at all (a server.xml it cannot parse): nothing listens. */
export class ServerRefusedError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super('Tomcat would not start with this conf/server.xml, so tollgate serve does not either');
  }
}

function runContext(
  plan: ContextPlan,
  limits: ConnectorLimits,
  errorPage: ErrorRenderer,
  stores: ContextStores | undefined,
  within: readonly string[] | undefined,
): RunningContext {
  const middleware = createContextRuntime({
    ...(stores ? { stores } : {}),
    maxParameterCount: limits.maxParameterCount,
    maxPostSize: limits.maxPostSize,
    errorPage,
    ...runtimeOptionsOf(plan),
  });
  const serve = createStaticHandler({
    docBase: plan.docBase,
    welcomeFiles: plan.welcomeFiles,
    mimeTypes: middleware.settings.mimeType,
    contextPath: plan.contextPath,
    errorPage,
    ...staticResourceOptions(plan.resources),
    ...(within ? { within } : {}),
  });
  // Which servlet a path maps to, for the 404 Tomcat gives before any filter when none does.
  const select = createChainSelector(plan.table);
  return { path: plan.contextPath, middleware, serve, hasServlet: (p) => select(p).servlet !== null };
}

const UTF8 = charsetDecoder('UTF-8')!;
/** Where an AccessLogValve that cannot write says so. */
const accessLogLogger = getLogger('org.apache.catalina.valves.AccessLogValve');

/** How long a draining container leaves idle kept-alive connections to their clients' next request. */
const IDLE_GRACE_MS = 1_000;

function connectorPort(base: CatalinaBase): number | null {
  for (const s of base.serverXml?.services ?? []) {
    for (const c of s.connectors) {
      const protocol = c.attributes['protocol']?.value ?? 'HTTP/1.1';
      const port = Number(c.attributes['port']?.value);
      if (!/AJP/i.test(protocol) && !c.attributes['SSLEnabled'] && Number.isInteger(port) && port > 0) return port;
    }
  }
  return null;
}

/** The context whose path the raw request path starts with: the list is sorted longest path first, ROOT ('') last. */
function contextFor(list: readonly RunningContext[] | undefined, path: string): RunningContext | undefined {
  if (list === undefined) return undefined;
  for (const c of list) {
    const p = c.path;
    if (p === '' || (path.startsWith(p) && (path.length === p.length || path.charCodeAt(p.length) === 47))) return c;
  }
  return undefined;
}

/** The path the mapper compares with context paths: decoded and normalised when it needs it. */
function mappingPath(path: string): string {
  if (!pathNeedsWork(path)) return path;
  return decodeRequestPath(path, UTF8) ?? path;
}

const PROTECTED_DIRECTORY = /^\/(WEB-INF|META-INF)(\/|$)/i;

/** `/WEB-INF` or `/META-INF` (any case), alone or followed by '/'; the pattern runs only when the second character is a W or an M. */
function isProtectedDirectory(inContext: string): boolean {
  const c = inContext.charCodeAt(1) | 0x20;
  return (c === 0x77 || c === 0x6d) && PROTECTED_DIRECTORY.test(inContext);
}

// Tomcat's report for a request no context takes has no message line (observed on 10.1.60).
function notFound(req: IncomingMessage, res: ServerResponse, renderer: ErrorRenderer = defaultErrorPage): void {
  sendErrorReport(req, res, 404, null, renderer);
}

function badRequest(req: IncomingMessage, res: ServerResponse, message: string | null): void {
  sendErrorReport(req, res, 400, message, defaultErrorPage, CLOSE);
}
const CLOSE: Readonly<Record<string, string>> = { Connection: 'close' };

/** Loads the base, starts every context that can start, and listens. */
export async function startContainer(options: ContainerOptions): Promise<Container> {
  const base = options.loaded ?? loadBase({ base: options.base, ...(options.home ? { home: options.home } : {}) });
  const target = options.target ?? '10.1';
  const plan = planBase(base, { target, ...(options.unsafe ? { unsafe: options.unsafe } : {}) });
  if (plan.server.state === 'refused') throw new ServerRefusedError(plan.server.reasons);

  const registry = new HostRegistry({
    base: base.base,
    engineName: base.engineName,
    defaultHost: base.defaultHost,
    hosts: base.hosts.map((h) => {
      const a = h.def?.attributes ?? {};
      const flag = (name: string, fallback: boolean) =>
        a[name] ? a[name]!.value.trim().toLowerCase() === 'true' : fallback;
      return {
        name: h.name,
        aliases: h.aliases,
        appBase: h.def?.appBase?.value ?? 'webapps',
        appBasePath: h.appBase,
        autoDeploy: flag('autoDeploy', true),
        deployOnStartup: flag('deployOnStartup', true),
        deployXML: flag('deployXML', true),
        copyXML: flag('copyXML', false),
        unpackWARs: flag('unpackWARs', true),
      };
    }),
  });

  const report = options.log ?? ((line: string) => accessLogLogger.warning(line));
  // AccessLogValves: the engine's and each host's; the contexts' are added as they deploy.
  const accessLogProblems: AccessLogProblem[] = [];
  const engine = base.serverXml?.services.find((s) => s.engine !== null)?.engine ?? null;
  const accessLogs = new AccessLogRouter(
    accessLogsOf(engine?.valves ?? [], base.base, accessLogProblems),
    new Map(base.hosts.map((h) => [h.name, accessLogsOf(h.def?.valves ?? [], base.base, accessLogProblems)])),
    base.defaultHost,
    report,
  );

  // HealthCheckValve: the engine's answers for every host, a host's for itself (the engine's pipeline runs first).
  const engineHealth = healthCheckOf(engine?.valves ?? []);
  const hostHealth = new Map(base.hosts.map((h) => [h.name.toLowerCase(), healthCheckOf(h.def?.valves ?? [])]));
  /** Contexts Tomcat would refuse, per host: HealthCheckValve reports DOWN while any is there (checkContainersAvailable). */
  const refusedContexts = new Map<string, number>();

  const limits = connectorLimits(httpConnector(base.serverXml));
  const contexts = new Map<string, RunningContext[]>();
  // Each host's ErrorReportValve: hosts the host manager adds get Tomcat's default one.
  const renderers = new Map<string, ErrorRenderer>();
  const rendererOf = (hostName: string): ErrorRenderer =>
    renderers.get(hostName.toLowerCase()) ?? renderers.get('') ?? defaultErrorPage;
  renderers.set('', hostErrorRenderer(null, options.serverInfo));
  for (const h of base.hosts) renderers.set(h.name.toLowerCase(), hostErrorRenderer(h.def, options.serverInfo));
  const summary: string[] = [];
  const previous = options.previous ? plansByContext(options.previous) : null;
  const outcome = newOutcome();
  const running: ContextPlan[] = [];
  // Tomcat's Mapper never maps a context that failed to start: its requests go to the next longest
  // context path (often ROOT). One Tomcat starts but Node cannot run answers 404 where Tomcat would answer.
  // The default servlets serve files inside the base and home only, as lint reads them (docs/security.md).
  const scope = scopeOf(base);
  const within = scope.followSymlinks ? undefined : scope.roots;
  const deploy = (hostName: string, planned: readonly PlannedContext[], roots = within, before = previous): void => {
    const list: RunningContext[] = [];
    let refused = 0;
    for (const c of planned) {
      const run = decide(c, before, outcome);
      if (c.state === 'refused' && run === null) refused++;
      const at = `  http://${hostName}${c.contextPath || ''}/`;
      const loadedHost = c.resolved.host;
      const valves = [
        ...(base.contextXml?.valves ?? []),
        ...(loadedHost.contextDefault?.valves ?? []),
        ...(c.resolved.context.contextDef?.valves ?? []),
      ];
      accessLogs.setContext(hostName, c.contextPath, run ? accessLogsOf(valves, base.base, accessLogProblems) : []);
      if (run) {
        list.push(
          runContext(
            run,
            limits,
            rendererOf(hostName),
            options.state?.context(hostName, c.contextPath, { maxActiveSessions: run.maxActiveSessions }),
            roots,
          ),
        );
        running.push(run);
        summary.push(
          run === c.run
            ? `${at}  (${run.filters.length} filter${run.filters.length === 1 ? '' : 's'})`
            : `${at}  KEPT (its previous configuration; Tomcat would refuse it now): ${whyNotRunning(c)}`,
        );
      } else if (c.state === 'refused') {
        const d = c.reasons[0]!;
        summary.push(
          `${at}  NOT STARTED (Tomcat refuses it): ${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`,
        );
      } else {
        list.push({ path: c.contextPath, middleware: null, serve: null, hasServlet: () => false });
        summary.push(`${at}  NOT STARTED (Tomcat starts it; tollgate cannot run it): ${c.unrunnable}`);
      }
    }
    refusedContexts.set(hostName.toLowerCase(), refused);
    list.sort((a, b) => b.path.length - a.path.length);
    contexts.set(hostName.toLowerCase(), list);
  };
  for (const h of plan.hosts) deploy(h.name, h.contexts);
  for (const p of accessLogProblems) summary.push(`  ${p.file}:${p.line}:${p.column}: ${p.message}`);

  // Hosts the host manager adds serve their webapps at once; stopped or removed ones leave routing.
  registry.subscribe((event) => {
    const name = event.host.name.toLowerCase();
    if (event.type === 'added') {
      const loaded = loadAddedHost(base, {
        name: event.host.name,
        aliases: event.host.aliases,
        appBase: event.host.appBasePath,
      });
      const added = planBase({ ...base, hosts: [loaded] }, { target });
      // An appBase outside the base was allowed by the operator (--allow-app-base-outside-base): served too.
      const appBase = realOrResolved(event.host.appBasePath);
      const planned = added.hosts[0]?.contexts ?? [];
      deploy(event.host.name, planned, within && [...within, appBase], null);
      // The host is added (as Tomcat's HostManagerServlet does) even when some of its contexts do not start: say which and why.
      for (const c of planned)
        if (c.run === null)
          logger.severe(
            `host manager: context [${event.host.name}${c.contextPath || '/'}] of the added host does not start: ${whyNotRunning(c)}`,
          );
    } else if (event.type === 'removed') {
      for (const c of contexts.get(name) ?? []) c.middleware?.destroy();
      contexts.delete(name);
      refusedContexts.delete(name);
      accessLogs.removeHost(name);
    }
  });

  const realm = realmFromConfig(
    base.users,
    base.serverXml?.services.flatMap((s) => s.engine?.realms ?? []) ?? [],
    options.state ? { backend: options.state } : {},
  );
  const serverXmlPath = join(base.base, 'conf', 'server.xml');
  const hostManager = createHostManagerHandler({
    registry,
    realm: realm.realm,
    ...(options.hostOperations ? { operations: options.hostOperations } : {}),
    persister:
      options.persister !== undefined
        ? options.persister
        : storeConfigEnabled(base.serverXml)
          ? createServerXmlPersister({ registry, file: serverXmlPath })
          : null,
    allowAppBaseOutsideBase: options.allowAppBaseOutsideBase ?? false,
    errorPage: rendererOf(base.defaultHost),
    sharedStore: options.state?.shared === true ? options.state.name : null,
  });

  let draining = false;
  /** Requests recorded (access logs or metrics) whose response has not closed yet. */
  let recording = 0;
  /** Set by release(): runs once the last recorded request has closed. */
  let onIdle: (() => void) | null = null;
  const logged = (r: Parameters<AccessLogRouter['log']>[0], endNs: bigint): void => {
    r.user = authenticatedUser(r.req);
    accessLogs.log(r, endNs);
    options.metrics?.observe(r, endNs);
    if (--recording === 0 && onIdle !== null) onIdle();
  };
  const hostAvailable = (name: string): boolean =>
    (refusedContexts.get(name.toLowerCase()) ?? 0) === 0 && registry.get(name)?.state === 'started';
  const allAvailable = (): boolean => registry.list().every((h) => hostAvailable(h.name));
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const record = accessLogs.active || options.metrics ? recordRequest(req, res, logged) : null;
    if (record !== null) recording++;
    // The client learns from this response that the connection ends with it, rather than from a reset on its next request.
    if (draining) res.setHeader('Connection', 'close');
    if (headSizeExceeds(req, limits.maxHttpRequestHeaderSize)) {
      badRequest(req, res, 'Request header is too large');
      return;
    }
    const headerCount = tooManyHeaders(req, limits.maxHeaderCount);
    if (headerCount !== null) {
      badRequest(req, res, headerCount);
      return;
    }
    // Which host a request with two Host headers, an invalid one or a contradicting request-target meant is ambiguous.
    if (hostProblem(req) !== null) {
      badRequest(req, res, null);
      return;
    }
    const host = registry.resolve(req.headers.host ?? absoluteFormAuthority(req.url ?? ''));
    if (record !== null && host) record.host = host.name;
    if (!host || host.state !== 'started') {
      notFound(req, res);
      return;
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (host.name === registry.defaultHost && (path === '/host-manager' || path.startsWith('/host-manager/'))) {
      hostManager(req, res);
      return;
    }
    // Tomcat maps the normalised URI (CoyoteAdapter.normalize merges '//', resolves '.' and '..', observed on
    // 10.1.60: //api/index.json is /api's); one that cannot be decoded is mapped as sent and refused (400) there.
    const ctx = contextFor(contexts.get(host.name), mappingPath(path));
    if (record !== null && ctx) record.context = ctx.path;
    // HealthCheckValve runs in the engine's and the host's pipelines: only once a context is mapped.
    if (ctx && (engineHealth || hostHealth.get(host.name.toLowerCase()))) {
      const decodedUri = decodeRequestPath(path, UTF8);
      if (engineHealth && decodedUri === engineHealth.path) return answerHealth(res, engineHealth, allAvailable());
      const own = hostHealth.get(host.name.toLowerCase());
      if (own && decodedUri === own.path) return answerHealth(res, own, hostAvailable(host.name));
    }
    if (!ctx || !ctx.middleware || !ctx.serve) {
      notFound(req, res, rendererOf(host.name));
      return;
    }
    const serve = ctx.serve;
    const downstream = (): void => void serve(req, res);
    // Tomcat's StandardContextValve answers 404 for WEB-INF and META-INF before any filter runs (the context's
    // error pages apply: observed on 10.1.60).
    const inContext = path.slice(ctx.path.length);
    if (isProtectedDirectory(inContext)) {
      ctx.middleware.refuse(req, res, downstream, 404);
      return;
    }
    // No servlet mapped to the path (an application that maps the default servlet elsewhere than "/"): the Mapper
    // finds no wrapper and Tomcat answers 404 before any filter (observed on 10.1.60, test/fixtures/real-base).
    const decoded = inContext === '' ? null : decodeRequestPath(path, UTF8);
    if (decoded !== null && !ctx.hasServlet(decoded.slice(ctx.path.length))) {
      ctx.middleware.refuse(req, res, downstream, 404);
      return;
    }
    // The connector refuses TRACE (allowTrace=false) with sendError: no REQUEST filter runs, error pages apply.
    if (req.method === 'TRACE') {
      ctx.middleware.refuse(req, res, downstream, 405, 'TRACE method is not allowed', {
        Allow: 'HEAD, DELETE, POST, GET, OPTIONS, PUT',
      });
      return;
    }
    ctx.middleware(req, res, downstream);
  };
  const destroyContexts = (): void => {
    for (const list of contexts.values()) for (const c of list) c.middleware?.destroy();
  };
  let server: Server;
  let address: string;
  if (options.server) {
    server = options.server;
    address = (server.address() as { address: string }).address;
  } else {
    server = createServer(serverOptions(limits), handler);
    installConnectorHandlers(server, limits);
    await options.beforeListen?.(registry);
    address = options.address ?? '127.0.0.1';
    const port = options.port ?? connectorPort(base) ?? 8080;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }
  const actual = (server.address() as { port: number }).port;
  return {
    server,
    address,
    port: actual,
    running,
    outcome,
    attach: () => void server.on('request', handler),
    release: () => {
      server.off('request', handler);
      // The requests still running on this configuration finish with it, and are logged by its valves.
      onIdle = () => {
        onIdle = null;
        destroyContexts();
        accessLogs.close();
      };
      if (recording === 0) onIdle();
    },
    base,
    plan,
    diagnostics: [...plan.diagnostics, ...realm.diagnostics],
    summary,
    registry,
    accessLogs,
    get draining() {
      return draining;
    },
    drain: (timeoutMs) =>
      new Promise<void>((resolve) => {
        draining = true;
        // A client busy on a kept-alive connection sends its next request within a moment and is answered
        // `Connection: close`; closing its connection between two requests instead would race that request
        // (the client would see a reset). So idle connections are closed only after a grace period, then
        // as soon as each turns idle.
        let idle: NodeJS.Timeout | undefined;
        const grace = setTimeout(
          () => {
            server.closeIdleConnections();
            idle = setInterval(() => server.closeIdleConnections(), 50);
          },
          Math.min(IDLE_GRACE_MS, timeoutMs),
        );
        const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
        // net.Server's close stops accepting without http.Server's immediate closeIdleConnections().
        NetServer.prototype.close.call(server, () => {
          clearTimeout(grace);
          clearInterval(idle);
          clearTimeout(cut);
          resolve();
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        destroyContexts();
        server.close(() => {
          accessLogs.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
