/**
 * CsrfPreventionFilter: every request except GETs to entry points and
 * no-nonce URLs must carry a nonce issued earlier in the session; each
 * request gets a new nonce, kept in a per-session cache of the last
 * nonceCacheSize (with the session in its store: SessionRecord.nonces), and URLs the application passes through
 * response.encodeURL / encodeRedirectURL get it appended when they point
 * into this web application.
 */
import { randomHex128 } from '../random.js';
import type { CsrfPreventionConfig, NoNoncePattern } from '../../filters/csrf-prevention.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import { isPromise, TooManyActiveSessionsError } from '../state.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';
import { parseJavaUri, resolveJavaUri, urlHostPort } from './java-uri.js';
import { mimeLookupOf, toRegExp, type MimeLookup } from './support.js';

/** Request attribute holding this request's new nonce, for pages that build URLs themselves. */
export const CSRF_NONCE_REQUEST_ATTR = 'org.apache.catalina.filters.CSRF_REQUEST_NONCE';

/** A nonce as Tomcat renders one: 16 random bytes as 32 upper-case hex digits. */
export function generateNonce(): string {
  return randomHex128();
}

type Predicate = (value: string, mime: MimeLookup) => boolean;

interface Csrf {
  readonly denyStatus: number;
  readonly entryPoints: ReadonlySet<string>;
  readonly cacheSize: number;
  readonly paramName: string;
  readonly enforce: boolean;
  readonly noNonce: readonly Predicate[];
  readonly mime: MimeLookup;
  readonly logger: Logger;
}

/** What the URL encoder of one request needs. */
interface EncoderState {
  readonly csrf: Csrf;
  readonly nonce: string;
}

export const create: RuntimeFilterFactory<CsrfPreventionConfig> = (config, ctx) => {
  const mime = mimeLookupOf(ctx);
  const csrf: Csrf = {
    denyStatus: config.denyStatus,
    entryPoints: new Set(config.entryPoints),
    cacheSize: config.nonceCacheSize,
    paramName: config.nonceRequestParameterName,
    enforce: config.enforce,
    noNonce: config.noNonceUrlPatterns.map(toPredicate),
    mime,
    logger: ctx.logger,
  };
  return { name: 'CsrfPreventionFilter', doFilter: (ex, next) => filter(csrf, ex, next) };
};

function toPredicate(p: NoNoncePattern): Predicate {
  let test: (s: string) => boolean;
  if (p.kind === 'suffix') {
    const suffix = p.value;
    test = (s) => s.endsWith(suffix);
  } else if (p.kind === 'prefix') {
    const prefix = p.value;
    test = (s) => s.startsWith(prefix);
  } else {
    const re = toRegExp(p.regex);
    test = re === null ? () => false : (s) => re.test(s);
  }
  if (!p.mime) return test;
  // ServletContext.getMimeType of the whole string; no type, no match.
  return (s, mime) => {
    const type = mime(s);
    return type !== null && test(type);
  };
}

function matchesNoNonce(csrf: Csrf, value: string): boolean {
  for (const p of csrf.noNonce) if (p(value, csrf.mime)) return true;
  return false;
}

function filter(csrf: Csrf, ex: Exchange, next: NextFilter): FilterResult {
  const req = ex.request;
  const path = req.pathWithinContext;
  const skipCheck = req.method === 'GET' && (csrf.entryPoints.has(path) || matchesNoNonce(csrf, path));
  if (skipCheck) {
    if (csrf.logger.isLoggable('FINEST')) csrf.logger.finest(`Skipping CSRF nonce-check for GET request to ${path}`);
    const loading = req.sessionReady();
    if (loading === undefined) return issueNonce(csrf, ex, next);
    return loading.then(() => issueNonce(csrf, ex, next));
  }
  // The nonce may come in a form body: parse it first, asynchronously only when there is one; and a
  // networked store's session must be in.
  const parsing = req.parseParameters();
  const loading = req.sessionReady();
  if (req.parametersParsed && loading === undefined) return check(csrf, ex, next, path);
  return checkAfter(parsing, loading, csrf, ex, next, path);
}

async function checkAfter(
  parsing: Promise<void>,
  loading: Promise<void> | undefined,
  csrf: Csrf,
  ex: Exchange,
  next: NextFilter,
  path: string,
): Promise<void> {
  await parsing;
  if (loading !== undefined) await loading;
  return check(csrf, ex, next, path);
}

function check(csrf: Csrf, ex: Exchange, next: NextFilter, path: string): FilterResult {
  const req = ex.request;
  const session = req.getSession(false);
  const previous = req.getParameter(csrf.paramName);
  let reason: string | null = null;
  if (previous === null) {
    reason = 'because no CSRF nonce was found';
  } else {
    // The session's cache as loaded with it (a store that cannot be reached gives no session: refused).
    const cache = session === null ? null : session.record.nonces;
    if (cache === null) reason = 'due to empty or missing nonce cache';
    else if (!cache.includes(previous)) reason = `due to invalid nonce [${previous}]`;
  }
  if (reason !== null) {
    const sessionId = session === null ? '(null)' : session.id;
    if (csrf.enforce) {
      if (csrf.logger.isLoggable('FINE'))
        csrf.logger.fine(`Rejecting request for [${path}] with session [${sessionId}] ${reason}`);
      ex.response.sendError(csrf.denyStatus);
      return undefined;
    }
    if (csrf.logger.isLoggable('FINEST'))
      csrf.logger.finest(`Would have rejected request for [${path}] with session [${sessionId}] ${reason}`);
  }
  return issueNonce(csrf, ex, next);
}

/**
 * Adds a new nonce to the session's cache (creating both when needed) and to every URL the application
 * encodes. The nonce is sent to the store before the chain goes on, so it is there (the store applies a
 * request's operations in order) before the response that carries it can reach the client; nobody waits for it.
 */
function issueNonce(csrf: Csrf, ex: Exchange, next: NextFilter): FilterResult {
  const req = ex.request;
  let session = req.getSession(false);
  if (session === null || session.record.nonces === null) {
    if (csrf.logger.isLoggable('FINE')) {
      csrf.logger.fine(
        `Creating new CSRF nonce cache with size [${csrf.cacheSize}] for session [${session === null ? '(null)' : session.id}] (it will be created if null)`,
      );
    }
  }
  if (session === null) {
    try {
      session = req.getSession(true)!;
    } catch (err) {
      // At maxActiveSessions Tomcat's getSession throws and the request fails (500).
      if (ex.response.committed || err instanceof TooManyActiveSessionsError) throw err;
      // The session store is unreachable: no nonce can be kept, so none is handed out (fail closed).
      ex.response.sendError(csrf.denyStatus);
      return undefined;
    }
  }
  const nonce = generateNonce();
  const added = ex.context.sessions.store.addNonce(session.id, nonce, csrf.cacheSize);
  if (isPromise(added)) added.then(undefined, ignore);
  req.setAttribute(CSRF_NONCE_REQUEST_ATTR, nonce);
  ex.response.addUrlEncoder(encodeWithNonce, { csrf, nonce } satisfies EncoderState);
  // A networked store with a limit answers whether it kept the new session (its answer travels with the
  // nonce's): a refused one fails the request, as on Tomcat, rather than hand out a nonce nothing holds.
  const stored = session.stored;
  if (stored === null) return next();
  session.stored = null;
  return stored.then((refused) => {
    if (refused !== null) throw refused;
    return next();
  });
}

/** A failed write is the store's to log (once per outage); the next request with this nonce is refused. */
function ignore(): void {}

function encodeWithNonce(url: string, _kind: 'url' | 'redirect', ex: Exchange, state: EncoderState): string {
  const cleaned = removeQueryParameters(url, state.csrf.paramName);
  return shouldAddNonce(state.csrf, ex, cleaned) ? addNonce(cleaned, state.csrf.paramName, state.nonce) : cleaned;
}

/** A nonce goes only to URLs that no pattern exempts and that resolve into this web application. */
function shouldAddNonce(csrf: Csrf, ex: Exchange, location: string): boolean {
  if (matchesNoNonce(csrf, location)) return false;
  const ref = parseJavaUri(location);
  const base = ref === null ? null : parseJavaUri(ex.request.requestURL);
  if (ref === null || base === null) return false;
  const url = resolveJavaUri(base, ref);
  return isSameWebApplication(ex, url.scheme, url.authority, url.path);
}

/** RequestUtil.isSameWebApplication as Tomcat 10.1 ships it: scheme, host and port, then the decoded, normalised path under the context path. */
function isSameWebApplication(
  ex: Exchange,
  scheme: string | null,
  authority: string | null,
  rawPath: string | null,
): boolean {
  const req = ex.request;
  if (scheme === null || req.scheme.toLowerCase() !== scheme.toLowerCase()) return false;
  if (authority === null) return false;
  const hp = urlHostPort(authority);
  if (hp === null || req.serverName.toLowerCase() !== hp.host.toLowerCase()) return false;
  const serverPort = req.serverPort === -1 ? (req.scheme === 'https' ? 443 : 80) : req.serverPort;
  const urlPort = hp.port === -1 ? (scheme === 'https' ? 443 : 80) : hp.port;
  if (serverPort !== urlPort) return false;
  const path = normalizePath(percentDecodeUtf8(stripPathParameters(rawPath ?? '')));
  if (path === null) return false;
  const contextPath = req.contextPath;
  return path === contextPath || path.startsWith(`${contextPath}/`);
}

const PATH_PARAMETER = /;[^/]*/g;
const BACKSLASH = /\\/g;

function stripPathParameters(path: string): string {
  if (!path.includes(';')) return path;
  return path.replace(PATH_PARAMETER, '');
}

function percentDecodeUtf8(path: string): string {
  if (!path.includes('%')) return path;
  // The URI parser already refused malformed escapes; bytes that are not UTF-8 become U+FFFD, as in Java.
  const bytes: number[] = [];
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) === 37) {
      bytes.push(parseInt(path.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(path[i]!, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Tomcat's RequestUtil.normalize: backslashes as slashes, a leading slash, "//", "/./" and "/../" resolved; null above the root. */
function normalizePath(input: string): string | null {
  let path = input.replace(BACKSLASH, '/');
  if (!path.startsWith('/')) path = `/${path}`;
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    if (seg === '.' || (seg === '' && !last)) continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return `/${out.join('/')}`;
}

/**
 * CsrfResponseWrapper.removeQueryParameters: drops every `name` or
 * `name=value` from the query, and a `?` left with nothing after it. The
 * last parameter runs to the end of the URL, fragment included, as in Tomcat.
 */
export function removeQueryParameters(url: string, name: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pieces = url.slice(q + 1).split('&');
  const kept: string[] = [];
  for (const piece of pieces) {
    const eq = piece.indexOf('=');
    if ((eq < 0 ? piece : piece.slice(0, eq)) !== name) kept.push(piece);
  }
  if (kept.length === pieces.length && pieces.length > 1) return url;
  const query = kept.join('&');
  return query === '' ? url.slice(0, q) : `${url.slice(0, q)}?${query}`;
}

/** CsrfResponseWrapper.addNonce: `name=nonce` as the last query parameter, before any fragment. */
export function addNonce(url: string, name: string, nonce: string): string {
  let path = url;
  let anchor = '';
  const pound = path.indexOf('#');
  if (pound >= 0) {
    anchor = path.slice(pound);
    path = path.slice(0, pound);
  }
  let query = '';
  const question = path.indexOf('?');
  if (question >= 0) {
    query = path.slice(question);
    path = path.slice(0, question);
  }
  return `${path}${query === '' ? '?' : `${query}&`}${name}=${nonce}${anchor}`;
}
