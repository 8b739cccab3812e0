/**
 * The in-process implementations of the state interfaces (src/runtime/state.ts):
 * the default of every context and realm, and what one process needs.
 */
import { getLogger } from './logging.js';
import { MemorySessionStore } from './session.js';
import type {
  ContextStoreOptions,
  ContextStores,
  LockoutPolicy,
  LockoutRecord,
  LockoutStore,
  RateLimitStore,
  StateBackend,
} from './state.js';

/** One RateLimitFilter's counts of the current window; a new window forgets the last at once. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, number>();
  private current = Number.NaN;

  increment(key: string, window: number, _windowMs: number): number {
    if (window !== this.current) {
      // Only the current window is counted, so older counts can go at once.
      this.counts.clear();
      this.current = window;
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  close(): void {
    this.counts.clear();
  }
}

export interface MemoryLockoutStoreOptions {
  /** Users whose failures are remembered (LockOutRealm cacheSize, default 1000); locked users stay until their lock expires. */
  cacheSize?: number;
  /** Seconds a lock lasts, for telling recent records from old ones when the table is trimmed (default 300). */
  lockOutTime?: number;
  /** Failures that lock (default 5): records holding a lock are never dropped. */
  failureCount?: number;
}

const lockoutLogger = getLogger('org.apache.catalina.realm.LockOutRealm');

interface MutableLockRecord {
  failures: number;
  lastFailure: number;
}

/**
 * LockOutRealm's failed-users table in this process, in least-recently-failed
 * order (Map iteration order; a new failure moves a record to the end).
 */
export class MemoryLockoutStore implements LockoutStore {
  private readonly failed = new Map<string, MutableLockRecord>();
  private readonly cacheSize: number;
  private readonly policy: LockoutPolicy;
  private readonly evictions = new EvictionLog();

  constructor(options: MemoryLockoutStoreOptions = {}) {
    this.cacheSize = options.cacheSize ?? 1000;
    this.policy = { failureCount: options.failureCount ?? 5, lockOutTime: options.lockOutTime ?? 300 };
  }

  get size(): number {
    return this.failed.size;
  }

  get(user: string): LockoutRecord | null {
    return this.failed.get(user) ?? null;
  }

  registerFailure(user: string, now: number, policy: LockoutPolicy): LockoutRecord {
    let rec = this.failed.get(user);
    if (rec === undefined) {
      rec = { failures: 0, lastFailure: now };
    } else {
      this.failed.delete(user);
      // A lock that has expired starts the count again.
      if (rec.failures >= policy.failureCount && Math.floor((now - rec.lastFailure) / 1000) > policy.lockOutTime)
        rec.failures = 0;
    }
    rec.failures++;
    rec.lastFailure = now;
    this.failed.set(user, rec);
    if (this.failed.size > this.cacheSize) this.shrink(now, policy);
    return rec;
  }

  clear(user: string): void {
    this.failed.delete(user);
  }

  close(): void {}

  /**
   * Brings the table back to cacheSize by dropping the least recently failed records that hold no
   * lock. Tomcat's LockOutRealm drops the eldest record whatever it holds, so 1,000 failures under other
   * names unlock a locked user; here a lock stays until it expires. Locked records can outgrow cacheSize
   * only as fast as real password checks fail (the realm never answers a failure cheaply) and each
   * leaves lockOutTime seconds after its last failure, which bounds the table by the attack's own rate.
   * An eviction of a record that failed within lockOutTime is logged, as Tomcat logs it, once per
   * burst with the count rather than once per request.
   */
  private shrink(now: number, policy: LockoutPolicy): void {
    let excess = this.failed.size - this.cacheSize;
    for (const [key, rec] of this.failed) {
      if (excess <= 0) break;
      const age = Math.floor((now - rec.lastFailure) / 1000);
      if (rec.failures >= policy.failureCount && age < policy.lockOutTime) continue;
      this.failed.delete(key);
      excess--;
      if (age < policy.lockOutTime) this.evictions.record(key, age, now);
    }
  }
}

/**
 * Tomcat logs `lockOutRealm.removeWarning` for every recent record it drops; under a flood that is a line
 * per request. This logs the first eviction of a burst as Tomcat words it, and the rest of the burst as one
 * line with the count when the next eviction comes a minute or more later (or at the minute's end).
 */
class EvictionLog {
  private windowStart = -Infinity;
  private suppressed = 0;

  record(user: string, ageSeconds: number, now: number): void {
    if (now - this.windowStart >= 60_000) {
      this.flush();
      this.windowStart = now;
      lockoutLogger.warning(
        `User [${user}] was removed from the failed users cache after [${ageSeconds}] seconds to keep the cache size within the limit set`,
      );
      return;
    }
    if (this.suppressed++ === 0) setTimeout(() => this.flush(), 60_000 - (now - this.windowStart)).unref();
  }

  private flush(): void {
    if (this.suppressed === 0) return;
    lockoutLogger.warning(
      `[${this.suppressed}] more users were removed from the failed users cache within a minute to keep the cache size within the limit set (locked users are kept until their lock expires)`,
    );
    this.suppressed = 0;
  }
}

/** Every context's and realm's state in this process: the default backend. */
export class MemoryStateBackend implements StateBackend {
  readonly name = 'memory';

  context(_host: string, _contextPath: string, options: ContextStoreOptions = {}): ContextStores {
    return memoryContextStores(
      new MemorySessionStore({ maxActiveSessions: options.maxActiveSessions ?? -1, clock: options.clock }),
    );
  }

  lockouts(_scope: string, settings: LockoutPolicy & { readonly cacheSize: number }): LockoutStore {
    return new MemoryLockoutStore(settings);
  }

  async close(): Promise<void> {}
}

/** A context's stores around a given session store, each RateLimitFilter counting in memory of its own. */
export function memoryContextStores(sessions: MemorySessionStore | ContextStores['sessions']): ContextStores {
  return { sessions, rateLimiter: () => new MemoryRateLimitStore() };
}
