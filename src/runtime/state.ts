/**
 * Where the runtime's state lives: sessions (with the CSRF filters' nonces),
 * RateLimitFilter's windows and LockOutRealm's failure table. The runtime
 * talks to these interfaces only; the memory implementations are the default
 * and a networked store (tollgate/stores/redis, or the cluster primary of
 * `serve --workers`) implements the same contracts.
 *
 * Contracts every implementation keeps:
 * - A method answers synchronously or with a promise (`Awaitable`). Memory
 *   stores answer synchronously, so a chain that needs no network never
 *   waits a tick.
 * - The operations one request issues are applied in the order issued (one
 *   connection, one channel): a `create` followed by `addNonce` finds the session.
 * - An unreachable store rejects within its own bounded timeout and never
 *   throws synchronously; the filters then refuse as they would without the
 *   state (fail closed). A store logs one line per outage and one on
 *   recovery, never one per request.
 * - Everything a store keeps expires (TTL or sweep): nothing grows without bound.
 * - A live session is never dropped to make room: a store with a limit refuses new sessions instead.
 */

/** A value, or a promise of it when the state lives outside the process. */
export type Awaitable<T> = T | Promise<T>;

/**
 * A session as data. The runtime loads it once when a request presents the
 * session cookie and writes attribute changes back before the response is
 * committed; networked stores serialise attribute values as JSON, so values
 * must survive `JSON.parse(JSON.stringify(v))` there (the memory store keeps
 * any value, as Tomcat's StandardManager does).
 */
export interface SessionRecord {
  /** 32 upper-case hex digits; changes on changeSessionId. */
  id: string;
  /** ms since the epoch. */
  readonly creationTime: number;
  /** ms since the epoch when a request last looked the session up (StandardSession's thisAccessedTime at request start). */
  lastAccessedTime: number;
  /** Seconds of inactivity before the session expires; zero or negative: never. */
  maxInactiveInterval: number;
  readonly attributes: Map<string, unknown>;
  /**
   * CsrfPreventionFilter's nonce cache, eldest first, at most its
   * nonceCacheSize long; null until the first nonce. Kept with the session
   * (Tomcat keeps it in a session attribute) so it expires, moves and goes
   * with it; appended to through `addNonce` so that concurrent requests of one
   * session on several instances lose no nonce.
   */
  nonces: string[] | null;
  /** RestCsrfPreventionFilter's token; null until a `X-CSRF-Token: Fetch`. */
  restToken: string | null;
}

/** Whether a session has been idle for its max inactive interval at `now` (StandardSession.isValid). */
export function isExpired(
  record: Pick<SessionRecord, 'lastAccessedTime' | 'maxInactiveInterval'>,
  now: number,
): boolean {
  return record.maxInactiveInterval > 0 && now - record.lastAccessedTime >= record.maxInactiveInterval * 1000;
}

/**
 * A new session refused because the context already has `<Manager maxActiveSessions>` live ones
 * (Tomcat's TooManyActiveSessionsException, an IllegalStateException: the request that needed the
 * session fails with 500).
 */
export class TooManyActiveSessionsError extends Error {
  constructor(readonly maxActiveSessions: number) {
    // ManagerBase.createSession's message (managerBase.createSession.ise).
    super('createSession: Too many active sessions');
    this.name = 'TooManyActiveSessionsError';
  }
}

/** The session options of one context a backend's stores need. */
export interface ContextStoreOptions {
  clock?: () => number;
  /** `<Manager maxActiveSessions>`: live sessions beyond which a new one is refused; negative (the default -1): no limit. */
  maxActiveSessions?: number;
}

/**
 * One context's sessions and the per-session state of its CSRF filters.
 * The nonce and token methods belong here, not to stores of their own,
 * because that state must expire, change id and be removed with its session.
 */
export interface SessionStore {
  /**
   * The session stored under `id` with its lastAccessedTime set to `now`
   * (in the same step, so its expiry is pushed back), or null when there is
   * none or it had expired before `now` (an expired one is removed).
   */
  load(id: string, now: number): Awaitable<SessionRecord | null>;
  /**
   * Stores a new session. A store with a limit (`<Manager maxActiveSessions>`) that already holds that many
   * live sessions refuses it with a TooManyActiveSessionsError (thrown, or the promise rejects): it never
   * makes room by dropping a live session, as Tomcat's ManagerBase.createSession never does.
   */
  create(record: SessionRecord): Awaitable<void>;
  /** The limit `create` enforces (`<Manager maxActiveSessions>`); absent or negative: none, `create` never refuses. */
  readonly maxActiveSessions?: number;
  /**
   * Writes what a request changed: `changes` maps attribute names to their
   * new values (`undefined`: removed), plus the record's maxInactiveInterval.
   * Attributes another request changed in between are kept.
   */
  update(record: SessionRecord, changes: ReadonlyMap<string, unknown>): Awaitable<void>;
  /** Moves a session (attributes, nonces, token) to a new id; false when it no longer exists. */
  rename(oldId: string, newId: string): Awaitable<boolean>;
  /** Removes a session (invalidate); removing one that is gone is not an error. */
  remove(id: string): Awaitable<void>;
  /** Appends a CSRF nonce to the session's cache, dropping the eldest beyond `cacheSize` (Tomcat's LruCache); nothing when the session is gone. */
  addNonce(id: string, nonce: string, cacheSize: number): Awaitable<void>;
  /** Sets the session's REST CSRF token unless it has one; returns the token it holds afterwards, or null when the session is gone. */
  restToken(id: string, fresh: string): Awaitable<string | null>;
  /** Stops background work (timers); a shared connection is closed by its owner. */
  close(): void;
}

/**
 * One RateLimitFilter's counters, in fixed windows aligned to the epoch as
 * Tomcat's TimeBucketCounter aligns them.
 */
export interface RateLimitStore {
  /**
   * Counts one request of `key` (the remote address) in window number
   * `window` (windows are `windowMs` long) and returns the count including
   * this one, in one atomic step. Counts of earlier windows may be forgotten
   * at once; a store keeps a window's count at least `windowMs`.
   */
  increment(key: string, window: number, windowMs: number): Awaitable<number>;
  /**
   * When the store cannot count (unreachable): true lets the request through,
   * false or absent refuses it as over the limit (fail closed, the default).
   */
  readonly failOpen?: boolean;
  close(): void;
}

/** A user's recent failed logins (LockOutRealm's LockRecord). */
export interface LockoutRecord {
  readonly failures: number;
  /** ms since the epoch. */
  readonly lastFailure: number;
}

/** LockOutRealm's settings as the table needs them. */
export interface LockoutPolicy {
  /** Failures in a row that lock a user. */
  readonly failureCount: number;
  /** Seconds a lock lasts after the last failure. */
  readonly lockOutTime: number;
}

/**
 * The host manager realm's failed-login table. Whatever bounds its size must
 * never drop a record that holds a lock before the lock expires (issue 25).
 */
export interface LockoutStore {
  /** The user's record, or null. Keys arrive already case-folded as the realm wants. */
  get(user: string): Awaitable<LockoutRecord | null>;
  /**
   * Counts a failure at `now` in one atomic step (a lock that has expired
   * starts the count again) and returns the record after it.
   */
  registerFailure(user: string, now: number, policy: LockoutPolicy): Awaitable<LockoutRecord>;
  /** Forgets the user's failures (a successful login). */
  clear(user: string): Awaitable<void>;
  close(): void;
}

/** The stores of one context. */
export interface ContextStores {
  readonly sessions: SessionStore;
  /** The counters of the RateLimitFilter named `filterName` (each filter counts on its own). */
  rateLimiter(filterName: string): RateLimitStore;
}

/**
 * A place for all of a server's state (memory, Redis, the cluster primary):
 * what `serve --store` selects and what a compiled module's `create` accepts.
 * Each context and realm gets stores keyed apart from every other.
 */
export interface StateBackend {
  /** A short name for logs (`memory`, `redis://127.0.0.1:6379`). */
  readonly name: string;
  /**
   * True for a store several instances (machines) share, such as Redis: what one instance changes of its
   * own configuration (a host-manager `add`) does not reach the others. Absent: this process or its primary.
   */
  readonly shared?: boolean;
  /** The stores of the context at `contextPath` (`''` for ROOT) of `host`. */
  context(host: string, contextPath: string, options?: ContextStoreOptions): ContextStores;
  /**
   * The lock-out table of the realm named `scope` (for example the engine's).
   * `cacheSize` is LockOutRealm's: a store that bounds its table by count
   * (memory) uses it; one that bounds it by TTL may not.
   */
  lockouts(scope: string, settings: LockoutPolicy & { readonly cacheSize: number }): LockoutStore;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
}

/** Whether a value is a promise (a networked store's answer) rather than the answer itself. */
export function isPromise<T>(v: Awaitable<T>): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}
