/**
 * One context's sessions: id generation, lookup with expiry, id change, and
 * the session cookie as Tomcat writes it (`JSESSIONID=…; Path=/ctx; Secure;
 * HttpOnly`, Secure only for secure requests, no SameSite unless configured).
 */
import { randomHex128 } from './random.js';
import { HttpSession, MemorySessionStore, newSessionRecord } from './session.js';
import {
  isPromise,
  TooManyActiveSessionsError,
  type Awaitable,
  type SessionRecord,
  type SessionStore,
} from './state.js';
import type { SessionCookieSettings } from './types.js';

/** Tomcat's id shape: 16 random bytes as 32 upper-case hex digits. */
export function generateSessionId(): string {
  return randomHex128();
}

/** The view of a record the memory store hands out: one per record, so every request sees the same HttpSession. */
const VIEW = Symbol('tollgate.sessionView');
type Viewed = SessionRecord & { [VIEW]?: HttpSession };

/** A store's answer to a write nobody waits for: its failure is the store's to log (once per outage). */
function settle(v: Awaitable<unknown>): void {
  if (isPromise(v)) v.then(undefined, ignore);
}

function ignore(): void {}

function stored(): null {
  return null;
}

/** A refusal at the limit; any other failure is the store's to log, and the session is simply not found later. */
function refusal(err: unknown): TooManyActiveSessionsError | null {
  return err instanceof TooManyActiveSessionsError ? err : null;
}

export class SessionManager {
  readonly store: SessionStore;
  readonly clock: () => number;
  /** Seconds; zero or negative: sessions never time out. */
  readonly maxInactiveInterval: number;
  readonly cookie: SessionCookieSettings;
  /** Whether changes must be written back (the store keeps copies, not the records requests change). */
  readonly writesBack: boolean;
  private readonly memory: MemorySessionStore | null;
  private readonly cookiePath: string;
  private readonly forget = (s: HttpSession): void => settle(this.store.remove(s.id));

  constructor(options: {
    store: SessionStore;
    clock: () => number;
    sessionTimeoutMinutes: number;
    contextPath: string;
    cookie: SessionCookieSettings;
  }) {
    this.store = options.store;
    this.clock = options.clock;
    // web.xml session-timeout is in minutes; Tomcat treats 0 as "never".
    this.maxInactiveInterval = options.sessionTimeoutMinutes > 0 ? Math.round(options.sessionTimeoutMinutes * 60) : -1;
    this.cookie = options.cookie;
    this.cookiePath = sessionCookiePath(options.cookie, options.contextPath);
    this.memory = options.store instanceof MemorySessionStore ? options.store : null;
    this.writesBack = this.memory === null;
    // A record the memory store drops (expiry, eviction) ends the session every request sees.
    if (this.memory !== null) this.memory.onDrop ??= (r) => (r as Viewed)[VIEW]?.expire();
  }

  /**
   * The first live session among `ids` (the request's session cookies, in
   * order), marked accessed, or null; a promise when the store is networked.
   */
  find(ids: readonly string[]): Awaitable<HttpSession | null> {
    const now = this.clock();
    for (let i = 0; i < ids.length; i++) {
      const r = this.store.load(ids[i]!, now);
      if (isPromise(r)) return r.then((rec) => (rec !== null ? this.view(rec) : this.findAfter(ids, i + 1, now)));
      if (r !== null) return this.view(r);
    }
    return null;
  }

  private async findAfter(ids: readonly string[], from: number, now: number): Promise<HttpSession | null> {
    for (let i = from; i < ids.length; i++) {
      const rec = await this.store.load(ids[i]!, now);
      if (rec !== null) return this.view(rec);
    }
    return null;
  }

  /**
   * Creates and stores a new session. A store at its maxActiveSessions throws TooManyActiveSessionsError
   * (memory), or a networked one refuses later: the session's `stored` promise says so.
   */
  create(): HttpSession {
    const rec = newSessionRecord(this.freshId(), this.clock(), this.maxInactiveInterval);
    const done = this.store.create(rec);
    const s = this.view(rec);
    if (isPromise(done)) {
      if ((this.store.maxActiveSessions ?? -1) >= 0) s.stored = done.then(stored, refusal);
      else settle(done);
    }
    return s;
  }

  /** Writes a session's attribute changes back (nothing for the memory store, whose records requests change directly). */
  writeBack(s: HttpSession): Awaitable<void> {
    const changes = s.changes;
    s.changes = null;
    if (!s.valid) return undefined;
    return this.store.update(s.record, changes ?? EMPTY_CHANGES);
  }

  /** Gives a session a new id and returns it (session fixation defence); its nonces and token go with it. */
  changeId(s: HttpSession): string {
    const id = this.freshId();
    const old = s.id;
    settle(this.store.rename(old, id));
    s.renameTo(id);
    return id;
  }

  /** The Set-Cookie value for a session id. */
  cookieHeader(id: string, secureRequest: boolean): string {
    const c = this.cookie;
    let h = `${c.name}=${id}`;
    if (c.domain) h += `; Domain=${c.domain}`;
    h += `; Path=${this.cookiePath}`;
    if (c.secure || secureRequest) h += '; Secure';
    if (c.httpOnly) h += '; HttpOnly';
    if (c.sameSite !== null) h += `; SameSite=${c.sameSite}`;
    if (c.partitioned) h += '; Partitioned';
    return h;
  }

  /** Stops the store's background work. */
  close(): void {
    this.store.close();
  }

  private view(rec: SessionRecord): HttpSession {
    if (this.memory !== null) {
      const viewed = rec as Viewed;
      let s = viewed[VIEW];
      if (s === undefined) {
        s = new HttpSession(rec);
        s.onInvalidate = this.forget;
        viewed[VIEW] = s;
      }
      return s;
    }
    const s = new HttpSession(rec);
    s.onInvalidate = this.forget;
    return s;
  }

  private freshId(): string {
    let id = generateSessionId();
    // 128 random bits do not collide in practice; the memory store can make sure for free.
    if (this.memory !== null) while (this.memory.peek(id) !== undefined) id = generateSessionId();
    return id;
  }
}

const EMPTY_CHANGES: ReadonlyMap<string, unknown> = new Map();

/** Tomcat's SessionConfig.getSessionCookiePath: the context path, `/` for ROOT, optionally with a trailing slash. */
export function sessionCookiePath(cookie: SessionCookieSettings, contextPath: string): string {
  let path = cookie.path !== null && cookie.path !== '' ? cookie.path : contextPath;
  if (cookie.pathUsesTrailingSlash) {
    if (!path.endsWith('/')) path += '/';
  } else if (path === '') {
    path = '/';
  }
  return path;
}

/** Every value of the named cookie in a Cookie header, in order. */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined || header === '') return [];
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const i = header.indexOf(name, from);
    if (i < 0) return out;
    from = i + name.length;
    // The name must start a pair and be followed by '='.
    const before = i === 0 ? 59 : header.charCodeAt(i - 1);
    if ((before !== 59 && before !== 32 && before !== 9) || header.charCodeAt(from) !== 61) continue;
    if (before !== 59 && i > 0) {
      let j = i - 1;
      while (j >= 0 && (header.charCodeAt(j) === 32 || header.charCodeAt(j) === 9)) j--;
      if (j >= 0 && header.charCodeAt(j) !== 59) continue;
    }
    let end = header.indexOf(';', from + 1);
    if (end < 0) end = header.length;
    let v = header.slice(from + 1, end).trim();
    if (v.length >= 2 && v.charCodeAt(0) === 34 && v.charCodeAt(v.length - 1) === 34) v = v.slice(1, -1);
    out.push(v);
    from = end;
  }
}
