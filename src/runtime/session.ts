/**
 * HTTP sessions and where they live. A session expires when it has been idle
 * (no request looked it up) for its max inactive interval, as in Tomcat's
 * StandardSession. Stores are synchronous because `getSession()` is.
 */

/** A servlet-style session. Ids are 32 upper-case hex characters (16 random bytes), like Tomcat's. */
export class HttpSession {
  private currentId: string;
  readonly creationTime: number;
  /** When a request last looked this session up (ms since the epoch). */
  lastAccessedTime: number;
  /** Seconds of inactivity before the session expires; zero or negative: never. */
  maxInactiveInterval: number;
  /** True until a request presents the session's id back (the client has not joined yet). */
  isNew = true;
  private attributes: Map<string, unknown> | null = null;
  private invalidated = false;
  /** Set by the manager so `invalidate()` can remove the session from its store. */
  onInvalidate: ((session: HttpSession) => void) | null = null;

  constructor(id: string, now: number, maxInactiveIntervalSeconds: number) {
    this.currentId = id;
    this.creationTime = now;
    this.lastAccessedTime = now;
    this.maxInactiveInterval = maxInactiveIntervalSeconds;
  }

  get id(): string {
    return this.currentId;
  }

  /** Whether the session was not invalidated (expiry is checked by the store with its clock). */
  get valid(): boolean {
    return !this.invalidated;
  }

  getAttribute(name: string): unknown {
    this.checkValid('getAttribute');
    return this.attributes?.get(name);
  }

  /** Sets an attribute; `undefined` or `null` removes it, as in the servlet API. */
  setAttribute(name: string, value: unknown): void {
    this.checkValid('setAttribute');
    if (value === undefined || value === null) {
      this.attributes?.delete(name);
      return;
    }
    (this.attributes ??= new Map()).set(name, value);
  }

  removeAttribute(name: string): void {
    this.checkValid('removeAttribute');
    this.attributes?.delete(name);
  }

  getAttributeNames(): string[] {
    this.checkValid('getAttributeNames');
    return this.attributes === null ? [] : [...this.attributes.keys()];
  }

  /** Ends the session: its attributes are dropped and its id no longer resolves. */
  invalidate(): void {
    this.checkValid('invalidate');
    this.expire();
  }

  /** Whether the session has been idle too long at `now`. */
  isExpiredAt(now: number): boolean {
    return this.maxInactiveInterval > 0 && now - this.lastAccessedTime >= this.maxInactiveInterval * 1000;
  }

  /** Marks the session invalid without the validity check (used by stores when it times out). */
  expire(): void {
    if (this.invalidated) return;
    this.invalidated = true;
    this.attributes = null;
    const cb = this.onInvalidate;
    this.onInvalidate = null;
    if (cb !== null) cb(this);
  }

  /** Gives the session a new id (the manager re-keys its store). */
  renameTo(id: string): void {
    this.currentId = id;
  }

  private checkValid(what: string): void {
    // The servlet API throws IllegalStateException on an invalidated session.
    if (this.invalidated) throw new Error(`${what}: the session has already been invalidated`);
  }
}

/** Where a context keeps its sessions. Implement it to share sessions between processes. */
export interface SessionStore {
  /** The session with this id if it is stored (expired or not: the manager checks expiry). */
  get(id: string): HttpSession | undefined;
  /** Stores a new or renamed session. */
  add(session: HttpSession): void;
  /** Forgets the session stored under this id. */
  delete(id: string): void;
  readonly size: number;
  /** Expires and removes every session idle past its interval at `now`; returns how many. */
  sweep(now: number): number;
  /** Stops background work (timers). */
  close(): void;
}

export interface MemorySessionStoreOptions {
  /** Upper bound on stored sessions (default 10,000). When full, expired sessions go first, then the least recently used. */
  maxSessions?: number;
  /** Milliseconds between background sweeps of expired sessions (default 60,000, Tomcat's default expiry check); 0 disables. */
  sweepIntervalMs?: number;
  /** Clock in ms since the epoch (default Date.now); tests inject one. */
  clock?: () => number;
}

/** An in-process, bounded session store. Iteration order of the map is least to most recently used. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  readonly maxSessions: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | null = null;
  private lastFullSweep = -Infinity;
  /** Sessions removed to make room for new ones while still live. */
  evicted = 0;

  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxSessions ?? 10_000;
    if (!Number.isInteger(max) || max < 1) throw new TypeError(`maxSessions must be a positive integer, got ${String(max)}`);
    this.maxSessions = max;
    this.clock = options.clock ?? Date.now;
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(this.clock()), every);
      // The sweep must never keep a server process alive on its own.
      this.timer.unref();
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): HttpSession | undefined {
    const s = this.sessions.get(id);
    if (s !== undefined) {
      // Move to the most recently used end.
      this.sessions.delete(id);
      this.sessions.set(id, s);
    }
    return s;
  }

  add(session: HttpSession): void {
    if (!this.sessions.has(session.id) && this.sessions.size >= this.maxSessions) {
      // A full sweep is O(n); under a flood of new sessions sweep at most once a second and evict otherwise.
      const now = this.clock();
      const swept = now - this.lastFullSweep >= 1000 ? this.sweep(now) : 0;
      if (swept === 0) this.evictOldest();
    }
    this.sessions.set(session.id, session);
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  sweep(now: number): number {
    this.lastFullSweep = now;
    let n = 0;
    for (const [id, s] of this.sessions) {
      if (s.valid && !s.isExpiredAt(now)) continue;
      this.sessions.delete(id);
      s.expire();
      n++;
    }
    return n;
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private evictOldest(): void {
    const first = this.sessions.keys().next();
    if (first.done) return;
    const s = this.sessions.get(first.value)!;
    this.sessions.delete(first.value);
    s.expire();
    this.evicted++;
  }
}
