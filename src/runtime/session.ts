/**
 * HTTP sessions and the in-process store. A session is data (SessionRecord,
 * src/runtime/state.ts) that a store keeps; an HttpSession is one request's
 * view of it, which records the attribute changes the request makes so a
 * networked store gets them written back. A session expires when it has been
 * idle (no request looked it up) for its max inactive interval, as in Tomcat's
 * StandardSession.
 */
import { isExpired, TooManyActiveSessionsError, type SessionRecord, type SessionStore } from './state.js';

/** A new session's data. */
export function newSessionRecord(id: string, now: number, maxInactiveIntervalSeconds: number): SessionRecord {
  return {
    id,
    creationTime: now,
    lastAccessedTime: now,
    maxInactiveInterval: maxInactiveIntervalSeconds,
    attributes: new Map(),
    nonces: null,
    restToken: null,
  };
}

/** A servlet-style session. Ids are 32 upper-case hex characters (16 random bytes), like Tomcat's. */
export class HttpSession {
  readonly record: SessionRecord;
  /** True until a request presents the session's id back (the client has not joined yet). */
  isNew = true;
  private invalidated = false;
  /** Attribute changes not yet written back (name → value, undefined when removed); null when there are none. */
  changes: Map<string, unknown> | null = null;
  /**
   * Set by the manager when a networked store with a limit is creating this session: settles with the
   * store's refusal (TooManyActiveSessionsError) or null, never rejects. A filter that hands out state
   * kept with a new session (a CSRF nonce) waits for it, so a refused session fails the request as on Tomcat.
   */
  stored: Promise<TooManyActiveSessionsError | null> | null = null;
  /** Set by the manager: invalidate() removes the session from its store; a change asks for a write-back. */
  onInvalidate: ((session: HttpSession) => void) | null = null;
  onChange: ((session: HttpSession) => void) | null = null;

  constructor(record: SessionRecord);
  constructor(id: string, now: number, maxInactiveIntervalSeconds: number);
  constructor(recordOrId: SessionRecord | string, now = 0, maxInactiveIntervalSeconds = -1) {
    this.record =
      typeof recordOrId === 'string' ? newSessionRecord(recordOrId, now, maxInactiveIntervalSeconds) : recordOrId;
  }

  get id(): string {
    return this.record.id;
  }

  get creationTime(): number {
    return this.record.creationTime;
  }

  /** When a request last looked this session up (ms since the epoch). */
  get lastAccessedTime(): number {
    return this.record.lastAccessedTime;
  }

  set lastAccessedTime(t: number) {
    this.record.lastAccessedTime = t;
  }

  /** Seconds of inactivity before the session expires; zero or negative: never. */
  get maxInactiveInterval(): number {
    return this.record.maxInactiveInterval;
  }

  set maxInactiveInterval(seconds: number) {
    this.record.maxInactiveInterval = seconds;
    this.changed();
  }

  /** Whether the session was not invalidated (expiry is checked by the store with its clock). */
  get valid(): boolean {
    return !this.invalidated;
  }

  getAttribute(name: string): unknown {
    this.checkValid('getAttribute');
    return this.record.attributes.get(name);
  }

  /** Sets an attribute; `undefined` or `null` removes it, as in the servlet API. */
  setAttribute(name: string, value: unknown): void {
    this.checkValid('setAttribute');
    if (value === undefined || value === null) {
      this.removeAttribute(name);
      return;
    }
    this.record.attributes.set(name, value);
    (this.changes ??= new Map()).set(name, value);
    this.changed();
  }

  removeAttribute(name: string): void {
    this.checkValid('removeAttribute');
    if (!this.record.attributes.delete(name)) return;
    (this.changes ??= new Map()).set(name, undefined);
    this.changed();
  }

  getAttributeNames(): string[] {
    this.checkValid('getAttributeNames');
    return [...this.record.attributes.keys()];
  }

  /** Ends the session: its attributes are dropped and its id no longer resolves. */
  invalidate(): void {
    this.checkValid('invalidate');
    this.expire();
  }

  /** Whether the session has been idle too long at `now`. */
  isExpiredAt(now: number): boolean {
    return isExpired(this.record, now);
  }

  /** Marks the session invalid without the validity check (used when it times out). */
  expire(): void {
    if (this.invalidated) return;
    this.invalidated = true;
    this.record.attributes.clear();
    this.changes = null;
    const cb = this.onInvalidate;
    this.onInvalidate = null;
    if (cb !== null) cb(this);
  }

  /** Gives the session a new id (the manager re-keys its store). */
  renameTo(id: string): void {
    this.record.id = id;
  }

  private changed(): void {
    if (this.onChange !== null) this.onChange(this);
  }

  private checkValid(what: string): void {
    // The servlet API throws IllegalStateException on an invalidated session.
    if (this.invalidated) throw new Error(`${what}: the session has already been invalidated`);
  }
}

export interface MemorySessionStoreOptions {
  /**
   * `<Manager maxActiveSessions>`: a new session beyond this many live ones is refused with a
   * TooManyActiveSessionsError (Tomcat's TooManyActiveSessionsException). Negative (the default -1, Tomcat's):
   * no limit; the store is then bounded by the session timeout, every expired session being swept.
   */
  maxActiveSessions?: number;
  /** Milliseconds between background sweeps of expired sessions (default 60,000, Tomcat's default expiry check); 0 disables. */
  sweepIntervalMs?: number;
  /** Clock in ms since the epoch (default Date.now); tests inject one. */
  clock?: () => number;
}

/**
 * An in-process session store (Tomcat's StandardManager without persistence). Records are kept and
 * handed out by reference, so a change is seen by every request at once and a write-back costs nothing.
 * A live session is never dropped to make room for another (Tomcat never does): memory is bounded by
 * the session timeout (expired sessions are swept every `sweepIntervalMs`) and, when set, by
 * maxActiveSessions, beyond which new sessions are refused.
 */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  /** Negative: no limit. */
  readonly maxActiveSessions: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | null = null;
  private lastFullSweep = -Infinity;
  /** New sessions refused at the limit (ManagerBase's rejectedSessions). */
  rejected = 0;
  /** Called with each record the store drops (expiry, remove), so the views of it learn it is gone. */
  onDrop: ((record: SessionRecord) => void) | null = null;

  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxActiveSessions ?? -1;
    if (!Number.isSafeInteger(max))
      throw new TypeError(`maxActiveSessions must be an integer (negative: no limit), got ${String(max)}`);
    this.maxActiveSessions = max;
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

  /** The record under this id, expired or not, without marking it accessed. */
  peek(id: string): SessionRecord | undefined {
    return this.sessions.get(id);
  }

  load(id: string, now: number): SessionRecord | null {
    const r = this.sessions.get(id);
    if (r === undefined) return null;
    this.sessions.delete(id);
    if (isExpired(r, now)) {
      this.dropped(r);
      return null;
    }
    // Move to the most recently used end.
    this.sessions.set(id, r);
    r.lastAccessedTime = now;
    return r;
  }

  create(record: SessionRecord): void {
    const max = this.maxActiveSessions;
    if (max >= 0 && !this.sessions.has(record.id) && this.sessions.size >= max) {
      // Expired sessions do not count (Tomcat would count them until its next expiry check). A full sweep
      // is O(n): at the limit under a flood of new sessions it runs at most once a second.
      const now = this.clock();
      if (now - this.lastFullSweep >= 1000) this.sweep(now);
      if (this.sessions.size >= max) {
        this.rejected++;
        throw new TooManyActiveSessionsError(max);
      }
    }
    this.sessions.set(record.id, record);
  }

  update(record: SessionRecord, _changes: ReadonlyMap<string, unknown>): void {
    // The request changed the stored record itself; only a record this store no longer has is written again.
    if (this.sessions.get(record.id) !== record && !this.sessions.has(record.id)) return;
  }

  rename(oldId: string, newId: string): boolean {
    const r = this.sessions.get(oldId);
    if (r === undefined) return false;
    this.sessions.delete(oldId);
    r.id = newId;
    this.sessions.set(newId, r);
    return true;
  }

  remove(id: string): void {
    const r = this.sessions.get(id);
    if (r === undefined) return;
    this.sessions.delete(id);
    this.dropped(r);
  }

  addNonce(id: string, nonce: string, cacheSize: number): void {
    const r = this.sessions.get(id);
    if (r === undefined) return;
    const list = (r.nonces ??= []);
    list.push(nonce);
    while (list.length > cacheSize) list.shift();
  }

  restToken(id: string, fresh: string): string | null {
    const r = this.sessions.get(id);
    if (r === undefined) return null;
    return (r.restToken ??= fresh);
  }

  /** Expires and removes every session idle past its interval at `now`; returns how many. */
  sweep(now: number): number {
    this.lastFullSweep = now;
    let n = 0;
    for (const [id, r] of this.sessions) {
      if (!isExpired(r, now)) continue;
      this.sessions.delete(id);
      this.dropped(r);
      n++;
    }
    return n;
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private dropped(r: SessionRecord): void {
    if (this.onDrop !== null) this.onDrop(r);
  }
}
