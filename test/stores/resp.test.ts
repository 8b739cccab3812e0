/**
 * src/stores/resp.ts, the store's own RESP2 client: replies split anywhere across reads, nested arrays,
 * the handshake a redis:// URL asks for, one timer for every command's timeout with the order kept, and a
 * byte stream it cannot read dropping the connection rather than answering the wrong command. A fake
 * server on 127.0.0.1 sends what each test scripts; a real redis-server checks the commands the store uses.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotConnectedError, ReplyTimeoutError, RespClient, RespError, type Reply } from '../../src/stores/resp.js';
import { freePort } from '../conformance/processes.js';
import { REDIS_SERVER, startRedis, type RedisProcess } from './redis-server.js';

/** What the fake server does with each command it reads (its arguments): the bytes to send, or null for none. */
let answer: (args: string[], socket: Socket) => string | null = () => '+OK\r\n';
const received: string[][] = [];

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
      args.push(Buffer.from(buf.slice(start, end), 'latin1').toString('utf8'));
      at = end + 2;
    }
    out.push(args);
    buf = buf.slice(at);
  }
}

let fake: Server;
let port = 0;
const sockets = new Set<Socket>();
const clients: RespClient[] = [];

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
        received.push(args);
        const out = answer(args, socket);
        if (out !== null) socket.write(Buffer.from(out, 'utf8'));
      }
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  port = (fake.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => fake.close(r));
});
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy();
  answer = () => '+OK\r\n';
  received.length = 0;
});

function client(
  url = `redis://127.0.0.1:${port}`,
  timeoutMs = 2_000,
): { c: RespClient; ready: Promise<void>; errors: Error[] } {
  const errors: Error[] = [];
  let resolve!: () => void;
  const ready = new Promise<void>((r) => (resolve = r));
  const c = new RespClient({
    url,
    connectTimeoutMs: 2_000,
    timeoutMs,
    retryDelay: () => 50,
    onReady: () => resolve(),
    onError: (e) => errors.push(e),
  });
  clients.push(c);
  return { c, ready, errors };
}

describe('the RESP2 client', () => {
  it('reads every reply type, nested, whether it comes whole or one byte at a time', async () => {
    const reply = '*5\r\n+OK\r\n:-42\r\n$4\r\nh\u00e9l\r\n$-1\r\n*2\r\n*-1\r\n*1\r\n$0\r\n\r\n';
    const expected: Reply = ['OK', -42, 'hél', null, [null, ['']]];
    for (const split of [false, true]) {
      answer = (_args, socket) => {
        if (!split) return reply;
        const bytes = Buffer.from(reply, 'utf8');
        let i = 0;
        const drip = (): void => {
          if (i < bytes.length && !socket.destroyed) socket.write(bytes.subarray(i, ++i), () => setImmediate(drip));
        };
        drip();
        return null;
      };
      const { c, ready } = client();
      await ready;
      expect(await c.send(['X'])).toEqual(expected);
    }
  });

  it('answers each command of a turn in order, UTF-8 arguments measured in bytes', async () => {
    let n = 0;
    answer = () => `:${++n}\r\n`;
    const { c, ready } = client();
    await ready;
    const replies = await Promise.all([c.send(['A', 'é']), c.send(['B', '日本']), c.send(['C'])]);
    expect(replies).toEqual([1, 2, 3]);
    expect(received).toEqual([['A', 'é'], ['B', '日本'], ['C']]);
  });

  it('rejects an error reply with the server’s text and goes on with the next', async () => {
    answer = (args) => (args[0] === 'BAD' ? '-NOSCRIPT No matching script.\r\n' : ':7\r\n');
    const { c, ready } = client();
    await ready;
    const [bad, good] = await Promise.allSettled([c.send(['BAD']), c.send(['GOOD'])]);
    expect(bad.status === 'rejected' && bad.reason).toBeInstanceOf(RespError);
    expect(bad.status === 'rejected' && (bad.reason as Error).message).toBe('NOSCRIPT No matching script.');
    expect(good).toEqual({ status: 'fulfilled', value: 7 });
  });

  it('sends AUTH and SELECT from the URL before it is ready', async () => {
    answer = () => '+OK\r\n';
    const { c, ready } = client(`redis://tg%20user:p%40ss@127.0.0.1:${port}/3`);
    await ready;
    expect(c.isReady).toBe(true);
    expect(received).toEqual([
      ['AUTH', 'tg user', 'p@ss'],
      ['SELECT', '3'],
    ]);
  });

  it('is never ready when AUTH is refused, and says why', async () => {
    answer = (args) => (args[0] === 'AUTH' ? '-WRONGPASS invalid username-password pair\r\n' : '+OK\r\n');
    const { c, errors } = client(`redis://:nope@127.0.0.1:${port}`);
    for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(errors[0]?.message).toMatch(/WRONGPASS/);
    expect(c.isReady).toBe(false);
    await expect(c.send(['PING'])).rejects.toBeInstanceOf(NotConnectedError);
  });

  it('times out a command that gets no reply, and drops its late reply without shifting the others', async () => {
    const held: Socket[] = [];
    answer = (args, socket) => {
      if (args[0] === 'SLOW') {
        held.push(socket);
        return null;
      }
      return `$${args[0]!.length}\r\n${args[0]}\r\n`;
    };
    const { c, ready } = client(undefined, 150);
    await ready;
    const slow = c.send(['SLOW']);
    await expect(slow).rejects.toBeInstanceOf(ReplyTimeoutError);
    // The late reply to SLOW comes first; the next command must get its own.
    held[0]!.write('$4\r\nSLOW\r\n');
    expect(await c.send(['NEXT'])).toBe('NEXT');
  });

  it('drops the connection on bytes that are not RESP2, rejecting what was under way, and connects again', async () => {
    answer = (args) => (args[0] === 'MAP' ? '%1\r\n+a\r\n:1\r\n' : ':1\r\n');
    const { c, ready, errors } = client();
    await ready;
    await expect(c.send(['MAP'])).rejects.toThrow(/reply of type "%"/);
    expect(errors).toHaveLength(1);
    for (let i = 0; i < 100 && !c.isReady; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await c.send(['PING'])).toBe(1);
  });

  it('refuses commands at once while the server is down, and close() waits for the replies under way', async () => {
    const { c, ready } = client(`redis://127.0.0.1:1`);
    const first = await Promise.race([ready.then(() => 'ready'), new Promise((r) => setTimeout(r, 200, 'down'))]);
    expect(first).toBe('down');
    await expect(c.send(['PING'])).rejects.toBeInstanceOf(NotConnectedError);

    answer = () => null;
    const live = client();
    await live.ready;
    let sock: Socket | undefined;
    answer = (_args, socket) => {
      sock = socket;
      return null;
    };
    const under = live.c.send(['WAIT']);
    for (let i = 0; i < 100 && sock === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const closed = live.c.close();
    await expect(live.c.send(['LATE'])).rejects.toBeInstanceOf(NotConnectedError);
    sock!.write(':5\r\n');
    expect(await under).toBe(5);
    await closed;
  });
});

describe('against a real redis-server', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('runs scripts and reads their replies as the store needs them', async () => {
    const { c, ready } = client(redis.url);
    await ready;
    expect(await c.send(['HSET', 'h', 'a', 'é', 'b', '2'])).toBe(2);
    expect(await c.send(['EVAL', "return redis.call('HGETALL', KEYS[1])", '1', 'h'])).toEqual(['a', 'é', 'b', '2']);
    expect(await c.send(['EVAL', 'return {1, ARGV[1], false}', '0', 'x'])).toEqual([1, 'x', null]);
    expect(await c.send(['CONFIG', 'GET', 'maxmemory-policy'])).toEqual(['maxmemory-policy', 'noeviction']);
    await expect(c.send(['EVALSHA', '0'.repeat(40), '0'])).rejects.toThrow(/^NOSCRIPT/);
    const big = 'x'.repeat(300_000);
    await c.send(['SET', 'big', big]);
    expect(await c.send(['GET', 'big'])).toBe(big);
  });

  it('as a subscriber, hands over every message of its channel, and subscribes again after a reconnection', async () => {
    const got: string[] = [];
    let readies = 0;
    const sub = new RespClient({
      url: redis.url,
      connectTimeoutMs: 2_000,
      timeoutMs: 2_000,
      retryDelay: () => 50,
      onReady: () => readies++,
      onError: () => undefined,
      subscribe: { channel: 'ch', onMessage: (m) => got.push(m) },
    });
    clients.push(sub);
    const { c: pub, ready } = client(redis.url);
    await ready;
    const until = async (ok: () => boolean): Promise<void> => {
      for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(ok()).toBe(true);
    };
    await until(() => sub.isReady);
    expect(await pub.send(['PUBLISH', 'ch', 'one'])).toBe(1);
    expect(await pub.send(['PUBLISH', 'other', 'x'])).toBe(0);
    await until(() => got.length === 1);
    expect(await pub.send(['CLIENT', 'KILL', 'TYPE', 'pubsub'])).toBe(1);
    await until(() => readies === 2);
    expect(await pub.send(['PUBLISH', 'ch', 'two é'])).toBe(1);
    await until(() => got.length === 2);
    expect(got).toEqual(['one', 'two é']);
  });
});

describe('rediss:// (TLS) with a password and a database number', () => {
  it('verifies the server certificate, authenticates and selects the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-rediss-'));
    const tlsPort = await freePort();
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    // prettier-ignore
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl (Debian package openssl) failed: ${made.stderr}`);
    // prettier-ignore
    const server = spawn(REDIS_SERVER, ['--port', '0', '--tls-port', String(tlsPort), '--bind', '127.0.0.1', '--tls-cert-file', cert,
      '--tls-key-file', key, '--tls-ca-cert-file', cert, '--tls-auth-clients', 'no', '--requirepass', 's3cret', '--save', '',
      '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' });
    try {
      const script = `
        import { RespClient } from ${JSON.stringify(new URL('../../src/stores/resp.ts', import.meta.url).href)};
        const [url] = process.argv.slice(-1);
        let tries = 0;
        const c = new RespClient({ url, connectTimeoutMs: 2000, timeoutMs: 2000, retryDelay: () => 100,
          onReady: async () => {
            const info = await c.send(['CLIENT', 'INFO']);
            console.log(JSON.stringify({ ping: await c.send(['PING']), db: /db=(\\d+)/.exec(info)[1] }));
            c.destroy();
          },
          onError: (e) => { if (++tries > 50 || !/ECONNREFUSED/.test(e.message)) { console.log(JSON.stringify({ error: e.message })); c.destroy(); } } });
      `;
      const run = (url: string, ca: boolean): unknown =>
        JSON.parse(
          execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, url], {
            encoding: 'utf8',
            env: { ...process.env, ...(ca ? { NODE_EXTRA_CA_CERTS: cert } : {}) },
          }),
        );
      expect(run(`rediss://:s3cret@localhost:${tlsPort}/2`, true)).toEqual({ ping: 'PONG', db: '2' });
      expect(run(`rediss://:wrong@localhost:${tlsPort}`, true)).toEqual({ error: expect.stringMatching(/WRONGPASS/) });
      expect(run(`rediss://:s3cret@localhost:${tlsPort}`, false)).toEqual({ error: 'self-signed certificate' });
    } finally {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
