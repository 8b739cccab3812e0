/**
 * What the Redis backend does with replies of the wrong type (issue 32: `+OK`, nil or a number where a
 * count or a record is expected made the lock-out and the rate limit compare NaN and let requests
 * through), and with a Redis whose maxmemory-policy may evict keys. A fake RESP server on 127.0.0.1
 * answers each EVALSHA with the reply under test; a real redis-server checks the policy.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@redis/client';
import { newSessionRecord, setLogSink, type LogRecord } from '../../src/runtime/index.js';
import { main } from '../../src/cli/index.js';
import {
  createRedisBackend,
  RedisPolicyError,
  UnexpectedReplyError,
  type RedisStateBackend,
} from '../../src/stores/redis.js';
import { startRedis, type RedisProcess } from './redis-server.js';

/** The RESP-encoded answer to the next EVALSHA. */
let evalReply = '+OK\r\n';
let policy = 'noeviction';

/** Reads RESP arrays of bulk strings (what a client sends) from `buf`; returns the commands and what is left. */
function commands(buf: string): [string[][], string] {
  const out: string[][] = [];
  for (;;) {
    const m = /^\*(\d+)\r\n/.exec(buf);
    if (!m) return [out, buf];
    let at = m[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(m[1]); i++) {
      const b = /^\$(\d+)\r\n/.exec(buf.slice(at));
      if (!b) return [out, buf];
      const start = at + b[0].length;
      const end = start + Number(b[1]);
      if (buf.length < end + 2) return [out, buf];
      args.push(buf.slice(start, end));
      at = end + 2;
    }
    out.push(args);
    buf = buf.slice(at);
  }
}

const bulk = (s: string): string => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

let fake: Server;
let fakeUrl: string;
const sockets = new Set<Socket>();
beforeAll(async () => {
  fake = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      const [list, rest] = commands(pending + d);
      pending = rest;
      for (const args of list) {
        const name = args[0]!.toUpperCase();
        if (name === 'EVALSHA') socket.write(evalReply);
        else if (name === 'CONFIG')
          // A managed Redis may refuse CONFIG (renamed or disabled): policy '' stands for that.
          socket.write(
            policy === '' ? "-ERR unknown command 'CONFIG'\r\n" : `*2\r\n${bulk('maxmemory-policy')}${bulk(policy)}`,
          );
        else if (name === 'DEL') socket.write(':1\r\n');
        else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `redis://127.0.0.1:${(fake.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => fake.close(r));
});

const backends: RedisStateBackend[] = [];
afterEach(async () => {
  setLogSink(null);
  for (const b of backends.splice(0)) await b.close();
  evalReply = '+OK\r\n';
  policy = 'noeviction';
});

async function backend(url = fakeUrl, allowEviction = false): Promise<RedisStateBackend> {
  const b = createRedisBackend({ url, timeoutMs: 2_000, allowEviction });
  backends.push(b);
  expect(await b.ready(5_000)).toBe(true);
  return b;
}

describe('replies of the wrong type fail closed, with one log line', () => {
  it('refuses +OK, nil, a string, 0 and an array where the rate limit expects a count', async () => {
    const lines: LogRecord[] = [];
    setLogSink((r) => lines.push(r));
    const rl = (await backend()).context('localhost', '/').rateLimiter('limit');
    for (const reply of ['+OK\r\n', '$-1\r\n', bulk('7'), ':0\r\n', '*1\r\n:1\r\n', ':-3\r\n']) {
      evalReply = reply;
      await expect(Promise.resolve(rl.increment('1.2.3.4', 1, 1_000))).rejects.toBeInstanceOf(UnexpectedReplyError);
    }
    // One line for the run of bad replies, not one per request.
    expect(lines.filter((l) => /unexpected reply/.test(l.message))).toHaveLength(1);
    evalReply = ':3\r\n';
    expect(await rl.increment('1.2.3.4', 1, 1_000)).toBe(3);
    // Well-typed again: the next bad reply is logged again.
    evalReply = '+OK\r\n';
    await expect(Promise.resolve(rl.increment('1.2.3.4', 1, 1_000))).rejects.toBeInstanceOf(UnexpectedReplyError);
    expect(lines.filter((l) => /unexpected reply/.test(l.message))).toHaveLength(2);
  });

  it('refuses what is not a lock-out record, so the lock-out cannot compare NaN and let a locked user in', async () => {
    setLogSink(() => undefined);
    const lock = (await backend()).lockouts('engine');
    const policyArgs = { failureCount: 5, lockOutTime: 300 };
    for (const reply of ['+OK\r\n', ':5\r\n', `*2\r\n${bulk('x')}${bulk('1')}`, `*1\r\n${bulk('5')}`]) {
      evalReply = reply;
      await expect(Promise.resolve(lock.get('ann'))).rejects.toBeInstanceOf(UnexpectedReplyError);
      await expect(Promise.resolve(lock.registerFailure('ann', 1_000, policyArgs))).rejects.toBeInstanceOf(
        UnexpectedReplyError,
      );
    }
    evalReply = '$-1\r\n';
    // nil is a valid answer to get (no record) but not to registerFailure (which always returns one).
    expect(await lock.get('ann')).toBeNull();
    await expect(Promise.resolve(lock.registerFailure('ann', 1_000, policyArgs))).rejects.toBeInstanceOf(
      UnexpectedReplyError,
    );
    evalReply = `*2\r\n:6\r\n${bulk('1000')}`;
    expect(await lock.registerFailure('ann', 1_000, policyArgs)).toEqual({ failures: 6, lastFailure: 1_000 });
  });

  it('refuses a session hash that is not one, and flags that are not 0 or 1', async () => {
    setLogSink(() => undefined);
    const sessions = (await backend()).context('localhost', '/').sessions;
    for (const reply of ['+OK\r\n', ':1\r\n', `*1\r\n${bulk('c')}`]) {
      evalReply = reply;
      await expect(Promise.resolve(sessions.load('S', 1))).rejects.toBeInstanceOf(UnexpectedReplyError);
    }
    evalReply = ':7\r\n';
    await expect(Promise.resolve(sessions.create(newSessionRecord('S', 1, 60)))).rejects.toBeInstanceOf(
      UnexpectedReplyError,
    );
    await expect(Promise.resolve(sessions.restToken('S', 'T'))).rejects.toBeInstanceOf(UnexpectedReplyError);
    evalReply = '$-1\r\n';
    expect(await sessions.load('S', 1)).toBeNull();
  });
});

describe("Redis's maxmemory-policy", () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  async function setPolicy(p: string): Promise<void> {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    await raw.configSet('maxmemory-policy', p);
    await raw.close();
  }

  it('refuses an evicting policy unless allowed, with one SEVERE line, and every command fails closed', async () => {
    const lines: LogRecord[] = [];
    setLogSink((r) => lines.push(r));
    await setPolicy('allkeys-lru');
    try {
      const b = await backend(redis.url);
      expect(b.policyProblem).toMatch(/maxmemory-policy allkeys-lru, which may evict/);
      expect(b.healthy).toBe(false);
      await expect(Promise.resolve(b.lockouts('engine').get('ann'))).rejects.toBeInstanceOf(RedisPolicyError);
      await expect(
        Promise.resolve(b.context('localhost', '/').rateLimiter('l').increment('a', 1, 1_000)),
      ).rejects.toBeInstanceOf(RedisPolicyError);
      expect(lines.filter((l) => l.level === 'SEVERE')).toHaveLength(1);

      const allowed = await backend(redis.url, true);
      expect(allowed.policyProblem).toBeNull();
      expect(await allowed.context('localhost', '/').rateLimiter('l').increment('a', 1, 1_000)).toBe(1);

      // tollgate serve refuses to start on it, and says how to fix it.
      const out: string[] = [];
      const code = await main(['serve', '--base', 'examples/base', '--port', '0', '--store', redis.url], {
        cwd: process.cwd(),
        stdout: (s: string) => out.push(s),
        stderr: (s: string) => out.push(s),
      } as never);
      expect(code).toBe(1);
      expect(out.join('')).toMatch(/not starting: Redis at .* has maxmemory-policy allkeys-lru.*noeviction/);
    } finally {
      await setPolicy('noeviction');
    }
  });

  it('accepts noeviction, and refuses a policy it cannot read (CONFIG refused) unless allowed', async () => {
    setLogSink(() => undefined);
    expect((await backend(redis.url)).policyProblem).toBeNull();
    expect((await backend(redis.url)).healthy).toBe(true);
    policy = '';
    const fakeBackend = createRedisBackend({ url: fakeUrl, timeoutMs: 2_000 });
    backends.push(fakeBackend);
    evalReply = ':1\r\n';
    expect(await fakeBackend.ready(5_000)).toBe(true);
    expect(fakeBackend.policyProblem).toMatch(
      /cannot be read \(CONFIG GET maxmemory-policy failed: ERR unknown command/,
    );
    const allowed = createRedisBackend({ url: fakeUrl, timeoutMs: 2_000, allowEviction: true });
    backends.push(allowed);
    expect(await allowed.ready(5_000)).toBe(true);
    expect(allowed.policyProblem).toBeNull();
  });
});
