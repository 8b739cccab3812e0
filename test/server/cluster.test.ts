/**
 * `tollgate serve --workers 2` as real processes (the built CLI, node:cluster),
 * on 127.0.0.1 and an ephemeral port. Which worker answered a request is read
 * from the log: every worker names itself on its lines ([worker N pid P]) and
 * the base's conf/web.xml maps RequestDumperFilter, which logs each request's
 * query string.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@redis/client';
import { loadBase } from '../../src/parser/index.js';
import { startRedis } from '../stores/redis-server.js';
import { makeBase, serverXml } from './harness.js';
import { waitFor } from './http.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');
const ADMIN = 'Basic ' + Buffer.from('admin:s3cret').toString('base64');

const DUMPER_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter><filter-name>dumper</filter-name><filter-class>org.apache.catalina.filters.RequestDumperFilter</filter-class></filter>
  <filter-mapping><filter-name>dumper</filter-name><url-pattern>/*</url-pattern></filter-mapping>
  <servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet>
  <servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>
</web-app>
`;

/** Bytes of the file the slow downloads read: well past the socket buffers, so the response stays in flight. */
const BIG = 16 * 1024 * 1024;

interface Serve {
  child: ChildProcess;
  port: number;
  base: string;
  out(): string;
  err(): string;
  /** The exit code once the primary has exited. */
  exited: Promise<number | null>;
}

const running: Serve[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      // The whole process group: the primary and its workers.
      try {
        process.kill(-s.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await s.exited;
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** ROOT's own filters: RestCsrfPreventionFilter on /api/*, RateLimitFilter (5 per window) on /limited/*. */
const STATEFUL_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter><filter-name>csrf</filter-name><filter-class>org.apache.catalina.filters.RestCsrfPreventionFilter</filter-class></filter>
  <filter-mapping><filter-name>csrf</filter-name><url-pattern>/api/*</url-pattern></filter-mapping>
  <filter>
    <filter-name>limit</filter-name><filter-class>org.apache.catalina.filters.RateLimitFilter</filter-class>
    <init-param><param-name>bucketDuration</param-name><param-value>3600</param-value></init-param>
    <init-param><param-name>bucketRequests</param-name><param-value>5</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>limit</filter-name><url-pattern>/limited/*</url-pattern></filter-mapping>
</web-app>
`;

/** The lines of the Host's access log (logs/localhost_access_log.<date>.txt), in order. */
function accessLog(base: string): string[] {
  const dir = join(base, 'logs');
  return readdirSync(dir)
    .filter((f) => f.startsWith('localhost_access_log.'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
}

function clusterBase(opts: { dumper?: boolean; stateful?: boolean } = {}): string {
  const base = makeBase(serverXml({ storeConfig: true }));
  dirs.push(base);
  if (opts.dumper !== false) writeFileSync(join(base, 'conf', 'web.xml'), DUMPER_WEB_XML);
  writeFileSync(join(base, 'webapps', 'ROOT', 'big.bin'), Buffer.alloc(BIG, 0x61));
  if (opts.stateful) {
    mkdirSync(join(base, 'webapps', 'ROOT', 'WEB-INF'), { recursive: true });
    writeFileSync(join(base, 'webapps', 'ROOT', 'WEB-INF', 'web.xml'), STATEFUL_WEB_XML);
    for (const dir of ['api', 'limited']) {
      mkdirSync(join(base, 'webapps', 'ROOT', dir), { recursive: true });
      writeFileSync(join(base, 'webapps', 'ROOT', dir, 'index.html'), `${dir}\n`);
    }
  }
  return base;
}

async function serve(base: string, args: string[] = ['--workers', '2']): Promise<Serve> {
  const child = spawn(process.execPath, [bin, 'serve', '--base', base, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const s: Serve = { child, port: 0, base, out: () => out, err: () => err, exited };
  running.push(s);
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1],
    120_000,
    () => `serve did not start:\n${out}\n${err}`,
  );
  s.port = Number(port);
  return s;
}

interface Answer {
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
}

/** One request on a connection of its own (so the cluster hands each to the next worker). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  agent: Agent | false = false,
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent, method, headers: { Host: 'localhost', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once a new connection to `port` fails; fails the test if none has after `ms` (a hang guard). */
async function refusedWithin(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  // A TCP connect, closed at once: a request on it could be accepted by the primary in the last moment, bounced
  // by a worker that has closed its listener, and then wait in node:cluster's queue until the process exits.
  const listening = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  while (await listening()) {
    if (Date.now() > deadline) throw new Error(`port ${port} still answers ${ms} ms after SIGTERM`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pid of the worker whose RequestDumperFilter logged this query string. */
function servedBy(log: string, query: string): number | undefined {
  const m = new RegExp(`\\[worker \\d+ pid (\\d+)\\] \\[[^\\]]+\\] \\S+ +queryString=${query}\\n`).exec(log);
  return m ? Number(m[1]) : undefined;
}

/** A download that reads nothing until `resume()`: its response is in flight on the server until then. */
function slowDownload(port: number): {
  headers: Promise<void>;
  resume(): void;
  done: Promise<{ status: number; bytes: number }>;
} {
  let resume: () => void = () => undefined;
  let gotHeaders: () => void = () => undefined;
  const headers = new Promise<void>((r) => (gotHeaders = r));
  const done = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/big.bin', agent: false, headers: { Host: 'localhost' } },
      (res) => {
        let bytes = 0;
        res.pause();
        resume = () => res.resume();
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
        gotHeaders();
      },
    );
    req.on('error', reject);
    req.end();
  });
  return { headers, resume: () => resume(), done };
}

// Real processes on a shared machine: each test starts a cluster (about 2 s when quiet) and some wait on it.
describe('serve --workers 2', () => {
  it('rejects --workers values that are not auto or a count from 1', async () => {
    const base = clusterBase();
    for (const bad of ['0', 'two', '-1', '1.5']) {
      const child = spawn(process.execPath, [bin, 'serve', '--base', base, '--port', '0', '--workers', bad], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, bad).toBe(2);
      expect(err).toContain('--workers');
    }
  });

  it('serves a host added through one worker from the other worker', async () => {
    const s = await serve(clusterBase());
    const pids = /pids (\d+), (\d+)/.exec(s.out())!.slice(1).map(Number);
    expect(pids).toHaveLength(2);
    mkdirSync(join(s.base, 'newapps', 'ROOT'), { recursive: true });
    writeFileSync(join(s.base, 'newapps', 'ROOT', 'index.html'), 'the new host\n');

    const added = await get(s.port, '/host-manager/text/add?name=new.test&appBase=newapps', { Authorization: ADMIN });
    expect(added.body).toBe('OK - Host [new.test] added\n');
    const receivedBy = Number(
      await waitFor(
        () =>
          /host manager: add \[new\.test\] applied in 2 worker\(s\) \(received by worker \d+, pid (\d+)\)/.exec(
            s.err(),
          )?.[1],
        5_000,
        () => s.err(),
      ),
    );
    expect(pids).toContain(receivedBy);

    // Connections go round-robin: within a few, one lands on the worker that did not receive the add.
    let other: number | undefined;
    for (let i = 0; i < 10 && other === undefined; i++) {
      const r = await get(s.port, `/index.html?probe-${i}`, { Host: 'new.test' });
      expect(r.status).toBe(200);
      expect(r.body).toBe('the new host\n');
      const pid = await waitFor(
        () => servedBy(s.err(), `probe-${i}`),
        120_000,
        () => `no dump of probe-${i}`,
      );
      expect(pids).toContain(pid);
      if (pid !== receivedBy) other = pid;
    }
    expect(other).toBeDefined();
  });

  it('leaves one valid server.xml holding every host after many parallel add and persist requests', async () => {
    const s = await serve(clusterBase({ dumper: false }));
    const names = Array.from({ length: 24 }, (_, i) => `h${i}.test`);
    const answers = await Promise.all(
      names.map(async (n) => {
        const add = await get(s.port, `/host-manager/text/add?name=${n}`, { Authorization: ADMIN });
        const persist = await get(s.port, '/host-manager/text/persist', { Authorization: ADMIN });
        return [add.body, persist.body];
      }),
    );
    for (const [i, [add, persist]] of answers.entries()) {
      expect(add).toBe(`OK - Host [${names[i]}] added\n`);
      expect(persist).toBe('OK - Configuration persisted\n');
    }
    const text = readFileSync(join(s.base, 'conf', 'server.xml'), 'utf8');
    expect(text.match(/<Host\b/g)).toHaveLength(names.length + 1);
    for (const n of names) expect(text.split(`name="${n}"`)).toHaveLength(2);
    // It parses as the server.xml Tomcat would read, and nothing half-written is left beside it.
    const reread = loadBase({ base: s.base });
    expect(reread.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(reread.hosts.map((h) => h.name).sort()).toEqual(['localhost', ...names].sort());
    expect(readdirSync(join(s.base, 'conf')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Both workers took every host.
    const list = await Promise.all(
      [0, 1, 2, 3].map(() => get(s.port, '/host-manager/text/list', { Authorization: ADMIN })),
    );
    for (const l of list) for (const n of names) expect(l.body).toContain(`[${n}]:[]`);
  });

  it('finishes every request in flight on SIGTERM, then exits 0', async () => {
    const s = await serve(clusterBase({ dumper: false }));
    const downloads = Array.from({ length: 4 }, () => slowDownload(s.port));
    await Promise.all(downloads.map((d) => d.headers));
    process.kill(s.child.pid!, 'SIGTERM');
    // The workers stop accepting and wait for the responses their clients have not read yet: a new
    // connection is refused (polled, as a loaded machine may take seconds to get there) while the
    // process still runs.
    await refusedWithin(s.port, 120_000);
    expect(s.child.exitCode).toBeNull();
    for (const d of downloads) d.resume();
    for (const d of downloads) expect(await d.done).toEqual({ status: 200, bytes: BIG });
    expect(await s.exited).toBe(0);
    expect(s.out()).toContain('tollgate serve: stopped');
    // Each worker wrote its buffered access log lines before exiting (the Host's AccessLogValve, common).
    expect(accessLog(s.base).filter((l) => l.includes('"GET /big.bin HTTP/1.1" 200 16777216'))).toHaveLength(4);
  });

  it('with --workers 1 runs one process without node:cluster, and drains it on SIGTERM too', async () => {
    const s = await serve(clusterBase(), ['--workers', '1']);
    expect(s.out()).not.toContain('worker processes');
    expect((await get(s.port, '/index.html?single')).status).toBe(200);
    // The one process logs as before, without a worker's name.
    await waitFor(
      () => s.err().includes('queryString=single'),
      120_000,
      () => s.err(),
    );
    expect(s.err()).not.toContain('[worker ');
    const download = slowDownload(s.port);
    await download.headers;
    process.kill(s.child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(s.child.exitCode).toBeNull();
    download.resume();
    expect(await download.done).toEqual({ status: 200, bytes: BIG });
    expect(await s.exited).toBe(0);
    // Buffered lines are written on SIGTERM: nothing is lost.
    expect(accessLog(s.base)).toEqual([
      expect.stringMatching(/^127\.0\.0\.1 - - \[[^\]]+\] "GET \/index.html\?single HTTP\/1\.1" 200 \d+$/),
      expect.stringMatching(/"GET \/big\.bin HTTP\/1\.1" 200 16777216$/),
    ]);
  });

  it('restarts the workers on SIGHUP one by one without losing a request', async () => {
    const s = await serve(clusterBase({ dumper: false }));
    const before = /pids (\d+), (\d+)/.exec(s.out())!.slice(1).map(Number);
    const slow = Array.from({ length: 2 }, () => slowDownload(s.port));
    await Promise.all(slow.map((d) => d.headers));
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    // Clients on fresh connections and on kept-alive ones, sending all the time.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 2 });
    const loops = ([false, false, keepAlive, keepAlive] as const).map(async (agent: Agent | false) => {
      while (!stop) {
        try {
          const r = await get(s.port, '/index.html', {}, agent);
          if (r.status !== 200) failures.push(`status ${r.status}`);
          else answered++;
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(s.child.pid!, 'SIGHUP');
    await waitFor(
      () => s.err().includes('SIGHUP: restarted'),
      120_000,
      () => `no restart:\n${s.err()}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const d of slow) d.resume();
    for (const d of slow) expect(await d.done).toEqual({ status: 200, bytes: BIG });
    stop = true;
    await Promise.all(loops);
    keepAlive.destroy();
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    const after = /SIGHUP: restarted: worker \d+ pid (\d+), worker \d+ pid (\d+)/.exec(s.err())!.slice(1).map(Number);
    for (const pid of after) expect(before).not.toContain(pid);
  });

  it('keeps sessions, REST CSRF tokens, rate limits and lock-outs in the primary, so every worker sees the same', async () => {
    const s = await serve(clusterBase({ stateful: true }));
    const pids = /pids (\d+), (\d+)/.exec(s.out())!.slice(1).map(Number);
    const by = (query: string): Promise<number> =>
      waitFor(
        () => servedBy(s.err(), query),
        120_000,
        () => `no dump of ${query}`,
      );

    // A token fetched from one worker (it creates the session) is accepted by the other, and only that token.
    const fetched = await get(s.port, '/api/index.html?fetch', { 'X-CSRF-Token': 'Fetch' });
    const token = fetched.headers['x-csrf-token'] as string;
    const cookie = (fetched.headers['set-cookie'] as string[])[0]!.split(';')[0]!;
    expect(token).toMatch(/^[0-9A-F]{32}$/);
    const fetchedBy = await by('fetch');
    const answeredBy = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const post = await get(
        s.port,
        `/api/index.html?post-${i}`,
        { Cookie: cookie, 'X-CSRF-Token': token },
        false,
        'POST',
      );
      expect(post.status).toBe(200);
      answeredBy.add(await by(`post-${i}`));
      const forged = await get(
        s.port,
        `/api/index.html?forged-${i}`,
        { Cookie: cookie, 'X-CSRF-Token': 'ABC' },
        false,
        'POST',
      );
      expect(forged.status).toBe(403);
    }
    expect([...answeredBy].some((p) => p !== fetchedBy)).toBe(true);

    // The requests per window for one address (FastRateLimiter's rounding, as the filter logs it: 5 per 3600 s
    // becomes 6 per 4194 s), counted once whichever worker takes them: each worker alone would let all of them through.
    const allowed = Number(
      await waitFor(
        () => /Actual is \[(\d+)\] per/.exec(s.err())?.[1],
        120_000,
        () => s.err(),
      ),
    );
    const limited = [];
    for (let i = 0; i < allowed + 3; i++) limited.push((await get(s.port, `/limited/index.html?limit-${i}`)).status);
    expect(limited).toEqual([...Array<number>(allowed).fill(200), 429, 429, 429]);
    expect(new Set(await Promise.all([0, 1, 2, 3].map((i) => by(`limit-${i}`)))).size).toBe(2);

    // LockOutRealm's five failures, spread over both workers, lock the user on both.
    const wrong = 'Basic ' + Buffer.from('admin:wrong').toString('base64');
    for (let i = 0; i < 5; i++)
      expect((await get(s.port, '/host-manager/text/list', { Authorization: wrong })).status).toBe(401);
    for (let i = 0; i < 4; i++)
      expect((await get(s.port, '/host-manager/text/list', { Authorization: ADMIN })).status).toBe(401);
    // As LockOutRealm.filterLockedAccounts: the fifth failure registers, then finds the user locked and logs it; so does each try after.
    // The workers' log arrives on its own pipe, after the answers it goes with.
    const lockedLines = (): number =>
      s.err().match(/An attempt was made to authenticate the locked user \[admin\]/g)?.length ?? 0;
    await waitFor(
      () => lockedLines() >= 5,
      120_000,
      () => s.err(),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(lockedLines()).toBe(5);
    const lockedBy = new Set(
      [
        ...s
          .err()
          .matchAll(
            /\[worker \d+ pid (\d+)\] \[org\.apache\.catalina\.realm\.LockOutRealm\] An attempt was made to authenticate the locked user/g,
          ),
      ].map((m) => Number(m[1])),
    );
    expect([...lockedBy].sort()).toEqual([...pids].sort());
  });

  it('with --store redis, keeps the state in Redis, where every worker reads it', async () => {
    const redis = await startRedis();
    const raw = createClient({ url: redis.url });
    try {
      await raw.connect();
      const s = await serve(clusterBase({ stateful: true }), ['--workers', '2', '--store', redis.url]);
      expect(s.out()).toContain(
        'state (sessions, CSRF nonces, rate limits, lock-outs): Redis, each worker connected to it',
      );
      const fetched = await get(s.port, '/api/index.html?fetch', { 'X-CSRF-Token': 'Fetch' });
      const token = fetched.headers['x-csrf-token'] as string;
      const cookie = (fetched.headers['set-cookie'] as string[])[0]!.split(';')[0]!;
      const sessionId = cookie.split('=')[1]!;
      // The worker wrote the session to Redis itself.
      expect((await raw.keys('*')).some((k) => k.endsWith(`s:${sessionId}`))).toBe(true);
      const fetchedBy = await waitFor(
        () => servedBy(s.err(), 'fetch'),
        120_000,
        () => s.err(),
      );
      const answeredBy = new Set<number>();
      for (let i = 0; i < 3; i++) {
        const post = await get(
          s.port,
          `/api/index.html?post-${i}`,
          { Cookie: cookie, 'X-CSRF-Token': token },
          false,
          'POST',
        );
        expect(post.status).toBe(200);
        answeredBy.add(
          await waitFor(
            () => servedBy(s.err(), `post-${i}`),
            120_000,
            () => s.err(),
          ),
        );
      }
      expect([...answeredBy].some((p) => p !== fetchedBy)).toBe(true);
    } finally {
      await raw.quit().catch(() => undefined);
      await redis.stop();
    }
  });

  it('replaces a worker that dies, with one log line', async () => {
    const s = await serve(clusterBase());
    const pids = /pids (\d+), (\d+)/.exec(s.out())!.slice(1).map(Number);
    process.kill(pids[0]!, 'SIGKILL');
    await waitFor(
      () => s.err().includes('exited with signal SIGKILL'),
      120_000,
      () => s.err(),
    );
    expect(s.err().match(/exited with signal SIGKILL; starting a replacement/g)).toHaveLength(1);
    // Requests keep being answered, and a new worker answers some of them.
    const seen = new Set<number>();
    // A hang guard: a replacement worker starts in well under a second on a quiet machine.
    const deadline = Date.now() + 120_000;
    for (let i = 0; Date.now() < deadline && ![...seen].some((p) => !pids.includes(p)); i++) {
      const r = await get(s.port, `/index.html?after-${i}`);
      expect(r.status).toBe(200);
      seen.add(
        await waitFor(
          () => servedBy(s.err(), `after-${i}`),
          120_000,
          () => `no dump of after-${i}`,
        ),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.has(pids[0]!)).toBe(false);
    expect([...seen].some((p) => !pids.includes(p))).toBe(true);
  });
});
