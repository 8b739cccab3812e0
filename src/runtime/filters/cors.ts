/**
 * CorsFilter: classifies each request as Tomcat's CorsFilter.checkRequestType
 * does, answers pre-flights itself, adds Access-Control-* headers to allowed
 * cross-origin requests and refuses invalid or disallowed ones with an empty
 * 403 (text/plain, no error page, as Tomcat sends it).
 */
import type { CorsConfig } from '../../filters/cors.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterResult, NextFilter, RuntimeFilter, RuntimeFilterFactory } from '../types.js';
import { isValidOrigin } from './java-uri.js';
import { addHeaderNamed, addVaryFieldName, firstHeader } from './support.js';

/** The request types of CorsFilter.CORSRequestType; the request attribute holds them lower-cased. */
export type CorsRequestType = 'SIMPLE' | 'ACTUAL' | 'PRE_FLIGHT' | 'NOT_CORS' | 'INVALID_CORS';

export const ATTR_IS_CORS_REQUEST = 'cors.isCorsRequest';
export const ATTR_ORIGIN = 'cors.request.origin';
export const ATTR_REQUEST_TYPE = 'cors.request.type';
export const ATTR_REQUEST_HEADERS = 'cors.request.headers';

const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const MEDIA_TYPE = /^([!#$%&'*+.^_`|~0-9a-z-]+)[ \t]*\/[ \t]*([!#$%&'*+.^_`|~0-9a-z-]+)$/;

interface Cors {
  readonly anyOrigin: boolean;
  readonly origins: ReadonlySet<string>;
  readonly methods: ReadonlySet<string>;
  readonly headers: ReadonlySet<string>;
  readonly allowCredentials: boolean;
  /** Header values joined once; null when the header is not sent. */
  readonly exposeHeaders: string | null;
  readonly allowMethods: string | null;
  readonly allowHeaders: string | null;
  readonly maxAge: string | null;
  readonly decorate: boolean;
  readonly logger: Logger;
}

export const create: RuntimeFilterFactory<CorsConfig> = (config, ctx) => {
  const cors: Cors = {
    anyOrigin: config.anyOrigin,
    origins: new Set(config.allowedOrigins),
    methods: new Set(config.allowedMethods),
    // The schema lower-cases allowed headers; requested ones are lower-cased per request.
    headers: new Set(config.allowedHeaders),
    allowCredentials: config.supportsCredentials,
    exposeHeaders: config.exposedHeaders.length > 0 ? config.exposedHeaders.join(',') : null,
    allowMethods: config.allowedMethods.length > 0 ? config.allowedMethods.join(',') : null,
    allowHeaders: config.allowedHeaders.length > 0 ? config.allowedHeaders.join(',') : null,
    maxAge: config.preflightMaxAge > 0 ? String(config.preflightMaxAge) : null,
    decorate: config.decorateRequest,
    logger: ctx.logger,
  };
  return {
    name: 'CorsFilter',
    doFilter: (ex, next) => filter(cors, ex, next),
  } satisfies RuntimeFilter;
};

function filter(cors: Cors, ex: Exchange, next: NextFilter): FilterResult {
  // The Origin header is read once: every step below asks for the same first line.
  const origin = firstHeader(ex, 'origin');
  const type = classify(ex, origin);
  if (cors.decorate) decorate(ex, type, origin);
  switch (type) {
    case 'SIMPLE':
    case 'ACTUAL':
      return handleActual(cors, ex, next, origin!);
    case 'PRE_FLIGHT':
      handlePreflight(cors, ex, origin!);
      return undefined;
    case 'NOT_CORS':
      // A response that depends on the origin list must not be cached for every origin.
      if (!cors.anyOrigin) addVaryFieldName(ex.response, 'Origin');
      return next();
    default:
      refuse(cors, ex);
      return undefined;
  }
}

/** CorsFilter.checkRequestType: the same decisions in the same order. */
export function classifyCorsRequest(ex: Exchange): CorsRequestType {
  return classify(ex, firstHeader(ex, 'origin'));
}

function classify(ex: Exchange, origin: string | null): CorsRequestType {
  if (origin === null) return 'NOT_CORS';
  if (origin === '' || !isValidOrigin(origin)) return 'INVALID_CORS';
  if (isSameOrigin(ex, origin)) return 'NOT_CORS';
  const method = ex.request.method;
  if (method === 'OPTIONS') {
    const acrm = firstHeader(ex, 'access-control-request-method');
    if (acrm === null) return 'ACTUAL';
    return acrm === '' ? 'INVALID_CORS' : 'PRE_FLIGHT';
  }
  if (method === 'GET' || method === 'HEAD') return 'SIMPLE';
  if (method === 'POST') {
    const ct = ex.request.contentType;
    if (ct === null) return 'SIMPLE';
    const semi = ct.indexOf(';');
    const m = MEDIA_TYPE.exec((semi < 0 ? ct : ct.slice(0, semi)).trim().toLowerCase());
    // Tomcat treats a content type it cannot parse like an absent one.
    if (m === null || SIMPLE_CONTENT_TYPES.has(`${m[1]}/${m[2]}`)) return 'SIMPLE';
  }
  return 'ACTUAL';
}

/**
 * RequestUtil.isSameOrigin: Origin against scheme://serverName[:port], the
 * port added unless Origin is exactly as long as scheme://host and the port
 * is the scheme's default; compared case-sensitively.
 */
function isSameOrigin(ex: Exchange, origin: string): boolean {
  const scheme = ex.request.scheme.toLowerCase();
  const serverName = ex.request.serverName;
  // origin is compared with scheme://serverName and then :port piece by piece, without building either string.
  const hostEnd = scheme.length + 3 + serverName.length;
  if (
    origin.length < hostEnd ||
    !origin.startsWith(scheme) ||
    !origin.startsWith('://', scheme.length) ||
    !origin.startsWith(serverName, scheme.length + 3)
  )
    return false;
  const port = ex.request.serverPort;
  if (origin.length === hostEnd) {
    const nonDefault =
      ((scheme === 'http' || scheme === 'ws') && port !== 80) ||
      ((scheme === 'https' || scheme === 'wss') && port !== 443);
    return !nonDefault;
  }
  // V8 keeps the strings of recently printed numbers, so String(port) is rarely built anew.
  const digits = String(port);
  return origin.charCodeAt(hostEnd) === 58 && origin.length === hostEnd + 1 + digits.length && origin.endsWith(digits);
}

/** The cors.request.type attribute: the type's name lower-cased. */
const TYPE_ATTRIBUTE: Readonly<Record<CorsRequestType, string>> = {
  SIMPLE: 'simple',
  ACTUAL: 'actual',
  PRE_FLIGHT: 'pre_flight',
  NOT_CORS: 'not_cors',
  INVALID_CORS: 'invalid_cors',
};

function decorate(ex: Exchange, type: CorsRequestType, origin: string | null): void {
  const req = ex.request;
  switch (type) {
    case 'SIMPLE':
    case 'ACTUAL':
    case 'PRE_FLIGHT':
      req.setAttribute(ATTR_IS_CORS_REQUEST, true);
      req.setAttribute(ATTR_ORIGIN, origin);
      req.setAttribute(ATTR_REQUEST_TYPE, TYPE_ATTRIBUTE[type]);
      if (type === 'PRE_FLIGHT')
        req.setAttribute(ATTR_REQUEST_HEADERS, firstHeader(ex, 'access-control-request-headers') ?? '');
      return;
    case 'NOT_CORS':
      req.setAttribute(ATTR_IS_CORS_REQUEST, false);
      return;
    default:
      return;
  }
}

function handleActual(cors: Cors, ex: Exchange, next: NextFilter, origin: string): FilterResult {
  if (!originAllowed(cors, origin) || !cors.methods.has(ex.request.method)) {
    refuse(cors, ex);
    return undefined;
  }
  addStandardHeaders(cors, ex, origin);
  return next();
}

/** Answers a pre-flight without calling the rest of the chain. */
function handlePreflight(cors: Cors, ex: Exchange, origin: string): void {
  if (!originAllowed(cors, origin)) return refuse(cors, ex);
  const method = firstHeader(ex, 'access-control-request-method');
  if (method === null || !cors.methods.has(method.trim())) return refuse(cors, ex);
  const requested = firstHeader(ex, 'access-control-request-headers');
  if (requested !== null && requested.trim() !== '') {
    const names = requested.trim().split(',');
    // String.split drops trailing empty pieces; an empty piece elsewhere is a name that is never allowed.
    let end = names.length;
    while (end > 0 && names[end - 1] === '') end--;
    for (let i = 0; i < end; i++) {
      if (!cors.headers.has(names[i]!.trim().toLowerCase())) return refuse(cors, ex);
    }
  }
  addStandardHeaders(cors, ex, origin);
}

function originAllowed(cors: Cors, origin: string): boolean {
  return cors.anyOrigin || cors.origins.has(origin);
}

function addStandardHeaders(cors: Cors, ex: Exchange, origin: string): void {
  const res = ex.response;
  if (!cors.anyOrigin) addVaryFieldName(res, 'Origin');
  // The echoed origin is one of the configured ones, so it cannot carry CR/LF.
  addHeaderNamed(res, 'Access-Control-Allow-Origin', 'access-control-allow-origin', cors.anyOrigin ? '*' : origin);
  if (cors.allowCredentials)
    addHeaderNamed(res, 'Access-Control-Allow-Credentials', 'access-control-allow-credentials', 'true');
  if (cors.exposeHeaders !== null)
    addHeaderNamed(res, 'Access-Control-Expose-Headers', 'access-control-expose-headers', cors.exposeHeaders);
  if (ex.request.method === 'OPTIONS') {
    addVaryFieldName(res, 'Access-Control-Request-Method');
    addVaryFieldName(res, 'Access-Control-Request-Headers');
    if (cors.maxAge !== null) addHeaderNamed(res, 'Access-Control-Max-Age', 'access-control-max-age', cors.maxAge);
    if (cors.allowMethods !== null)
      addHeaderNamed(res, 'Access-Control-Allow-Methods', 'access-control-allow-methods', cors.allowMethods);
    if (cors.allowHeaders !== null)
      addHeaderNamed(res, 'Access-Control-Allow-Headers', 'access-control-allow-headers', cors.allowHeaders);
  }
}

/** handleInvalidCORS: 403, text/plain, empty body; the chain stops here. */
function refuse(cors: Cors, ex: Exchange): void {
  const res = ex.response;
  res.setContentType('text/plain');
  res.status = 403;
  if (cors.logger.isLoggable('FINE')) {
    cors.logger.fine(
      `Invalid CORS request; Origin [${firstHeader(ex, 'origin')}] Method [${ex.request.method}] Access-Control-Request-Headers [${firstHeader(ex, 'access-control-request-headers')}]`,
    );
  }
}
