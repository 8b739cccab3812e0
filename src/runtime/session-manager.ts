/**
 * One context's sessions: id generation, lookup with expiry, id change, and
 * the session cookie as Tomcat writes it (`JSESSIONID=…; Path=/ctx; Secure;
 * HttpOnly`, Secure only for secure requests, no SameSite unless configured).
 */
import { randomHex128 } from './random.js';
import { HttpSession, type SessionStore } from './session.js';
import type { SessionCookieSettings } from './types.js';

/** Tomcat's id shape: 16 random bytes as 32 upper-case hex digits. */
export function generateSessionId(): string {
  return randomHex128();
}

export class SessionManager {
  readonly store: SessionStore;
  readonly clock: () => number;
  /** Seconds; zero or negative: sessions never time out. */
  readonly maxInactiveInterval: number;
  readonly cookie: SessionCookieSettings;
  private readonly cookiePath: string;
  private readonly forget = (s: HttpSession): void => this.store.delete(s.id);

  constructor(options: { store: SessionStore; clock: () => number; sessionTimeoutMinutes: number; contextPath: string; cookie: SessionCookieSettings }) {
    this.store = options.store;
    this.clock = options.clock;
    // web.xml session-timeout is in minutes; Tomcat treats 0 as "never".
    this.maxInactiveInterval = options.sessionTimeoutMinutes > 0 ? Math.round(options.sessionTimeoutMinutes * 60) : -1;
    this.cookie = options.cookie;
    this.cookiePath = sessionCookiePath(options.cookie, options.contextPath);
  }

  /** The live session with this id, marking it accessed; expired sessions are removed and not returned. */
  find(id: string): HttpSession | undefined {
    const s = this.store.get(id);
    if (s === undefined) return undefined;
    const now = this.clock();
    if (!s.valid || s.isExpiredAt(now)) {
      this.store.delete(id);
      s.expire();
      return undefined;
    }
    s.lastAccessedTime = now;
    return s;
  }

  /** Creates and stores a new session. */
  create(): HttpSession {
    const s = new HttpSession(this.freshId(), this.clock(), this.maxInactiveInterval);
    s.onInvalidate = this.forget;
    this.store.add(s);
    return s;
  }

  /** Gives a session a new id and returns it (session fixation defence). */
  changeId(s: HttpSession): string {
    const id = this.freshId();
    this.store.delete(s.id);
    s.renameTo(id);
    this.store.add(s);
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

  private freshId(): string {
    let id = generateSessionId();
    while (this.store.get(id) !== undefined) id = generateSessionId();
    return id;
  }
}

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
