/**
 * A hung Redis (SIGSTOP: the connection stays open and nothing answers) cannot hold a shutdown: the
 * backend's close waits for the replies under way at most its command timeout, then drops the socket,
 * so SIGTERM stays within its documented bound (issue 32, item 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionRecord } from '../../src/runtime/index.js';
import { createRedisBackend } from '../../src/stores/redis.js';
import { startRedis, type RedisProcess } from './redis-server.js';

let redis: RedisProcess;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  redis?.resume();
  await redis?.stop();
});

describe('closing the Redis backend', () => {
  it('settles with Redis SIGSTOPped and a command under way', async () => {
    const backend = createRedisBackend({ url: redis.url, timeoutMs: 300 });
    expect(await backend.ready(10_000)).toBe(true);
    const sessions = backend.context('localhost', '').sessions;
    await sessions.create(newSessionRecord('A', Date.now(), 60));
    redis.pause();
    try {
      // A command now waits for an answer that never comes (it fails closed after timeoutMs).
      const pending = Promise.resolve(sessions.load('A', Date.now())).then(
        () => 'answered',
        () => 'failed',
      );
      let closed = false;
      const closing = backend.close().then(() => (closed = true));
      // Without the bound, close() waited for Redis for ever; a generous ceiling only guards the test.
      await Promise.race([closing, new Promise((r) => setTimeout(r, 30_000))]);
      expect(closed).toBe(true);
      expect(await pending).toBe('failed');
    } finally {
      redis.resume();
    }
  });
});
