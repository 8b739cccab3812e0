/**
 * RateLimitFilter: counts requests per remote address in fixed windows and,
 * over the limit, answers statusCode with statusMessage (or, with
 * enforce=false, only logs). FastRateLimiter's windows are a power of two
 * milliseconds long (60 s becomes 65.536 s) and its limit is scaled by the
 * same ratio (300 becomes 328); ExactRateLimiter keeps both as configured.
 */
import type { RateLimitConfig } from '../../filters/rate-limit.js';
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import { MemoryRateLimitStore } from '../memory-state.js';
import { isPromise, type Awaitable, type RateLimitStore } from '../state.js';
import type { FilterInitContext, FilterResult, NextFilter, RuntimeFilter, RuntimeFilterFactory } from '../types.js';

/** Request attribute with this request's count in its window. */
export const RATE_LIMIT_ATTRIBUTE_COUNT = 'org.apache.catalina.filters.RateLimitFilter.Count';

/** The window arithmetic of one limiter. */
export interface RateWindow {
  /** Window length in whole seconds, as RateLimit-Policy reports it. */
  readonly duration: number;
  /** Requests allowed per window. */
  readonly requests: number;
  /** Which window a time (ms since the epoch) falls in. */
  bucketOf(time: number): number;
  /** How long a window is, in ms (a store keeps a count at least this long). */
  readonly widthMs: number;
}

// Java int helpers: the arithmetic below overflows exactly as FastRateLimiter's does.
function highestOneBit(v: number): number {
  return v === 0 ? 0 : (1 << (31 - Math.clz32(v))) | 0;
}

function nextPowerOf2(v: number): number {
  const high = highestOneBit(v);
  return high === v ? v : (high << 1) | 0;
}

/** TimeBucketCounter and RateLimiterBase for FastRateLimiter (power-of-two windows) or ExactRateLimiter. */
export function rateWindow(limiter: 'fast' | 'exact', durationSeconds: number, requests: number): RateWindow {
  if (limiter === 'exact') {
    return {
      duration: durationSeconds,
      requests,
      widthMs: durationSeconds * 1000,
      bucketOf: (t) => Math.floor(Math.floor(t / 1000) / durationSeconds),
    };
  }
  const millis = Math.imul(durationSeconds, 1000);
  const pof2 = nextPowerOf2(millis);
  let bits = 0;
  for (let check = pof2; check > 1;) check = pof2 >> ++bits;
  const width = 2 ** bits;
  const ratio = Math.round((1000 * pof2) / millis) / 1000;
  return {
    duration: Math.trunc((width | 0) / 1000),
    requests: Math.round(ratio * requests),
    widthMs: width,
    bucketOf: (t) => Math.floor(t / width),
  };
}

let policyIndex = 0;

export const create: RuntimeFilterFactory<RateLimitConfig> = (config, ctx) => createRateLimit(config, ctx, Date.now);

/**
 * The factory with an injectable clock (ms since the epoch). Counts go to the
 * context's store (`ctx.stores`), in memory when none is given. When the
 * store cannot count, the request is refused with statusCode (fail closed),
 * or let through when the store says `failOpen`.
 */
export function createRateLimit(config: RateLimitConfig, ctx: FilterInitContext, clock: () => number): RuntimeFilter {
  const window = rateWindow(config.limiter, config.bucketDuration, config.bucketRequests);
  const logger: Logger = ctx.logger;
  const prefix = config.limiter === 'exact' ? 'exact' : 'fast';
  const store: RateLimitStore = ctx.stores?.rateLimiter(ctx.filterName) ?? new MemoryRateLimitStore();
  const limiter: Limiter = {
    config,
    window,
    logger,
    filterName: ctx.filterName,
    store,
    policyName: config.policyName,
    policy: null,
    prefix,
  };
  logger.info(
    `RateLimitFilter [${ctx.filterName}] initialized with [${config.bucketRequests}] requests per [${config.bucketDuration}] seconds. Actual is [${window.requests}] per [${window.duration}] seconds. [${config.enforce ? '' : 'Not '}enforcing].`,
  );
  return {
    name: 'RateLimitFilter',
    doFilter(ex, next) {
      const addr = ex.request.remoteAddr;
      let count: Awaitable<number>;
      try {
        count = store.increment(addr, window.bucketOf(clock()), window.widthMs);
      } catch {
        return unavailable(limiter, ex, next);
      }
      if (!isPromise(count)) return decide(limiter, ex, next, addr, count);
      return count.then(
        (n) => decide(limiter, ex, next, addr, n),
        () => unavailable(limiter, ex, next),
      );
    },
    destroy() {
      store.close();
    },
  };
}

interface Limiter {
  readonly config: RateLimitConfig;
  readonly window: RateWindow;
  readonly logger: Logger;
  readonly filterName: string;
  readonly store: RateLimitStore;
  readonly prefix: string;
  policyName: string | null;
  policy: string | null;
}

function decide(l: Limiter, ex: Exchange, next: NextFilter, addr: string, count: number): FilterResult {
  const { config, window } = l;
  ex.request.setAttribute(RATE_LIMIT_ATTRIBUTE_COUNT, count);
  if (config.exposeHeaders) {
    // Like RateLimiterBase, the generated name is taken on first use.
    l.policyName ??= `${l.prefix}-${++policyIndex}`;
    l.policy ??= `"${l.policyName}";q=${window.requests};w=${window.duration}`;
    ex.response.addHeader('RateLimit-Policy', l.policy);
    if (config.enforce) {
      const remaining = count < 0 || count > window.requests ? 0 : window.requests - count;
      ex.response.addHeader('RateLimit', `"${l.policyName}";r=${remaining}`);
    }
  }
  if (count > window.requests) {
    l.logger.warning(
      `[${l.filterName}] [${count}] Requests from [${addr}] have exceeded the maximum allowed of [${window.requests}] in a [${window.duration}] second window.`,
    );
    if (config.enforce) {
      ex.response.sendError(config.statusCode, config.statusMessage);
      return undefined;
    }
  }
  return next();
}

/** The store could not count this request (it logs the outage once): refuse as over the limit, unless it fails open. */
function unavailable(l: Limiter, ex: Exchange, next: NextFilter): FilterResult {
  if (l.store.failOpen === true || !l.config.enforce) return next();
  ex.response.sendError(l.config.statusCode, l.config.statusMessage);
  return undefined;
}
