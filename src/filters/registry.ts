/** The table of filters tollgate knows, by class name and id. */
import type { FilterSpec } from './spec.js';
import { spec as addDefaultCharset } from './add-default-charset.js';
import { spec as cors } from './cors.js';
import { spec as csrfPrevention } from './csrf-prevention.js';
import { spec as expires } from './expires.js';
import { spec as failedRequest } from './failed-request.js';
import { spec as httpHeaderSecurity } from './http-header-security.js';
import { spec as rateLimit } from './rate-limit.js';
import { spec as remoteAddr } from './remote-addr.js';
import { spec as remoteCidr } from './remote-cidr.js';
import { spec as remoteHost } from './remote-host.js';
import { spec as remoteIp } from './remote-ip.js';
import { spec as requestDumper } from './request-dumper.js';
import { spec as restCsrfPrevention } from './rest-csrf-prevention.js';
import { spec as sessionInitializer } from './session-initializer.js';
import { spec as setCharacterEncoding } from './set-character-encoding.js';
import { spec as webdavFix } from './webdav-fix.js';

/** Every filter tollgate knows, one spec each: the fifteen of the spec plus RateLimitFilter. */
export const FILTER_SPECS: readonly FilterSpec[] = [
  addDefaultCharset,
  cors,
  csrfPrevention,
  restCsrfPrevention,
  expires,
  failedRequest,
  httpHeaderSecurity,
  remoteAddr,
  remoteHost,
  remoteCidr,
  remoteIp,
  requestDumper,
  sessionInitializer,
  setCharacterEncoding,
  webdavFix,
  rateLimit,
] as readonly FilterSpec[];

const byClass = new Map<string, FilterSpec>();
for (const s of FILTER_SPECS) for (const c of s.classNames) byClass.set(c, s);

/** The spec of a filter class (org.apache.catalina.filters.* or org.vendor.container.filters.*), if tollgate knows it. */
export function findFilterSpec(className: string): FilterSpec | undefined {
  return byClass.get(className.trim());
}

/** The spec with this id (`cors`, `remote-ip`, ...). */
export function filterSpecById(id: string): FilterSpec | undefined {
  return FILTER_SPECS.find((s) => s.id === id);
}
