import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  exchangeOf,
  HttpSession,
  MemorySessionStore,
  newSessionRecord,
  SessionManager,
  TooManyActiveSessionsError,
  type RuntimeFilter,
} from '../../src/runtime/index.js';
import { request, serve, type Served } from './serve.js';

/** Downstream: ?create, ?invalidate, ?change, ?put=v, ?secure; answers with what it saw. */
function sessionHandler(req: IncomingMessage, res: ServerResponse) {
  const r = exchangeOf(req)!.request;
  const q = new URLSearchParams(r.queryString ?? '');
  const before = r.getSession(false);
  const out: Record<string, unknown> = {
    had: before?.id ?? null,
    requested: r.requestedSessionId,
    requestedValid: r.isRequestedSessionIdValid(),
  };
  if (q.has('invalidate')) before?.invalidate();
  const s = r.getSession(q.has('create'));
  if (s !== null) {
    if (q.has('put')) s.setAttribute('v', q.get('put'));
    if (q.has('change')) out.changedTo = r.changeSessionId();
    Object.assign(out, {
      id: s.id,
      isNew: s.isNew,
      v: s.getAttribute('v') ?? null,
      maxInactive: s.maxInactiveInterval,
    });
  }
  res.end(JSON.stringify(out));
}

const markSecure: RuntimeFilter = {
  name: 'MarkSecure',
  doFilter(ex, next) {
    if (ex.request.queryString?.includes('secure')) ex.request.secure = true;
    return next();
  },
};

function cookieOf(setCookie: string[] | undefined): string {
  return setCookie![0]!.split(';')[0]!;
}

describe('sessions in a /shop context', () => {
  let s: Served;
  let now = 1_700_000_000_000;
  beforeAll(async () => {
    s = await serve(
      { contextPath: '/shop', sessionTimeoutMinutes: 2, filters: [markSecure], clock: () => now },
      sessionHandler,
    );
  });
  afterAll(() => s.close());

  it("creates a session on demand with a 32-hex-digit id and Tomcat's cookie: Path=/shop; HttpOnly, no Secure, no SameSite", async () => {
    const r = await request(s, '/shop/?create');
    const body = JSON.parse(r.body);
    expect(body.id).toMatch(/^[0-9A-F]{32}$/);
    expect(body.isNew).toBe(true);
    expect(body.maxInactive).toBe(120);
    expect(r.headers['set-cookie']).toEqual([`JSESSIONID=${body.id}; Path=/shop; HttpOnly`]);
  });

  it('does not create a session or a cookie when nobody asks for one', async () => {
    const r = await request(s, '/shop/');
    expect(JSON.parse(r.body)).toEqual({ had: null, requested: null, requestedValid: false });
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('marks the cookie Secure when the request is secure', async () => {
    const r = await request(s, '/shop/?create&secure');
    expect(r.headers['set-cookie']![0]).toMatch(/^JSESSIONID=[0-9A-F]{32}; Path=\/shop; Secure; HttpOnly$/);
  });

  it('finds the session again from the cookie, no longer new, with its attributes, and sends no new cookie', async () => {
    const first = await request(s, '/shop/?create&put=hello');
    const cookie = cookieOf(first.headers['set-cookie']);
    const second = await request(s, '/shop/x', { headers: { cookie: `other=1; ${cookie}` } });
    const body = JSON.parse(second.body);
    expect(body).toMatchObject({ had: JSON.parse(first.body).id, requestedValid: true, isNew: false, v: 'hello' });
    expect(second.headers['set-cookie']).toBeUndefined();
  });

  it('picks the live session when several JSESSIONID cookies are sent', async () => {
    const live = cookieOf((await request(s, '/shop/?create')).headers['set-cookie']);
    const r = await request(s, '/shop/', {
      headers: { cookie: `JSESSIONID=0123456789ABCDEF0123456789ABCDEF; ${live}` },
    });
    expect(JSON.parse(r.body).had).toBe(live.split('=')[1]);
  });

  it('expires a session idle for the session timeout (injected clock) and creates a fresh one on request', async () => {
    const first = await request(s, '/shop/?create');
    const cookie = cookieOf(first.headers['set-cookie']);
    const id = JSON.parse(first.body).id;
    now += 119_000;
    expect(JSON.parse((await request(s, '/shop/', { headers: { cookie } })).body).had).toBe(id);
    // Each access restarts the idle time.
    now += 119_000;
    expect(JSON.parse((await request(s, '/shop/', { headers: { cookie } })).body).had).toBe(id);
    now += 120_000;
    const expired = await request(s, '/shop/?create', { headers: { cookie } });
    const body = JSON.parse(expired.body);
    expect(body).toMatchObject({ had: null, requested: id, requestedValid: false, isNew: true });
    expect(body.id).not.toBe(id);
    expect(expired.headers['set-cookie']![0]).toContain(body.id);
  });

  it('changes the session id, keeps the attributes, and replaces the cookie in the same response', async () => {
    const r = await request(s, '/shop/?create&put=kept&change');
    const body = JSON.parse(r.body);
    expect(body.changedTo).toBe(body.id);
    expect(r.headers['set-cookie']).toEqual([`JSESSIONID=${body.id}; Path=/shop; HttpOnly`]);
    const again = JSON.parse((await request(s, '/shop/', { headers: { cookie: `JSESSIONID=${body.id}` } })).body);
    expect(again).toMatchObject({ had: body.id, v: 'kept' });
  });

  it('forgets an invalidated session and its id', async () => {
    const cookie = cookieOf((await request(s, '/shop/?create')).headers['set-cookie']);
    const r = JSON.parse((await request(s, '/shop/?invalidate&create', { headers: { cookie } })).body);
    expect(r.id).not.toBe(r.had);
    expect(JSON.parse((await request(s, '/shop/', { headers: { cookie } })).body).had).toBeNull();
  });
});

describe('session cookie path and settings', () => {
  it('uses Path=/ for the ROOT context and honours sameSite, domain and the trailing-slash option', async () => {
    const root = await serve({}, sessionHandler);
    const custom = await serve(
      {
        contextPath: '/a',
        sessionCookie: { sameSite: 'Lax', domain: 'example.test', pathUsesTrailingSlash: true, name: 'SID' },
      },
      sessionHandler,
    );
    try {
      expect((await request(root, '/?create')).headers['set-cookie']![0]).toMatch(
        /^JSESSIONID=[0-9A-F]{32}; Path=\/; HttpOnly$/,
      );
      expect((await request(custom, '/a/?create')).headers['set-cookie']![0]).toMatch(
        /^SID=[0-9A-F]{32}; Domain=example\.test; Path=\/a\/; HttpOnly; SameSite=Lax$/,
      );
    } finally {
      await root.close();
      await custom.close();
    }
  });

  it('refuses to create a session once the response is committed', async () => {
    const s = await serve({}, (req, res) => {
      res.write('x');
      let msg = '';
      try {
        exchangeOf(req)!.request.getSession(true);
      } catch (err) {
        msg = String(err);
      }
      res.end(msg);
    });
    try {
      expect((await request(s, '/')).body).toMatch(
        /^xError: Cannot create a session after the response has been committed/,
      );
    } finally {
      await s.close();
    }
  });

  it('never expires sessions when the timeout is zero or negative', () => {
    const session = new HttpSession('A', 0, -1);
    expect(session.isExpiredAt(Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});

describe('MemorySessionStore', () => {
  it('refuses a new session at maxActiveSessions and never drops a live one (ManagerBase.createSession)', () => {
    let now = 0;
    const store = new MemorySessionStore({ maxActiveSessions: 3, clock: () => now, sweepIntervalMs: 0 });
    const dropped: string[] = [];
    store.onDrop = (r) => dropped.push(r.id);
    store.create(newSessionRecord('A', now, 60));
    store.create(newSessionRecord('B', now, 1));
    store.create(newSessionRecord('C', now, 60));
    expect(() => store.create(newSessionRecord('X', now, 60))).toThrow(TooManyActiveSessionsError);
    expect(() => store.create(newSessionRecord('X', now, 60))).toThrow('createSession: Too many active sessions');
    expect(store.rejected).toBe(2);
    expect(dropped).toEqual([]);
    // An expired session does not count: it is swept to make room, a live one never is.
    now = 2_000;
    store.create(newSessionRecord('D', now, 60));
    expect(dropped).toEqual(['B']);
    expect(() => store.create(newSessionRecord('E', now, 60))).toThrow(TooManyActiveSessionsError);
    for (const id of ['A', 'C', 'D']) expect(store.load(id, now)).not.toBeNull();
    // Removing one makes room again.
    store.remove('A');
    store.create(newSessionRecord('E', now, 60));
    expect(store.size).toBe(3);
  });

  it('has no limit by default (Tomcat maxActiveSessions -1): memory is bounded by the timeout, expired sessions swept', () => {
    let now = 0;
    const store = new MemorySessionStore({ clock: () => now, sweepIntervalMs: 0 });
    expect(store.maxActiveSessions).toBe(-1);
    for (let i = 0; i < 50_000; i++) store.create(newSessionRecord(`S${i}`, now, 60));
    expect(store.size).toBe(50_000);
    now = 60_000;
    expect(store.sweep(now)).toBe(50_000);
    expect(store.size).toBe(0);
  });

  it('sweeps at most once a second while refusing at the limit (count the sweeps, not the time)', () => {
    const now = 0;
    const store = new MemorySessionStore({ maxActiveSessions: 1_000, clock: () => now, sweepIntervalMs: 0 });
    for (let i = 0; i < 1_000; i++) store.create(newSessionRecord(`S${i}`, now, 60));
    const sweep = vi.spyOn(store, 'sweep');
    for (let i = 0; i < 2_000; i++) expect(() => store.create(newSessionRecord(`X${i}`, now, 60))).toThrow();
    expect(sweep).toHaveBeenCalledTimes(1);
    expect(store.rejected).toBe(2_000);
  });

  it('marks a record accessed when it is loaded and drops one idle past its interval (StandardSession)', () => {
    const store = new MemorySessionStore({ sweepIntervalMs: 0 });
    store.create(newSessionRecord('A', 0, 10));
    expect(store.load('A', 9_999)!.lastAccessedTime).toBe(9_999);
    expect(store.load('A', 19_998)).not.toBeNull();
    expect(store.load('A', 29_998)).toBeNull();
    expect(store.size).toBe(0);
  });

  it('ends the session every request sees when its record is dropped', () => {
    let now = 0;
    const store = new MemorySessionStore({ sweepIntervalMs: 0, clock: () => now });
    const mgr = new SessionManager({
      store,
      clock: () => now,
      sessionTimeoutMinutes: 1,
      contextPath: '',
      cookie: {
        name: 'JSESSIONID',
        path: null,
        domain: null,
        httpOnly: true,
        secure: false,
        sameSite: null,
        partitioned: false,
        pathUsesTrailingSlash: false,
      },
    });
    const s = mgr.create();
    expect(mgr.find([s.id])).toBe(s);
    now = 61_000;
    store.sweep(now);
    expect(s.valid).toBe(false);
  });

  it('sweeps expired sessions on its background timer', () => {
    vi.useFakeTimers();
    let now = 0;
    const store = new MemorySessionStore({ clock: () => now, sweepIntervalMs: 60_000 });
    try {
      store.create(newSessionRecord('A', 0, 1));
      now = 5_000;
      vi.advanceTimersByTime(59_999);
      expect(store.size).toBe(1);
      vi.advanceTimersByTime(1);
      expect(store.size).toBe(0);
    } finally {
      store.close();
      vi.useRealTimers();
    }
  });

  it('answers 500 for a request that needs a session beyond maxActiveSessions, as Tomcat 10.1 does', async () => {
    // Seen on Tomcat 10.1.60 with <Manager maxActiveSessions="1"/>: the second session's request got
    // 500 with TooManyActiveSessionsException: createSession: Too many active sessions.
    const store = new MemorySessionStore({ maxActiveSessions: 50, sweepIntervalMs: 0 });
    const s = await serve({ sessionStore: store }, sessionHandler);
    try {
      const ids = new Set<string>();
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        const r = await request(s, '/?create');
        statuses.push(r.status);
        if (r.status === 200) ids.add(JSON.parse(r.body).id);
      }
      expect(ids.size).toBe(50);
      expect(statuses.filter((x) => x === 500)).toHaveLength(10);
      expect(store.size).toBe(50);
      expect(store.rejected).toBe(10);
      // Every session made is still there.
      for (const id of ids) expect(store.peek(id)).toBeDefined();
    } finally {
      await s.close();
    }
  });

  it('throws on an invalidated session, as the servlet API does', () => {
    const s = new HttpSession('A', 0, 60);
    s.invalidate();
    expect(() => s.getAttribute('x')).toThrow(/invalidated/);
  });
});
