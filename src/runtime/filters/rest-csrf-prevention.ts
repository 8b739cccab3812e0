/**
 * RestCsrfPreventionFilter: a GET, HEAD or OPTIONS with `X-CSRF-Token: Fetch`
 * gets the session's nonce (created with the session when missing) in the
 * X-CSRF-Token response header; any other method must send that nonce in
 * the X-CSRF-Token header, or, on pathsAcceptingParams only, as the
 * X-CSRF-Token parameter. Otherwise: `X-CSRF-Token: Required` and denyStatus.
 * The nonce is kept with the session in its store (SessionRecord.restToken).
 */
import type { RestCsrfPreventionConfig } from '../../filters/rest-csrf-prevention.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';
import { generateNonce } from './csrf-prevention.js';
import { firstHeader } from './support.js';
import { isPromise, TooManyActiveSessionsError } from '../state.js';

const NOT_LIMITED: Promise<null> = Promise.resolve(null);

const HEADER = 'X-CSRF-Token';
const HEADER_KEY = 'x-csrf-token';

interface RestCsrf {
  readonly denyStatus: number;
  readonly pathsAcceptingParams: ReadonlySet<string>;
  readonly logger: Logger;
}

export const create: RuntimeFilterFactory<RestCsrfPreventionConfig> = (config, ctx) => {
  const rest: RestCsrf = {
    denyStatus: config.denyStatus,
    pathsAcceptingParams: new Set(config.pathsAcceptingParams),
    logger: ctx.logger,
  };
  return { name: 'RestCsrfPreventionFilter', doFilter: (ex, next) => filter(rest, ex, next) };
};

function filter(rest: RestCsrf, ex: Exchange, next: NextFilter): FilterResult {
  // The token is kept with the session: a networked store's session must be in first.
  const loading = ex.request.sessionReady();
  if (loading !== undefined) return loading.then(() => run(rest, ex, next));
  return run(rest, ex, next);
}

function run(rest: RestCsrf, ex: Exchange, next: NextFilter): FilterResult {
  const method = ex.request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    const fetched = fetchNonce(rest, ex);
    if (fetched === undefined) return next();
    return fetched.then((ok) => (ok ? next() : undefined));
  }
  const header = firstHeader(ex, HEADER_KEY);
  // The header wins; only an absent or empty one lets a parameter count, and only on the listed paths.
  if ((header === null || header === '') && rest.pathsAcceptingParams.has(ex.request.pathWithinContext)) {
    const parsing = ex.request.parseParameters();
    if (ex.request.parametersParsed) return verify(rest, ex, next, nonceFromParameters(rest, ex));
    return verifyAfter(parsing, rest, ex, next);
  }
  return verify(rest, ex, next, header);
}

/**
 * Answers `X-CSRF-Token: Fetch` (any case) with the session's nonce; other requests pass untouched.
 * A new token is set only if the session has none yet (two concurrent fetches on two instances agree on
 * one), so a networked store is waited for: the promise says whether to go on (false: refused, store down).
 */
function fetchNonce(rest: RestCsrf, ex: Exchange): Promise<boolean> | undefined {
  const asked = firstHeader(ex, HEADER_KEY);
  if (asked === null || asked.toLowerCase() !== 'fetch') return undefined;
  const existing = sessionNonce(ex);
  if (existing !== null) {
    sendNonce(rest, ex, existing);
    return undefined;
  }
  let session;
  try {
    session = ex.request.getSession(true)!;
  } catch (err) {
    // At maxActiveSessions Tomcat's getSession throws and the request fails (500).
    if (ex.response.committed || err instanceof TooManyActiveSessionsError) throw err;
    refuseUnavailable(rest, ex);
    return Promise.resolve(false);
  }
  const fresh = generateNonce();
  const held = ex.context.sessions.store.restToken(session.id, fresh);
  if (!isPromise(held)) {
    session.record.restToken = held ?? fresh;
    sendNonce(rest, ex, session.record.restToken);
    return undefined;
  }
  // A networked store with a limit answers whether it kept the new session together with the token.
  const stored = session.stored ?? NOT_LIMITED;
  session.stored = null;
  return Promise.all([held, stored]).then(
    ([token, refused]) => {
      if (refused !== null) throw refused;
      session.record.restToken = token ?? fresh;
      sendNonce(rest, ex, session.record.restToken);
      return true;
    },
    () => {
      refuseUnavailable(rest, ex);
      return false;
    },
  );
}

function sendNonce(rest: RestCsrf, ex: Exchange, nonce: string): void {
  ex.response.setHeader(HEADER, nonce);
  if (rest.logger.isLoggable('FINE')) {
    rest.logger.fine(
      `CSRF Fetch request is successfully handled - nonce is added to the response. Request method: [${ex.request.method}] and URI [${ex.request.requestURI}].`,
    );
  }
}

/** No token can be kept while the session store is unreachable: refused as a failed validation is. */
function refuseUnavailable(rest: RestCsrf, ex: Exchange): void {
  ex.response.setHeader(HEADER, 'Required');
  ex.response.sendError(rest.denyStatus, 'CSRF nonce validation failed');
}

function sessionNonce(ex: Exchange): string | null {
  return ex.request.getSession(false)?.record.restToken ?? null;
}

async function verifyAfter(parsing: Promise<void>, rest: RestCsrf, ex: Exchange, next: NextFilter): Promise<void> {
  await parsing;
  return verify(rest, ex, next, nonceFromParameters(rest, ex));
}

/** Every X-CSRF-Token parameter value must agree; otherwise none counts. */
function nonceFromParameters(rest: RestCsrf, ex: Exchange): string | null {
  const values = ex.request.getParameterValues(HEADER);
  if (values === null || values.length === 0) return null;
  const first = values[0]!;
  for (const v of values) {
    if (v !== first) {
      if (rest.logger.isLoggable('FINE')) {
        rest.logger.fine(
          `Different CSRF nonces are sent as request parameters, none of them will be used. Request method: [${ex.request.method}] and URI [${ex.request.requestURI}].`,
        );
      }
      return null;
    }
  }
  return first;
}

function verify(rest: RestCsrf, ex: Exchange, next: NextFilter, sent: string | null): FilterResult {
  const expected = sessionNonce(ex);
  if (sent !== null && expected !== null && sent === expected) return next();
  ex.response.setHeader(HEADER, 'Required');
  ex.response.sendError(rest.denyStatus, 'CSRF nonce validation failed');
  if (rest.logger.isLoggable('FINE')) {
    const req = ex.request;
    rest.logger.fine(
      `CSRF validation for REST failed! Request with method [${req.method}] and URI [${req.requestURI}] will be rejected. Details: request has session ID [${req.requestedSessionId !== null}]; requested session exists [${req.getSession(false) !== null}]; csrf nonce in request exists [${sent !== null}]; csrf nonce in session exists [${expected !== null}].`,
    );
  }
  return undefined;
}
