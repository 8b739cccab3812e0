/**
 * State that cannot be flooded (issue 32, item 4): 100,000 anonymous requests to a CsrfPreventionFilter
 * entry point, each making a session with a nonce, leave every logged-in user's session and nonce valid,
 * in memory and in a real redis-server. Nothing live is ever evicted: memory is bounded by the session
 * timeout (every session and key expires), and a `<Manager maxActiveSessions>` limit refuses new sessions
 * (500, as Tomcat 10.1 answers) instead of dropping old ones. Work is counted, never timed.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../../src/filters/csrf-prevention.js';
import { create } from '../../src/runtime/filters/csrf-prevention.js';
import {
  exchangeOf,
  MemorySessionStore,
  setLogSink,
  type ContextRuntimeOptions,
  type LogRecord,
} from '../../src/runtime/index.js';
import { createRedisBackend, type RedisStateBackend } from '../../src/stores/redis.js';
import { declare } from '../runtime/filters/helpers.js';
import { serve, type Served } from '../runtime/serve.js';
import { startRedis, type RedisProcess } from './redis-server.js';

const NONCE = 'org.apache.catalina.filters.CSRF_NONCE';
/** Where CsrfPreventionFilter puts the request's nonce (Constants.CSRF_NONCE_REQUEST_ATTR_NAME). */
const NONCE_ATTR = 'org.apache.catalina.filters.CSRF_REQUEST_NONCE';
const FLOOD = 100_000;
const USERS = 20;
const TIMEOUT_MINUTES = 30;

/** /login makes a session for a user; every answer reports the session's user and the request's nonce. */
function app(req: IncomingMessage, res: ServerResponse): void {
  const r = exchangeOf(req)!.request;
  const q = new URLSearchParams(r.queryString ?? '');
  const user = q.get('login');
  if (user !== null) r.getSession(true)!.setAttribute('user', user);
  const s = r.getSession(false);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ user: s?.getAttribute('user') ?? null, nonce: r.getAttribute(NONCE_ATTR) ?? null }));
}

function options(extra: ContextRuntimeOptions): ContextRuntimeOptions {
  return {
    sessionTimeoutMinutes: TIMEOUT_MINUTES,
    filters: [declare(spec, create, { entryPoints: '/entry,/login', nonceCacheSize: '5' })],
    ...extra,
  };
}

interface Answer {
  status: number;
  cookie: string | null;
  body: string;
}

function get(s: Served, agent: http.Agent, path: string, cookie?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: s.host, port: s.port, path, agent, headers: cookie ? { Cookie: cookie } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            cookie: res.headers['set-cookie']?.[0]?.split(';')[0] ?? null,
            body,
          }),
        );
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error(`${path}: no answer in 60 s`)));
    req.on('error', reject);
    req.end();
  });
}

interface User {
  name: string;
  cookie: string;
  nonce: string;
}

async function logIn(s: Served, agent: http.Agent): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < USERS; i++) {
    const name = `user${i}`;
    const r = await get(s, agent, `/login?login=${name}`);
    expect(r.status).toBe(200);
    const { nonce } = JSON.parse(r.body) as { nonce: string };
    users.push({ name, cookie: r.cookie!, nonce });
  }
  return users;
}

/** `count` anonymous entry-point requests, `parallel` at a time; the statuses counted. */
async function flood(s: Served, agent: http.Agent, count: number, parallel = 32): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const r = await get(s, agent, '/entry');
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

/** Every user's session still holds the user, and the nonce handed out before the flood still passes. */
async function expectAllValid(s: Served, agent: http.Agent, users: readonly User[]): Promise<void> {
  for (const u of users) {
    const r = await get(s, agent, `/page?${NONCE}=${u.nonce}`, u.cookie);
    expect(r.status, u.name).toBe(200);
    expect((JSON.parse(r.body) as { user: string }).user).toBe(u.name);
    expect(r.cookie).toBeNull();
  }
}

let logs: LogRecord[] = [];
beforeAll(() => setLogSink((r) => logs.push(r)));
afterAll(() => setLogSink(null));

describe('a flood of anonymous nonce sessions in memory', () => {
  it(`leaves every logged-in session and nonce valid after ${FLOOD.toLocaleString('en-US')} anonymous requests (no limit: nothing evicted, all kept until they time out)`, async () => {
    let now = Date.now();
    const store = new MemorySessionStore({ clock: () => now, sweepIntervalMs: 0 });
    const s = await serve(options({ sessionStore: store, clock: () => now }), app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const users = await logIn(s, agent);
      const statuses = await flood(s, agent, FLOOD);
      expect(Object.fromEntries(statuses)).toEqual({ 200: FLOOD });
      expect(store.size).toBe(FLOOD + USERS);
      await expectAllValid(s, agent, users);
      // Bounded by the timeout: once it has passed without a request, one sweep empties the store.
      now += TIMEOUT_MINUTES * 60_000;
      expect(store.sweep(now)).toBe(FLOOD + USERS);
      expect(store.size).toBe(0);
    } finally {
      agent.destroy();
      await s.close();
    }
  }, 600_000);

  it('refuses anonymous sessions beyond <Manager maxActiveSessions> with 500 and keeps every live one', async () => {
    const limit = 1_000;
    const store = new MemorySessionStore({ maxActiveSessions: limit, sweepIntervalMs: 0 });
    const s = await serve(options({ sessionStore: store }), app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    logs = [];
    try {
      const users = await logIn(s, agent);
      const statuses = await flood(s, agent, 5_000);
      expect(Object.fromEntries(statuses)).toEqual({ 200: limit - USERS, 500: 5_000 - (limit - USERS) });
      expect(store.size).toBe(limit);
      expect(store.rejected).toBe(5_000 - (limit - USERS));
      await expectAllValid(s, agent, users);
      expect(logs.some((l) => String(l.error).includes('Too many active sessions'))).toBe(true);
    } finally {
      agent.destroy();
      await s.close();
    }
  }, 600_000);
});

describe('a flood of anonymous nonce sessions in a real redis-server', () => {
  let redis: RedisProcess;
  let backend: RedisStateBackend;
  let raw: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = await startRedis();
    backend = createRedisBackend({ url: redis.url, timeoutMs: 5_000 });
    expect(await backend.ready(10_000)).toBe(true);
    raw = createClient({ url: redis.url });
    raw.on('error', () => undefined);
    await raw.connect();
  });

  afterAll(async () => {
    await raw?.close();
    await backend?.close();
    await redis?.stop();
  });

  it(`leaves every logged-in session and nonce valid after ${FLOOD.toLocaleString('en-US')} anonymous requests, each key expiring with the session timeout`, async () => {
    const stores = backend.context('flood', '');
    const s = await serve(options({ stores }), app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const users = await logIn(s, agent);
      const statuses = await flood(s, agent, FLOOD);
      expect(Object.fromEntries(statuses)).toEqual({ 200: FLOOD });
      expect(await raw.dbSize()).toBe(FLOOD + USERS);
      await expectAllValid(s, agent, users);
      // What a session costs (MEMORY USAGE: an anonymous one with a nonce about 184 bytes, these users' with 5 nonces and an attribute about 520), and that
      // it goes with the session timeout (+1 s): the total is bounded by
      // the rate of new sessions times the timeout (docs/deployment.md).
      const keys = await raw.keys('tollgate:c:flood:%2F:s:*');
      const ttlMs = TIMEOUT_MINUTES * 60_000 + 1_000;
      for (const k of keys.slice(0, 200)) {
        const pttl = await raw.pTTL(k);
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(ttlMs);
        const bytes = await raw.sendCommand(['MEMORY', 'USAGE', k]);
        expect(bytes).toBeGreaterThan(0);
        expect(bytes).toBeLessThanOrEqual(640);
      }
    } finally {
      agent.destroy();
      await s.close();
    }
  }, 600_000);

  it('refuses anonymous sessions beyond maxActiveSessions across instances with 500 and evicts nothing', async () => {
    const limit = 500;
    // Two instances of one context sharing the limit, as a fleet behind a balancer.
    const stores = [1, 2].map(() => backend.context('capped', '', { maxActiveSessions: limit }));
    const [s1, s2] = await Promise.all(stores.map((st) => serve(options({ stores: st }), app)));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const users = await logIn(s1!, agent);
      const a = await flood(s1!, agent, 1_500, 16);
      const b = await flood(s2!, agent, 1_500, 16);
      const ok = (a.get(200) ?? 0) + (b.get(200) ?? 0);
      const refused = (a.get(500) ?? 0) + (b.get(500) ?? 0);
      expect(ok).toBe(limit - USERS);
      expect(refused).toBe(3_000 - (limit - USERS));
      expect(await raw.zCard('tollgate:c:capped:%2F:live')).toBe(limit);
      expect(await raw.keys('tollgate:c:capped:%2F:s:*')).toHaveLength(limit);
      await expectAllValid(s1!, agent, users);
      await expectAllValid(s2!, agent, users);
    } finally {
      agent.destroy();
      await Promise.all([s1?.close(), s2?.close()]);
    }
  }, 600_000);
});
