/**
 * Which config type each filter id's schema gives, so a plan's filter carries its id and its config
 * paired, and the runtime's factory for that id takes exactly that config (no `any` between them).
 */
import type { AddDefaultCharsetConfig } from './add-default-charset.js';
import type { CorsConfig } from './cors.js';
import type { CsrfPreventionConfig } from './csrf-prevention.js';
import type { ExpiresConfig } from './expires.js';
import type { FailedRequestConfig } from './failed-request.js';
import type { HttpHeaderSecurityConfig } from './http-header-security.js';
import type { RateLimitConfig } from './rate-limit.js';
import type { RemoteAddrConfig } from './remote-addr.js';
import type { RemoteCidrConfig } from './remote-cidr.js';
import type { RemoteHostConfig } from './remote-host.js';
import type { RemoteIpConfig } from './remote-ip.js';
import type { RequestDumperConfig } from './request-dumper.js';
import type { RestCsrfPreventionConfig } from './rest-csrf-prevention.js';
import type { SessionInitializerConfig } from './session-initializer.js';
import type { SetCharacterEncodingConfig } from './set-character-encoding.js';
import type { FilterSpec } from './spec.js';
import type { WebdavFixConfig } from './webdav-fix.js';

/** The validated config of each filter, by its spec's id (`FilterSpec.id`). */
export interface FilterConfigs {
  'add-default-charset': AddDefaultCharsetConfig;
  cors: CorsConfig;
  'csrf-prevention': CsrfPreventionConfig;
  'rest-csrf-prevention': RestCsrfPreventionConfig;
  expires: ExpiresConfig;
  'failed-request': FailedRequestConfig;
  'http-header-security': HttpHeaderSecurityConfig;
  'remote-addr': RemoteAddrConfig;
  'remote-host': RemoteHostConfig;
  'remote-cidr': RemoteCidrConfig;
  'remote-ip': RemoteIpConfig;
  'request-dumper': RequestDumperConfig;
  'session-initializer': SessionInitializerConfig;
  'set-character-encoding': SetCharacterEncodingConfig;
  'webdav-fix': WebdavFixConfig;
  'rate-limit': RateLimitConfig;
}

/** A filter id tollgate runs (`cors`, `remote-ip`, ...). */
export type FilterId = keyof FilterConfigs;

/** One filter a context runs: its names, its id, and the config its id's schema gave. */
export type PlannedFilter<K extends FilterId = FilterId> = {
  [I in K]: { filterName: string; className: string; specId: I; config: FilterConfigs[I] };
}[K];

/**
 * The planned filter of a definition validated with `spec`: `config` is what `spec.schema` gave, and
 * every spec's id is a FilterId (test/runtime/filters/index.test.ts), so the pair is one of PlannedFilter's.
 */
export function plannedFilter(filterName: string, className: string, spec: FilterSpec, config: unknown): PlannedFilter {
  return { filterName, className, specId: spec.id, config } as PlannedFilter;
}
