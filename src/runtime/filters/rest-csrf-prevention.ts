/**
 * RestCsrfPreventionFilter: a GET, HEAD or OPTIONS with `X-CSRF-Token: Fetch`
 * gets the session's nonce (created with the session when missing) in the
 * X-CSRF-Token response header; any other method must send that nonce in
 * the X-CSRF-Token header, or, on pathsAcceptingParams only, as the
 * X-CSRF-Token parameter. Otherwise: `X-CSRF-Token: Required` and denyStatus.
 */
import type { RestCsrfPreventionConfig } from '../../filters/rest-csrf-prevention.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';
import { generateNonce } from './csrf-prevention.js';
import { firstHeader } from './support.js';

/** Session attribute holding the REST nonce (Constants.CSRF_REST_NONCE_SESSION_ATTR_NAME). */
export const CSRF_REST_NONCE_SESSION_ATTR = 'org.apache.catalina.filters.CSRF_REST_NONCE';
const HEADER = 'X-CSRF-Token';
const HEADER_KEY = 'x-csrf-token';

interface RestCsrf {
  readonly denyStatus: number;
  readonly pathsAcceptingParams: ReadonlySet<string>;
  readonly logger: Logger;
}

export const create: RuntimeFilterFactory<RestCsrfPreventionConfig> = (config, ctx) => {
  const rest: RestCsrf = { denyStatus: config.denyStatus, pathsAcceptingParams: new Set(config.pathsAcceptingParams), logger: ctx.logger };
  return { name: 'RestCsrfPreventionFilter', doFilter: (ex, next) => filter(rest, ex, next) };
};

function filter(rest: RestCsrf, ex: Exchange, next: NextFilter): FilterResult {
  const method = ex.request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    fetchNonce(rest, ex);
    return next();
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

/** Answers `X-CSRF-Token: Fetch` (any case) with the session's nonce; other requests pass untouched. */
function fetchNonce(rest: RestCsrf, ex: Exchange): void {
  const asked = firstHeader(ex, HEADER_KEY);
  if (asked === null || asked.toLowerCase() !== 'fetch') return;
  let nonce = sessionNonce(ex);
  if (nonce === null) {
    nonce = generateNonce();
    ex.request.getSession(true)!.setAttribute(CSRF_REST_NONCE_SESSION_ATTR, nonce);
  }
  ex.response.setHeader(HEADER, nonce);
  if (rest.logger.isLoggable('FINE')) {
    rest.logger.fine(`CSRF Fetch request is successfully handled - nonce is added to the response. Request method: [${ex.request.method}] and URI [${ex.request.requestURI}].`);
  }
}

function sessionNonce(ex: Exchange): string | null {
  const v = ex.request.getSession(false)?.getAttribute(CSRF_REST_NONCE_SESSION_ATTR);
  return typeof v === 'string' ? v : null;
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
        rest.logger.fine(`Different CSRF nonces are sent as request parameters, none of them will be used. Request method: [${ex.request.method}] and URI [${ex.request.requestURI}].`);
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
