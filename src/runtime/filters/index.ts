/**
 * The runtime side of every container filter, keyed by the id its schema has
 * in src/filters (`cors`, `remote-ip`, ...): the compiler wires declarations
 * `{ filterName, className, factory: FILTER_FACTORIES[id], config }`.
 */
import type { FilterConfigs, FilterId } from '../../filters/configs.js';
import type { RuntimeFilterFactory } from '../types.js';
import { create as addDefaultCharset } from './add-default-charset.js';
import { create as cors } from './cors.js';
import { create as csrfPrevention } from './csrf-prevention.js';
import { create as expires } from './expires.js';
import { create as failedRequest } from './failed-request.js';
import { create as httpHeaderSecurity } from './http-header-security.js';
import { create as rateLimit } from './rate-limit.js';
import { create as remoteAddr } from './remote-addr.js';
import { create as remoteCidr } from './remote-cidr.js';
import { create as remoteHost } from './remote-host.js';
import { create as remoteIp } from './remote-ip.js';
import { create as requestDumper } from './request-dumper.js';
import { create as restCsrfPrevention } from './rest-csrf-prevention.js';
import { create as sessionInitializer } from './session-initializer.js';
import { create as setCharacterEncoding } from './set-character-encoding.js';
import { create as webdavFix } from './webdav-fix.js';

/** Factory by filter id (the sixteen of src/filters), each taking the config its id's schema gives. */
export const FILTER_FACTORIES: { readonly [K in FilterId]: RuntimeFilterFactory<FilterConfigs[K]> } = {
  'add-default-charset': addDefaultCharset,
  cors,
  'csrf-prevention': csrfPrevention,
  'rest-csrf-prevention': restCsrfPrevention,
  expires,
  'failed-request': failedRequest,
  'http-header-security': httpHeaderSecurity,
  'remote-addr': remoteAddr,
  'remote-host': remoteHost,
  'remote-cidr': remoteCidr,
  'remote-ip': remoteIp,
  'request-dumper': requestDumper,
  'session-initializer': sessionInitializer,
  'set-character-encoding': setCharacterEncoding,
  'webdav-fix': webdavFix,
  'rate-limit': rateLimit,
};

export { classifyCorsRequest, type CorsRequestType } from './cors.js';
export { REMOTE_IP_ATTRIBUTES, hostPortIndex } from './remote-ip.js';
export { createExpires, expirationOf } from './expires.js';
export { CSRF_NONCE_REQUEST_ATTR, addNonce, generateNonce, removeQueryParameters } from './csrf-prevention.js';
export { RATE_LIMIT_ATTRIBUTE_COUNT, createRateLimit, rateWindow, type RateWindow } from './rate-limit.js';
export type { MimeLookup } from './support.js';
