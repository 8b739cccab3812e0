/**
 * The host manager's text interface (`/host-manager/text/<command>`), as
 * Tomcat 10.1's HostManagerServlet answers it behind the application's
 * security constraint (BASIC, role admin-script), its HTTP header security
 * filter and its RemoteCIDRValve (loopback only). Where Tomcat is unsafe,
 * this does better; docs/divergences.md lists each case.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultErrorPage, sendErrorReport, type ErrorRenderer } from '../runtime/index.js';
import { charsetDecoder } from '../protocol/charset.js';
import { ParameterMap, parseUrlEncoded } from '../runtime/parameters.js';
import { decodeRequestPath, splitRequestTarget } from '../runtime/request-path.js';
import type { AddHostInput, AddPolicy, HostFailure, HostRegistry, HostResult } from './hosts.js';
import { forbiddenPage, unauthorizedPage } from './host-manager-pages.js';
import type { Principal } from './realm.js';
import { AUTHENTICATED_USER } from './access-log.js';
import { METHOD_NOT_IMPLEMENTED_STATUS, methodNotImplementedMessage } from './servlet-methods.js';
import { FleetUnreachableError } from './fleet.js';
import { compileCidrMatcher, parseCidrList, toTomcatRemoteAddr } from '../protocol/net.js';

/** What checks user names and passwords (UserRealm does). */
export interface Authenticator {
  authenticate(username: string | null, password: string | null): Promise<Principal | null>;
}

/** Writes the registry's hosts into conf/server.xml (see persist.ts). */
export interface Persister {
  persist(): Promise<void>;
}

/**
 * Where add/remove/start/stop go. The registry itself by default; under `serve --workers` the
 * cluster's primary, which applies each command to every worker's registry before it answers.
 */
export interface HostOperations {
  add(input: AddHostInput, policy: AddPolicy): Promise<HostResult>;
  remove(name: string | null): Promise<HostResult>;
  start(name: string | null): Promise<HostResult>;
  stop(name: string | null): Promise<HostResult>;
  /**
   * True when the commands reach every instance sharing the state store (src/server/fleet.ts); an instance
   * that shares its store with operations that reach it alone refuses host changes (`sharedStore`).
   */
  readonly fleetWide?: boolean;
}

export interface HostManagerOptions {
  /** What `list` reads and what the own-host checks look at. */
  registry: HostRegistry;
  /** Default: `registry`. */
  operations?: HostOperations;
  realm: Authenticator;
  /** The host the host manager is deployed on; it cannot be removed, stopped or started (default: the default host). */
  ownHost?: string;
  /** Default `/host-manager`. */
  contextPath?: string;
  /** null or omitted: StoreConfig is not enabled and `persist` answers Tomcat's FAIL line. */
  persister?: Persister | null;
  /** Accept an appBase outside CATALINA_BASE (Tomcat does for absolute paths; default false). */
  allowAppBaseOutsideBase?: boolean;
  /** Which client addresses may use the host manager (default: loopback, as Tomcat's RemoteCIDRValve for it). */
  remoteAddressAllowed?: (address: string) => boolean;
  /** The realm named in the Basic challenge (web.xml `<realm-name>`). */
  realmName?: string;
  /** The report for errors (its host's ErrorReportValve; default: Tomcat's report). */
  errorPage?: ErrorRenderer;
  /**
   * The state store this instance shares with other instances (a Redis URL, passwords removed), or null.
   * A host change reaches this instance (and its workers) only, so behind a balancer the fleet would
   * serve a new host on some requests and not others: add, remove, start and stop are then refused
   * with a FAIL line that says so (docs/deployment.md, "The host manager behind a balancer").
   */
  sharedStore?: string | null;
}

/** A node:http style handler; it answers every request it is given (404 outside `/text`). */
export type HostManagerHandler = (req: IncomingMessage, res: ServerResponse) => void;

const utf8 = charsetDecoder('UTF-8')!;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const CHANGES_STATE = new Set(['/add', '/remove', '/start', '/stop', '/persist']);
/** The commands that change which hosts serve: one instance of a fleet must not diverge from the others. */
const FLEET_CHANGES = new Set(['/add', '/remove', '/start', '/stop']);

/** Builds the handler. Throws TypeError for invalid options. */
export function createHostManagerHandler(options: HostManagerOptions): HostManagerHandler {
  const { registry, realm } = options;
  if (registry === undefined || realm === undefined || typeof realm.authenticate !== 'function')
    throw new TypeError('createHostManagerHandler needs { registry, realm }');
  const contextPath = options.contextPath ?? '/host-manager';
  const operations: HostOperations = options.operations ?? registry;
  const sharedStore = operations.fleetWide === true ? null : (options.sharedStore ?? null);
  const ownHost = (options.ownHost ?? registry.defaultHost).toLowerCase();
  const realmName = options.realmName ?? 'Tomcat Host Manager Application';
  const allowed = options.remoteAddressAllowed ?? isLoopback;
  const policy = { allowAppBaseOutsideBase: options.allowAppBaseOutsideBase ?? false };
  const renderer = options.errorPage ?? defaultErrorPage;

  return (req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else sendStatus(renderer, req, res, 500, (err as Error)?.message ?? null);
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { path: rawPath, query } = splitRequestTarget(req.url ?? '/');
    let path: string | null;
    try {
      path = decodeRequestPath(rawPath, (b) => strictUtf8.decode(b));
    } catch {
      path = null;
    }
    if (path === null) return sendStatus(renderer, req, res, 400, null);
    if (!allowed(req.socket.remoteAddress ?? '')) return sendStatus(renderer, req, res, 403, null);
    if (path === contextPath) {
      res.statusCode = 302;
      res.setHeader('Location', `${rawPath}/${query === null ? '' : `?${query}`}`);
      res.end();
      return;
    }
    const inContext = path.startsWith(`${contextPath}/`) ? path.slice(contextPath.length) : null;
    // Only the text interface exists here; the HTML interface and the index page are out of scope.
    if (inContext === null || (inContext !== '/text' && !inContext.startsWith('/text/'))) {
      return sendStatus(renderer, req, res, 404, `The requested resource [${rawPath}] is not available`);
    }
    const method = req.method ?? 'GET';
    if (method === 'TRACE') {
      // Refused by the connector (allowTrace=false) before the application's constraint and filters.
      res.setHeader('Allow', 'HEAD, GET, OPTIONS');
      return sendStatus(renderer, req, res, 405, 'TRACE method is not allowed');
    }
    // The security constraint: AuthenticatorBase marks every non-POST protected response private.
    if (method !== 'POST') res.setHeader('Cache-Control', 'private');
    const principal = await authenticate(req);
    if (principal === null) {
      res.setHeader('WWW-Authenticate', `Basic realm="${realmName}"`);
      return sendPage(req, res, 401, unauthorizedPage(contextPath));
    }
    // The access log's %u: the user is authenticated even when the role check then refuses them.
    (req as unknown as Record<symbol, string>)[AUTHENTICATED_USER] = principal.name;
    if (!principal.roles.has('admin-script')) return sendPage(req, res, 403, forbiddenPage(contextPath));

    // The HTTP header security filter of the host-manager application.
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (method === 'OPTIONS') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      if (method === 'POST' || method === 'PUT' || method === 'DELETE') {
        const http10 = req.httpVersion === '1.0' || req.httpVersion === '0.9';
        return sendStatus(renderer, req, res, http10 ? 400 : 405, `HTTP method ${method} is not supported by this URL`);
      }
      // Tomcat closes the connection after a 501.
      res.setHeader('Connection', 'close');
      return sendStatus(renderer, req, res, METHOD_NOT_IMPLEMENTED_STATUS, methodNotImplementedMessage(method));
    }
    const command = inContext === '/text' ? '/text' : inContext.slice('/text'.length);
    const params = parameters(query);
    const lines =
      method === 'HEAD' && CHANGES_STATE.has(command)
        ? [`FAIL - Tried to use command [${command}] via a HEAD request but GET is required`]
        : await run(command, params);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/plain;charset=utf-8');
    // Tomcat flushes before closing, so the body goes out chunked; writing then ending does the same.
    // A line echoes request parameters (a host name): CR and LF in them go out %-encoded, as the client sent
    // them, so no parameter can add a line (a forged OK) to the answer scripts read line by line.
    res.write(lines.map((l) => `${oneLine(l)}\n`).join(''));
    res.end();
  }

  function oneLine(line: string): string {
    return line.replace(/[\r\n]/g, (c) => (c === '\r' ? '%0D' : '%0A'));
  }

  async function authenticate(req: IncomingMessage): Promise<Principal | null> {
    const creds = basicCredentials(req.headers['authorization']);
    if (creds === null) return null;
    return realm.authenticate(creds.username, creds.password);
  }

  async function run(command: string, params: ParameterMap): Promise<string[]> {
    const name = params.values.get('name')?.[0] ?? null;
    if (sharedStore !== null && FLEET_CHANGES.has(command))
      return [
        `FAIL - Host changes are refused on an instance that shares its state store [${sharedStore}] with others: [${command.slice(1)}] would reach this instance only. Change server.xml on every instance and reload them (SIGHUP)`,
      ];
    switch (command) {
      case '/list':
        return list();
      case '/add':
        return add(name, params);
      case '/remove':
        if (refuseOwn(name)) return [`FAIL - Cannot remove your own host [${name}]`];
        return describe(await operations.remove(name), name, `OK - Removed host [${name}]`);
      case '/start':
        if (refuseOwn(name)) return [`FAIL - Cannot start your own host [${name}]`];
        return describe(
          await operations.start(name),
          name,
          `OK - Host [${name}] started`,
          `FAIL - Failed to start host [${name}]`,
        );
      case '/stop':
        if (refuseOwn(name)) return [`FAIL - Cannot stop your own host [${name}]`];
        return describe(
          await operations.stop(name),
          name,
          `OK - Host [${name}] stopped`,
          `FAIL - Failed to stop host [${name}]`,
        );
      case '/persist':
        return persist();
      default:
        return [`FAIL - Unknown command [${command}]`];
    }
  }

  /** Whether `name` is the manager's own host (existing-host and validity checks come first, as in Tomcat). */
  function refuseOwn(name: string | null): boolean {
    return name !== null && name !== '' && registry.get(name)?.name === ownHost;
  }

  function list(): string[] {
    const out = ['OK - Listed hosts'];
    for (const h of registry.list()) out.push(`[${h.name}]:[${h.aliases.join(',')}]`);
    return out;
  }

  async function add(name: string | null, params: ParameterMap): Promise<string[]> {
    const get = (p: string): string | null => params.values.get(p)?.[0] ?? null;
    // Text-mode booleans: a parameter only moves a default away from itself with the exact word.
    const flag = (p: string, dflt: boolean): boolean => {
      const v = get(p);
      if (v === null) return dflt;
      return dflt ? v !== 'false' : v === 'true';
    };
    const result = await operations.add(
      {
        name,
        aliases: get('aliases'),
        appBase: get('appBase'),
        manager: flag('manager', false),
        autoDeploy: flag('autoDeploy', true),
        deployOnStartup: flag('deployOnStartup', true),
        deployXML: flag('deployXML', true),
        unpackWARs: flag('unpackWARs', true),
        copyXML: flag('copyXML', false),
      },
      policy,
    );
    return describe(result, name, `OK - Host [${name}] added`);
  }

  async function persist(): Promise<string[]> {
    const persister = options.persister ?? null;
    if (persister === null) return ['FAIL - Please enable StoreConfig to use this feature'];
    try {
      await persister.persist();
      return ['OK - Configuration persisted'];
    } catch (e) {
      // The other instances of the fleet could not be told: say so, as a host change refused for that does.
      if (e instanceof FleetUnreachableError) return [`FAIL - ${e.message}`];
      return ['FAIL - Failed to persist configuration'];
    }
  }
}

/** Tomcat's response lines for the outcome of a registry operation. */
function describe(result: HostResult, name: string | null, success: string, failedTo?: string): string[] {
  if (result.ok) return [success];
  return failureLines(result.failure, name ?? 'null', failedTo);
}

function failureLines(f: HostFailure, name: string, failedTo: string | undefined): string[] {
  switch (f.code) {
    case 'invalid-name':
      return [`FAIL - Invalid host name [${name}] was specified`];
    case 'exists':
      return [`FAIL - Host already exists with host name [${name}]`];
    case 'no-such-host':
      return [`FAIL - Host name [${name}] does not exist`];
    case 'already-started':
      return [`FAIL - Host [${name}] is already started`];
    case 'already-stopped':
      return [`FAIL - Host [${name}] is already stopped`];
    case 'outside-base':
      return [`FAIL - Unable to use [${f.path}] as that is outside the expected directory [${f.expected}]`];
    case 'exposes-conf':
      return [`FAIL - Unable to use [${f.path}] as that would make the configuration directory [${f.conf}] servable`];
    case 'appbase-create-failed':
      return [`FAIL - Failed to create appBase directory [${f.path}] for host [${name}]`];
    case 'path-check-error':
      return [pathCheckError(f)];
    case 'config-base-failed': {
      const o = f.outside;
      const lines =
        o === null
          ? []
          : [
              o.reason === undefined
                ? `FAIL - Unable to use [${o.path}] as that is outside the expected directory [${o.expected}]`
                : pathCheckError({ ...o, reason: o.reason }),
            ];
      return [...lines, `FAIL - Failed to identify configBase directory for host [${name}]`];
    }
    case 'fleet-unreachable':
      return [`FAIL - ${f.message}`];
    case 'listener-failed': {
      const e = f.error;
      const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      return [...(failedTo === undefined ? [] : [failedTo]), `FAIL - Encountered exception [${text}]`];
    }
  }
}

function pathCheckError(f: { path: string; expected: string; reason: string }): string {
  return `FAIL - Unable to use [${f.path}] due to [${f.reason}] while checking if it was outside the expected directory [${f.expected}]`;
}

/** Decodes `Authorization: Basic ...` as Tomcat's BasicAuthenticator does (ISO-8859-1, strict base64). */
export function basicCredentials(header: string | undefined): { username: string; password: string | null } | null {
  if (header === undefined || header.length < 6 || header.slice(0, 6).toLowerCase() !== 'basic ') return null;
  const blob = header.slice(6);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob) || blob.length % 4 === 1) return null;
  const text = Buffer.from(blob, 'base64').toString('latin1');
  const colon = text.indexOf(':');
  if (colon < 0) return { username: text, password: null };
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function parameters(query: string | null): ParameterMap {
  const map = new ParameterMap(1000);
  if (query !== null && query !== '') parseUrlEncoded(Buffer.from(query, 'latin1'), utf8, map);
  return map;
}

/** The host manager's RemoteCIDRValve allow list, read by the one NetMask implementation. */
const LOOPBACK = compileCidrMatcher(parseCidrList('127.0.0.0/8, ::1').cidrs);

/** 127.0.0.0/8 and ::1, for a Node socket address (IPv4-mapped ones as Tomcat reports them). */
function isLoopback(address: string): boolean {
  return LOOPBACK(toTomcatRemoteAddr(address));
}

function sendPage(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html;charset=UTF-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** An error report page (Tomcat's ErrorReportValve renders these). */
function sendStatus(
  renderer: ErrorRenderer,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string | null,
): void {
  sendErrorReport(req, res, status, message, renderer);
}
