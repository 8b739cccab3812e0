/**
 * `tollgate lockout clear <user>` against a real redis-server: the record serve's realm keeps (scope
 * engine) is forgotten, so the user logs in again on every instance sharing the store; the memory store,
 * whose table lives in the serving process, is refused with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { createRedisBackend, type RedisStateBackend } from '../../src/stores/redis.js';
import { startRedis, type RedisProcess } from './redis-server.js';

let redis: RedisProcess;
let backend: RedisStateBackend;

beforeAll(async () => {
  redis = await startRedis();
  backend = createRedisBackend({ url: redis.url, timeoutMs: 5_000 });
  expect(await backend.ready(10_000)).toBe(true);
});

afterAll(async () => {
  await backend?.close();
  await redis?.stop();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: '/' });
  return { code, out, err };
}

describe('tollgate lockout clear', () => {
  it("forgets a locked user's failures in Redis (both the name and its lower-cased form), and says so", async () => {
    const policy = { failureCount: 3, lockOutTime: 300, cacheSize: 1000 };
    const table = backend.lockouts('engine', policy);
    for (let i = 0; i < 3; i++) await table.registerFailure('ann', Date.now(), policy);
    await table.registerFailure('bob', Date.now(), policy);
    expect((await table.get('ann'))!.failures).toBe(3);
    const r = await cli(['lockout', 'clear', 'Ann', '--store', redis.url]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`OK - cleared the lock-out record of ann (3 failures) in realm engine at ${redis.url}\n`);
    expect(await table.get('ann')).toBeNull();
    // Nobody else's record is touched.
    expect((await table.get('bob'))!.failures).toBe(1);
    const again = await cli(['lockout', 'clear', 'ann', '--store', redis.url]);
    expect(again.out).toBe(`OK - no lock-out record for ann in realm engine at ${redis.url}\n`);
  });

  it('refuses the memory store, whose table is in the serving process, and an unknown action', async () => {
    const r = await cli(['lockout', 'clear', 'ann', '--store', 'memory']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tollgate lockout: the memory store's lock-out table lives in the serving process/);
    const bad = await cli(['lockout', 'unlock', 'ann', '--store', redis.url]);
    expect(bad.code).toBe(2);
  });
});
