/**
 * ExpiresFilter: just before the headers of a GET or HEAD response go out
 * (however they are sent), adds `Expires` and a `max-age` Cache-Control
 * directive computed from the rule for its content type.
 *
 * The modification base reads the `Last-Modified` response header (an HTTP
 * date, as the static servlet writes it); a response without one gets no
 * expiration headers, as the spec says. Tomcat 10.1 itself only notices a
 * Last-Modified set with setDateHeader and otherwise counts from now.
 * A 304 without content type gets its type from the file name when the
 * server provides `settings.mimeType`, as Tomcat does for the static servlet.
 */
import type { ExpiresConfig, ExpiresRule } from '../../filters/expires.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterInitContext, RuntimeFilter, RuntimeFilterFactory } from '../types.js';
import { mimeLookupOf, type MimeLookup } from './support.js';
import { parseHttpDate } from '../../protocol/http-date.js';
import { httpDate } from '../http-date.js';

interface Expires {
  /**
   * For rules counted from the access time in seconds, minutes and hours only, the elapsed time they add (ms):
   * the max-age is then the same on every request, and its directive is built once.
   */
  readonly fixed: ReadonlyMap<ExpiresRule, { readonly ms: number; readonly maxAge: string }>;
  readonly excluded: ReadonlySet<number>;
  readonly byType: ReadonlyMap<string, ExpiresRule>;
  readonly defaultRule: ExpiresRule | null;
  readonly logger: Logger;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly mimeType: MimeLookup;
}

export const create: RuntimeFilterFactory<ExpiresConfig> = (config, ctx) => createExpires(config, ctx, Date.now);

/** The factory with an injectable clock (tests, and servers that share one). */
export function createExpires(config: ExpiresConfig, ctx: FilterInitContext, now: () => number): RuntimeFilter {
  const logger = ctx.logger;
  const byType = new Map<string, ExpiresRule>();
  // The schema keys rules as Tomcat does (trimmed, lower-cased content type).
  for (const [type, rule] of Object.entries(config.byType)) byType.set(type, rule);
  const fixed = new Map<ExpiresRule, { ms: number; maxAge: string }>();
  for (const rule of [...byType.values(), config.defaultRule]) {
    const ms = rule === null || rule.base !== 'access' ? null : elapsedMs(rule);
    // expires - now is then exactly ms (whole milliseconds well inside 2^53), as expirationOf and beforeCommit compute it.
    if (ms !== null) fixed.set(rule!, { ms, maxAge: `max-age=${Math.trunc(ms / 1000)}` });
  }
  const state: Expires = {
    fixed,
    excluded: new Set(config.excludedStatusCodes),
    byType,
    defaultRule: config.defaultRule,
    logger,
    now,
    mimeType: mimeLookupOf(ctx),
  };
  if (logger.isLoggable('FINE')) logger.fine(`Filter initialized with configuration [${describe(state)}]`);
  return {
    name: 'ExpiresFilter',
    doFilter(ex, next) {
      if (!ex.response.onBeforeCommit(beforeCommit, state) && logger.isLoggable('FINE')) {
        logger.fine(`Request [${ex.request.requestURL}], cannot apply ExpiresFilter on already committed response.`);
      }
      return next();
    },
  };
}

function beforeCommit(ex: Exchange, state: Expires): void {
  const res = ex.response;
  const method = ex.request.method;
  const log = state.logger.isLoggable('FINE') ? state.logger : null;
  const uri = ex.request.requestURI;
  if (method !== 'GET' && method !== 'HEAD') {
    log?.fine(`Request [${uri}] with request method [${method}], non-cacheable method`);
    return;
  }
  const status = res.status;
  if (res.error !== null || res.redirected !== null) {
    // Tomcat's response counts as committed for the application once sendError or sendRedirect was called:
    // headers the filter sets after the chain are ignored, so an error page or a redirect never gets Expires
    // (observed on 10.1.60: a default-servlet 404, and the directory redirect /dir -> /dir/).
    log?.fine(
      `Request [${uri}] with response status [${status}], ${res.error !== null ? 'an error page (sendError)' : 'a redirect (sendRedirect)'}: no expiration header`,
    );
    return;
  }
  let contentType = res.getContentType();
  if (contentType === null && status === 304) {
    // The static servlet sends no content type with a 304; Tomcat looks it up from the file name.
    const path = ex.request.servletPath;
    contentType = state.mimeType(path.slice(path.lastIndexOf('/') + 1));
  }
  // The lines joined with ',' (what getHeaders('cache-control').join(',') gives), null when there are none.
  const cc = res.joinedHeader('cache-control');
  if (res.headers.has('expires') || (cc !== null && cc.includes('max-age'))) {
    log?.fine(
      `Request [${uri}] with response status [${status}] content-type [${contentType}], Expires header already defined`,
    );
    return;
  }
  if (cc !== null && cc.includes('no-store')) {
    log?.fine(
      `Request [${uri}] with response status [${status}] content-type [${contentType}], Cache-Control: no-store header already defined`,
    );
    return;
  }
  if (state.excluded.has(status)) {
    log?.fine(
      `Request [${uri}] with response status [${status}] content-type [${contentType}], skip expiration header generation for given status`,
    );
    return;
  }
  const rule = ruleFor(state, contentType === null ? null : contentType.toLowerCase());
  if (rule === null) {
    log?.fine(
      `Request [${uri}] with response status [${status}] content-type [${contentType}], no expiration configured`,
    );
    return;
  }
  const now = state.now();
  const fixed = state.fixed.get(rule);
  // A whole-millisecond clock inside 2^52 keeps now + ms exact (an injected clock may return anything).
  if (fixed !== undefined && Number.isInteger(now) && Math.abs(now) < 2 ** 52) {
    const expires = now + fixed.ms;
    log?.fine(
      `Request [${uri}] with response status [${status}] content-type [${contentType}], set expiration date [${new Date(expires).toUTCString()}]`,
    );
    res.setHeaderNamed('Cache-Control', 'cache-control', cc === null ? fixed.maxAge : `${cc}, ${fixed.maxAge}`);
    res.setHeaderNamed('Expires', 'expires', httpDate(expires));
    return;
  }
  let base = now;
  if (rule.base === 'modification') {
    const header = res.getHeader('last-modified');
    const lastModified = header === null ? null : parseHttpDate(header);
    if (lastModified === null) {
      log?.fine(
        `Request [${uri}] with response status [${status}] content-type [${contentType}], no Last-Modified for a modification rule: no expiration header`,
      );
      return;
    }
    base = lastModified;
  }
  const expires = expirationOf(rule, base);
  log?.fine(
    `Request [${uri}] with response status [${status}] content-type [${contentType}], set expiration date [${new Date(expires).toUTCString()}]`,
  );
  // Java's long division truncates toward zero; a date in the past gives a negative max-age, as in Tomcat.
  const maxAge = `max-age=${Math.trunc((expires - now) / 1000)}`;
  res.setHeaderNamed('Cache-Control', 'cache-control', cc === null ? maxAge : `${cc}, ${maxAge}`);
  res.setHeaderNamed('Expires', 'expires', httpDate(expires));
}

/** The rule for a (lower-cased) content type: exact, then without parameters, then the major type, then the default. */
function ruleFor(state: Expires, contentType: string | null): ExpiresRule | null {
  if (contentType !== null) {
    const exact = state.byType.get(contentType);
    if (exact !== undefined) return exact;
    const semi = contentType.indexOf(';');
    if (semi >= 0) {
      const bare = state.byType.get(contentType.slice(0, semi).trim());
      if (bare !== undefined) return bare;
    }
    const slash = contentType.indexOf('/');
    if (slash >= 0) {
      const major = state.byType.get(contentType.slice(0, slash));
      if (major !== undefined) return major;
    }
  }
  return state.defaultRule;
}

/** The elapsed time of a rule made of seconds, minutes and hours only (whole ms, safely below 2^53); null otherwise. */
function elapsedMs(rule: Pick<ExpiresRule, 'durations'>): number | null {
  let ms = 0;
  for (const { amount, unit } of rule.durations) {
    const step = unit === 'second' ? 1000 : unit === 'minute' ? 60_000 : unit === 'hour' ? 3_600_000 : null;
    if (step === null) return null;
    ms += amount * step;
    // Summed apart from the clock, the total must stay exact, as the running sum of expirationOf does.
    if (!Number.isSafeInteger(ms) || Math.abs(ms) > 2 ** 50) return null;
  }
  return ms;
}

/**
 * Adds the durations as java.util.Calendar.add does in the server's time
 * zone: seconds, minutes and hours as elapsed time; days and weeks on the
 * wall clock; months and years pinned to the last day of a shorter month.
 */
export function expirationOf(rule: Pick<ExpiresRule, 'durations'>, base: number): number {
  let t = base;
  for (const { amount, unit } of rule.durations) {
    switch (unit) {
      case 'second':
        t += amount * 1000;
        break;
      case 'minute':
        t += amount * 60_000;
        break;
      case 'hour':
        t += amount * 3_600_000;
        break;
      case 'day':
      case 'week': {
        const d = new Date(t);
        d.setDate(d.getDate() + (unit === 'week' ? amount * 7 : amount));
        t = d.getTime();
        break;
      }
      case 'month':
      case 'year': {
        const d = new Date(t);
        const day = d.getDate();
        d.setDate(1);
        d.setMonth(d.getMonth() + (unit === 'year' ? amount * 12 : amount));
        const lastDay = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
        d.setDate(Math.min(day, lastDay));
        t = d.getTime();
        break;
      }
    }
  }
  return t;
}

function describeRule(rule: ExpiresRule | null): string {
  if (rule === null) return 'null';
  const point = rule.base === 'access' ? 'ACCESS_TIME' : 'LAST_MODIFICATION_TIME';
  return `ExpiresConfiguration[startingPoint=${point}, duration=[${rule.durations.map((d) => `${d.amount} ${d.unit.toUpperCase()}`).join(', ')}]]`;
}

/** ExpiresFilter.toString, for the start-up log line. */
function describe(state: Expires): string {
  const byType = [...state.byType].map(([type, rule]) => `${type}=${describeRule(rule)}`).join(', ');
  return `ExpiresFilter[excludedResponseStatusCode=[${[...state.excluded].join(', ')}], default=${describeRule(state.defaultRule)}, byType={${byType}}]`;
}
