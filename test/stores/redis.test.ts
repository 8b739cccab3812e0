import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionRecord, setLogSink, type LogRecord } from '../../src/runtime/index.js';
import { UserRealm } from '../../src/server/realm.js';
import { createRedisBackend, type RedisStateBackend } from '../../src/stores/redis.js';
import { parseStoreChoice } from '../../src/stores/url.js';
import { startRedis, type RedisProcess } from './redis-server.js';

let redis: RedisProcess;
let a: RedisStateBackend;
let b: RedisStateBackend;
let raw: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedis();
  // Two backends, two connections: what two instances of a server hold.
  a = createRedisBackend({ url: redis.url, timeoutMs: 300 });
  b = createRedisBackend({ url: redis.url, timeoutMs: 300 });
  expect(await a.ready()).toBe(true);
  expect(await b.ready()).toBe(true);
  raw = createClient({ url: redis.url });
  // This client sees the outage below too; the backends log theirs.
  raw.on('error', () => undefined);
  await raw.connect();
});

afterAll(async () => {
  await raw?.close();
  await a?.close();
  await b?.close();
  await redis?.stop();
});

describe('the Redis backend (a real redis-server, two connections)', () => {
  it('stores a session one instance created so the other loads it, with attributes, nonces and token, and renames and removes it', async () => {
    const sa = a.context('localhost', '/app').sessions;
    const sb = b.context('localhost', '/app').sessions;
    const rec = newSessionRecord('A1', 1_000, 60);
    await sa.create(rec);
    await sa.update(
      rec,
      new Map<string, unknown>([
        ['user', { name: 'ann', roles: ['x'] }],
        ['n', 3],
      ]),
    );
    await sa.addNonce('A1', 'N1', 2);
    await sa.addNonce('A1', 'N2', 2);
    await sa.addNonce('A1', 'N3', 2);
    expect(await sa.restToken('A1', 'T1')).toBe('T1');
    expect(await sb.restToken('A1', 'T2')).toBe('T1');
    const loaded = (await sb.load('A1', 2_000))!;
    expect(loaded).toMatchObject({
      id: 'A1',
      creationTime: 1_000,
      lastAccessedTime: 2_000,
      maxInactiveInterval: 60,
      nonces: ['N2', 'N3'],
      restToken: 'T1',
    });
    expect(Object.fromEntries(loaded.attributes)).toEqual({ user: { name: 'ann', roles: ['x'] }, n: 3 });
    await sb.update(loaded, new Map([['n', undefined]]));
    expect([...(await sa.load('A1', 3_000))!.attributes.keys()]).toEqual(['user']);
    expect(await sa.rename('A1', 'A2')).toBe(true);
    expect(await sb.load('A1', 3_000)).toBeNull();
    expect((await sb.load('A2', 3_000))!.nonces).toEqual(['N2', 'N3']);
    await sb.remove('A2');
    expect(await sa.load('A2', 3_000)).toBeNull();
    // Writes to a session that is gone do not bring it back.
    await sa.addNonce('A2', 'N4', 5);
    expect(await sa.restToken('A2', 'T3')).toBeNull();
    await sa.update(loaded, new Map([['x', 1]]));
    expect(await raw.exists('tollgate:c:localhost:%2Fapp:s:A2')).toBe(0);
  });

  it('expires a session idle for its interval (StandardSession), and each load pushes the expiry back', async () => {
    const s = a.context('localhost', '').sessions;
    await s.create(newSessionRecord('E1', 0, 10));
    expect(await s.load('E1', 9_999)).not.toBeNull();
    expect(await s.load('E1', 19_998)).not.toBeNull();
    expect(await s.load('E1', 29_998)).toBeNull();
    expect(await raw.exists('tollgate:c:localhost:%2F:s:E1')).toBe(0);
  });

  it('counts one address in one window across instances atomically, each window apart, each filter apart', async () => {
    const ra = a.context('h', '/r').rateLimiter('RL');
    const rb = b.context('h', '/r').rateLimiter('RL');
    const other = b.context('h', '/r').rateLimiter('RL2');
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => Promise.resolve((i % 2 === 0 ? ra : rb).increment('10.0.0.1', 7, 60_000))),
    );
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await ra.increment('10.0.0.1', 8, 60_000)).toBe(1);
    expect(await other.increment('10.0.0.1', 7, 60_000)).toBe(1);
    expect(await ra.increment('10.0.0.2', 7, 60_000)).toBe(1);
  });

  it('keeps the lock-out table shared: failures from both instances add up, a success clears it, a lock starts again after it expires', async () => {
    const la = a.lockouts('engine', { failureCount: 3, lockOutTime: 10, cacheSize: 1000 });
    const lb = b.lockouts('engine', { failureCount: 3, lockOutTime: 10, cacheSize: 1000 });
    const policy = { failureCount: 3, lockOutTime: 10 };
    await la.registerFailure('bob', 1_000, policy);
    await lb.registerFailure('bob', 2_000, policy);
    expect(await la.registerFailure('bob', 3_000, policy)).toEqual({ failures: 3, lastFailure: 3_000 });
    expect(await lb.get('bob')).toEqual({ failures: 3, lastFailure: 3_000 });
    // 11 whole seconds after the last failure the lock has expired: the next failure counts from one.
    expect(await lb.registerFailure('bob', 14_000, policy)).toEqual({ failures: 1, lastFailure: 14_000 });
    await la.clear('bob');
    expect(await lb.get('bob')).toBeNull();
  });

  it('keeps a locked user locked through a flood of 1,001 other names until the lock expires (issue 25), on both instances', async () => {
    let now = 5_000_000;
    const settings = { failureCount: 5, lockOutTime: 300, cacheSize: 1000 };
    const users = [{ username: 'plain', password: 's3cret', roles: [] }];
    const ra = new UserRealm({
      users,
      lockout: settings,
      clock: () => now,
      lockoutStore: a.lockouts('flood', settings),
    });
    const rb = new UserRealm({
      users,
      lockout: settings,
      clock: () => now,
      lockoutStore: b.lockouts('flood', settings),
    });
    for (let i = 0; i < 5; i++) expect(await (i % 2 ? ra : rb).authenticate('plain', `guess-${i}`)).toBeNull();
    for (let i = 0; i < 1001; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, 1001 - i) }, (_, k) =>
          (k % 2 ? ra : rb).authenticate(`flood-${i + k}`, null),
        ),
      );
    expect(await ra.authenticate('plain', 's3cret')).toBeNull();
    expect(await rb.authenticate('plain', 's3cret')).toBeNull();
    now += 300_000;
    expect(await rb.authenticate('plain', 's3cret')).not.toBeNull();
  });

  it('gives every key it writes a TTL, so nothing grows without bound', async () => {
    const keys = await raw.keys('tollgate:*');
    expect(keys.length).toBeGreaterThan(3);
    for (const k of keys) expect(await raw.pTTL(k), k).toBeGreaterThan(0);
  });

  it('gives up on a command after timeoutMs when Redis hangs (SIGSTOP), and goes on when it answers again', async () => {
    const quick = createRedisBackend({ url: redis.url, timeoutMs: 200 });
    try {
      expect(await quick.ready()).toBe(true);
      const rl = quick.context('h', '/hung').rateLimiter('RL');
      expect(await rl.increment('9.9.9.9', 1, 60_000)).toBe(1);
      redis.pause();
      const t = Date.now();
      const outcome = await Promise.resolve(rl.increment('9.9.9.9', 1, 60_000)).then(
        () => 'answered',
        () => 'refused',
      );
      const waited = Date.now() - t;
      redis.resume();
      expect(outcome).toBe('refused');
      // Redis stays stopped until resume(): without the timeout the call would never settle. The upper
      // bound only tells "gave up after timeoutMs" from a hang; a loaded machine fires timers late.
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(60_000);
      let n: number | null = null;
      for (let i = 0; i < 100 && n === null; i++) {
        n = await Promise.resolve(rl.increment('9.9.9.9', 2, 60_000)).catch(() => null);
        if (n === null) await new Promise((r) => setTimeout(r, 50));
      }
      expect(n).toBe(1);
    } finally {
      redis.resume();
      await quick.close();
    }
  });

  it('refuses within its timeout while Redis is down, logs the outage once and the recovery once', async () => {
    const lines: LogRecord[] = [];
    setLogSink((r) => {
      if (r.logger === 'tollgate.stores.RedisStateBackend') lines.push(r);
    });
    try {
      // One connection, so one line per outage and one per recovery.
      await b.close();
      const rl = a.context('h', '/down').rateLimiter('RL');
      await redis.kill();
      // Never hanging (the test's timeout would say so), every call refused, and the store answers
      // from its own fail-fast window instead of a round trip each time (the first call meets the
      // client's socket error; the next ones were "Redis is unreachable", 19 of 20, when measured).
      const reasons: (string | null)[] = [];
      for (let i = 0; i < 20; i++)
        reasons.push(
          await Promise.resolve(rl.increment('1.2.3.4', 1, 1_000)).then(
            () => null,
            (e: unknown) => (e instanceof Error ? e.message : String(e)),
          ),
        );
      expect(reasons.filter((r) => r === null)).toEqual([]);
      expect(reasons.filter((r) => r === 'Redis is unreachable').length).toBeGreaterThan(0);
      expect(lines.filter((l) => l.level === 'WARNING')).toHaveLength(1);
      await redis.restart();
      const t = Date.now();
      let n: number | null = null;
      while (n === null && Date.now() - t < 120_000) {
        n = await Promise.resolve(rl.increment('1.2.3.4', 1, 1_000)).catch(() => null);
        if (n === null) await new Promise((r) => setTimeout(r, 50));
      }
      expect(n).toBe(1);
      expect(lines.filter((l) => l.level === 'INFO')).toHaveLength(1);
      expect(lines).toHaveLength(2);
    } finally {
      setLogSink(null);
    }
  });
});

describe('the store choice', () => {
  it('takes memory, redis (TOLLGATE_REDIS_URL) and redis:// URLs, and says what is wrong with anything else', () => {
    expect(parseStoreChoice('memory')).toEqual({ kind: 'memory' });
    expect(parseStoreChoice('redis://127.0.0.1:6390/2')).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6390/2' });
    expect(() => parseStoreChoice('mongodb://x')).toThrow(/memory, redis or a redis:\/\/host:port URL/);
    expect(() => parseStoreChoice('redis://h:1/x')).toThrow(/database number/);
    expect(() => parseStoreChoice('redis://h:1?timeout=1')).toThrow(/query parameters/);
  });
});
