/**
 * SIGTERM is bounded whatever Redis does (issue 32): with the Redis `serve` uses SIGSTOPped (hung: the
 * connection stays open and nothing answers) and a request waiting for it, a SIGTERM to `serve` (one
 * process, and a primary with two workers) ends the process by `--drain-timeout`. The store's command
 * timeout is set to its maximum (60 s, tollgate.config.json), so the request and the close of the
 * connection to the hung Redis would hold the stop for a minute: the process exits because the deadline
 * cut it short, which its WARNING line says. The request is known to wait for Redis when the kernel
 * holds its command unread in the stopped Redis's socket (/proc/net/tcp).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_SERVER, startRedis, type RedisProcess } from '../stores/redis-server.js';
import { makeBase, serverXml } from './harness.js';
import { ask, waitFor } from './http.js';
import { startServe, stopServes } from './serve-process.js';

if (!existsSync(REDIS_SERVER)) throw new Error('redis-server is missing: install the Debian package redis-server');

let redis: RedisProcess;
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  redis.resume();
  await stopServes();
});
afterAll(async () => {
  redis.resume();
  await redis.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A base, and a working directory whose tollgate.config.json names the Redis with a 60 s command timeout. */
function setUp(): { base: string; cwd: string } {
  const base = makeBase(serverXml());
  const cwd = mkdtempSync(join(tmpdir(), 'tg-stop-'));
  dirs.push(base, cwd);
  writeFileSync(join(cwd, 'tollgate.config.json'), JSON.stringify({ store: { url: redis.url, timeoutMs: 60_000 } }));
  return { base, cwd };
}

/** Bytes received and not yet read by the sockets listening side of 127.0.0.1:port (the stopped Redis). */
function unread(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let total = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] === local && f[3] === '01') total += parseInt(f[4]!.split(':')[1]!, 16);
  }
  return total;
}

/** A host-manager request: the LockOutRealm asks the store (Redis) before it answers. */
function hostManagerList(port: number): void {
  const req = request({
    host: '127.0.0.1',
    port,
    path: '/host-manager/text/list',
    agent: false,
    headers: { Host: 'localhost', Authorization: `Basic ${Buffer.from('admin:s3cret').toString('base64')}` },
  });
  req.on('error', () => undefined);
  req.on('response', (res) => res.resume());
  req.end();
}

describe('SIGTERM with Redis hung', () => {
  for (const workers of [1, 2]) {
    it(`--workers ${workers}: serve exits by --drain-timeout, and says the deadline cut the stop short`, async () => {
      const { base, cwd } = setUp();
      const s = await startServe(base, ['--workers', String(workers), '--drain-timeout', '3'], { cwd });
      expect(s.out()).not.toMatch(/not answering yet/);
      expect((await ask(s.port, '/index.html', { headers: { Host: 'localhost' } })).status).toBe(200);

      redis.pause();
      hostManagerList(s.port);
      await waitFor(
        () => unread(redis.port) > 0,
        60_000,
        () => `the request's command never reached Redis:\n${s.err()}`,
      );
      process.kill(s.child.pid!, 'SIGTERM');
      const how = await Promise.race([
        s.exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 100_000).unref()),
      ]);
      expect(how).toBe(0);
      // The process waiting for Redis (the single process, or the worker the request went to) was cut short by its deadline.
      const cut =
        s.err().match(/WARNING .*drain deadline reached \(\S+ s after the stop began\): .*; exiting now/g) ?? [];
      expect(cut, s.err()).toHaveLength(1);
      await waitFor(
        () => /tollgate serve: stopped/.test(s.out() + s.err()) || workers === 1,
        10_000,
        () => `the primary did not say it stopped:\n${s.out()}\n${s.err()}`,
      );
    }, 180_000);
  }
});
