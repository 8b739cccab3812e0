/**
 * Two `tollgate serve` processes (the built CLI) sharing nothing but a real
 * redis-server (`--store redis://…`): what one instance keeps, the other
 * honours. Requests alternate between the instances as a load balancer
 * without sticky sessions sends them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBase, serverXml } from '../server/harness.js';
import { startRedis, type RedisProcess } from './redis-server.js';
import { waitFor } from '../server/http.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');
const NONCE = 'org.apache.catalina.filters.CSRF_NONCE';
const ADMIN_OK = 'Basic ' + Buffer.from('admin:s3cret').toString('base64');
const ADMIN_BAD = 'Basic ' + Buffer.from('admin:wrong').toString('base64');

/** 10 requests per 60 s with FastRateLimiter: a 65.536 s window (2^16 ms) and round(1.092 × 10) = 11 requests in it. */
const RL_WINDOW_MS = 65_536;
const RL_ALLOWED = 11;
/** Which FastRateLimiter window a time falls in (windows start at multiples of RL_WINDOW_MS since the epoch). */
const windowOf = (t: number): number => Math.floor(t / RL_WINDOW_MS);
const untilNextWindow = (): Promise<unknown> =>
  new Promise((r) => setTimeout(r, (windowOf(Date.now()) + 1) * RL_WINDOW_MS + 50 - Date.now()));
const LOCK_FAILURES = 3;
const LOCK_SECONDS = 3;

const WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>csrf</filter-name>
    <filter-class>org.apache.catalina.filters.CsrfPreventionFilter</filter-class>
    <init-param><param-name>entryPoints</param-name><param-value>/csrf/dir</param-value></init-param>
    <init-param><param-name>nonceCacheSize</param-name><param-value>2</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>csrf</filter-name><url-pattern>/csrf/*</url-pattern></filter-mapping>
  <filter>
    <filter-name>limit</filter-name>
    <filter-class>org.apache.catalina.filters.RateLimitFilter</filter-class>
    <init-param><param-name>bucketDuration</param-name><param-value>60</param-value></init-param>
    <init-param><param-name>bucketRequests</param-name><param-value>10</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>limit</filter-name><url-pattern>/rl/*</url-pattern></filter-mapping>
</web-app>
`;

interface Instance {
  child: ChildProcess;
  port: number;
  out(): string;
  err(): string;
}

let redis: RedisProcess;
let base: string;
let a: Instance;
let b: Instance;

async function serve(): Promise<Instance> {
  const child = spawn(process.execPath, [bin, 'serve', '--base', base, '--port', '0', '--store', redis.url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1],
    120_000,
    () => `serve did not start:\n${out}\n${err}`,
  );
  return { child, port: Number(port), out: () => out, err: () => err };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
}

function get(i: Instance, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: i.port, path, agent: false, headers: { Host: 'localhost', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error(`${path}: no answer in 120 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The entry point: a session cookie and a nonce (the directory redirect carries it, encodeRedirectURL). */
async function enter(i: Instance, cookie?: string): Promise<{ cookie: string; nonce: string }> {
  const r = await get(i, '/csrf/dir', cookie ? { Cookie: cookie } : {});
  expect(r.status).toBe(302);
  const nonce = new URL(r.headers.location!, 'http://localhost').searchParams.get(NONCE);
  expect(nonce).toMatch(/^[0-9A-F]{32}$/);
  return { cookie: cookie ?? r.headers['set-cookie']![0]!.split(';')[0]!, nonce: nonce! };
}

function withNonce(i: Instance, cookie: string, nonce: string): Promise<Answer> {
  return get(i, `/csrf/page.html?${NONCE}=${nonce}`, { Cookie: cookie });
}

beforeAll(async () => {
  redis = await startRedis();
  base = makeBase(
    serverXml({
      realm: `<Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="${LOCK_FAILURES}" lockOutTime="${LOCK_SECONDS}">
        <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      </Realm>`,
    }),
  );
  mkdirSync(join(base, 'webapps', 'ROOT', 'WEB-INF'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'ROOT', 'WEB-INF', 'web.xml'), WEB_XML);
  mkdirSync(join(base, 'webapps', 'ROOT', 'csrf', 'dir'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'ROOT', 'csrf', 'dir', 'index.html'), 'entry\n');
  writeFileSync(join(base, 'webapps', 'ROOT', 'csrf', 'page.html'), 'page\n');
  mkdirSync(join(base, 'webapps', 'ROOT', 'rl'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'ROOT', 'rl', 'a.txt'), 'a\n');
  [a, b] = await Promise.all([serve(), serve()]);
});

afterAll(async () => {
  for (const i of [a, b]) {
    if (i && i.child.exitCode === null && i.child.signalCode === null) {
      i.child.kill('SIGKILL');
      await new Promise((r) => i.child.once('exit', r));
    }
  }
  await redis?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('two serve instances sharing one Redis', () => {
  it('accept on B a nonce A issued, and refuse it on both once nonceCacheSize newer ones pushed it out', async () => {
    const first = await enter(a);
    expect((await withNonce(b, first.cookie, first.nonce)).status).toBe(200);
    // Tomcat's LruCache keeps a used nonce until newer ones push it out: used again, still accepted.
    expect((await withNonce(a, first.cookie, first.nonce)).status).toBe(200);
    // Each request above issued a nonce (cache of 2): the first is gone, on both instances.
    expect((await withNonce(a, first.cookie, first.nonce)).status).toBe(403);
    expect((await withNonce(b, first.cookie, first.nonce)).status).toBe(403);
    // A nonce from another session is refused wherever it is sent.
    const other = await enter(b);
    expect((await withNonce(a, first.cookie, other.nonce)).status).toBe(403);
    expect((await withNonce(b, other.cookie, other.nonce)).status).toBe(200);
  });

  it('rate-limits N clients over both instances at exactly the configured count per window (FastRateLimiter: 10 per 60 s is 11 per 65.536 s)', async () => {
    // Start well inside a window, so all requests fall in one.
    const left = RL_WINDOW_MS - (Date.now() % RL_WINDOW_MS);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
    const clients = 6;
    const perClient = 5;
    for (let round = 0; ; round++) {
      const window = windowOf(Date.now());
      const statuses = await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          const seen: number[] = [];
          for (let k = 0; k < perClient; k++) seen.push((await get((c + k) % 2 === 0 ? a : b, '/rl/a.txt')).status);
          return seen;
        }),
      );
      if (windowOf(Date.now()) === window) {
        const all = statuses.flat();
        expect(all.filter((s) => s === 200)).toHaveLength(RL_ALLOWED);
        expect(all.filter((s) => s === 429)).toHaveLength(clients * perClient - RL_ALLOWED);
        return;
      }
      // A loaded machine took the requests past the window's end: the counts are split between two windows,
      // so this round says nothing; the window after the one they ended in starts from zero.
      expect(round, 'three rounds in a row ran into the next rate-limit window').toBeLessThan(2);
      await untilNextWindow();
    }
  });

  it('lock a user out on both after failures on either, and let them in on both when the lock expires', async () => {
    const list = '/host-manager/text/list';
    const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));
    // A 401 says "still locked" only for a request answered before the lock can have expired (the last
    // failure was registered after it was sent): a loaded machine that answers later makes the round
    // inconclusive, and it runs again, instead of failing or passing by the clock.
    let conclusive = false;
    for (let round = 0; round < 5 && !conclusive; round++) {
      expect((await get(a, list, { Authorization: ADMIN_OK })).status).toBe(200);
      let lastSent = 0;
      for (let k = 0; k < LOCK_FAILURES; k++) {
        lastSent = Date.now();
        expect((await get(k % 2 === 0 ? a : b, list, { Authorization: ADMIN_BAD })).status).toBe(401);
      }
      const lastAnswered = Date.now();
      const expiresNoSoonerThan = lastSent + LOCK_SECONDS * 1000;
      const lockedChecks: number[] = [];
      const check = async (i: Instance) => {
        const status = (await get(i, list, { Authorization: ADMIN_OK })).status;
        if (Date.now() < expiresNoSoonerThan) lockedChecks.push(status);
      };
      await check(a);
      await check(b);
      // Still locked just before lockOutTime has passed since the last failure...
      await sleepUntil(expiresNoSoonerThan - 800);
      await check(b);
      expect(lockedChecks).toEqual(lockedChecks.map(() => 401));
      conclusive = lockedChecks.length === 3;
      // ...and open on both after it (Tomcat compares whole seconds since the failure), whatever the load.
      await sleepUntil(lastAnswered + LOCK_SECONDS * 1000 + 1100);
      expect((await get(a, list, { Authorization: ADMIN_OK })).status).toBe(200);
      expect((await get(b, list, { Authorization: ADMIN_OK })).status).toBe(200);
    }
    expect(conclusive, 'five rounds in a row, a check was answered only after the lock could have expired').toBe(true);
  });

  it('keep answering with Redis killed mid-load: CSRF 403, rate limit 429, host manager 401, one log line per instance, and recover within seconds of a restart', async () => {
    const session = await enter(a);
    const errBefore = [a.err().length, b.err().length];
    let stop = false;
    const outage: Answer[] = [];
    let inOutage = false;
    // Clients that keep sending through the outage: pages with a nonce, rate-limited files, host-manager logins.
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, c) => {
        for (let k = 0; !stop; k++) {
          const i = (c + k) % 2 === 0 ? a : b;
          const kind = (c + k) % 3;
          const r =
            kind === 0
              ? await withNonce(i, session.cookie, session.nonce)
              : kind === 1
                ? await get(i, '/rl/a.txt')
                : await get(i, '/host-manager/text/list', { Authorization: ADMIN_OK });
          if (inOutage) outage.push({ ...r, headers: { ...r.headers, 'x-kind': String(kind) } });
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    await redis.kill();
    // Requests that were answered before the kill was noticed are not counted.
    await new Promise((r) => setTimeout(r, 200));
    inOutage = true;
    const outageFrom = Date.now();
    // Counted, not timed: the outage lasts until the clients have had 21 answers in it (1.5 s on a quiet
    // machine), with a hang guard.
    while (outage.length <= 20 && Date.now() - outageFrom < 120_000) await new Promise((r) => setTimeout(r, 50));
    inOutage = false;
    const restarting = Date.now();
    await redis.restart();
    // Reconnection is retried every 0.1 to 2 s: measured from when Redis answers again, with room for a
    // loaded machine; a client that stopped retrying would not recover at all.
    const restartedAt = Date.now();
    // Recovery: a new visitor's whole CSRF flow, a rate-limited file and a login work on both instances.
    const recovered = await (async () => {
      for (;;) {
        const ok = await Promise.all(
          [a, b].map(async (i) => {
            const s = await enter(i).catch(() => null);
            if (s === null) return false;
            return (
              (await withNonce(i === a ? b : a, s.cookie, s.nonce)).status === 200 &&
              (await get(i, '/host-manager/text/list', { Authorization: ADMIN_OK })).status === 200
            );
          }),
        ).catch(() => [false]);
        if (ok.every(Boolean)) return Date.now() - restartedAt;
        if (Date.now() - restartedAt > 120_000) return Infinity;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    stop = true;
    await load;
    expect(recovered).toBeLessThan(60_000);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    expect(outage.length).toBeGreaterThan(20);
    for (const r of outage) {
      const kind = r.headers['x-kind'];
      expect(r.status, `kind ${String(kind)}`).toBe(kind === '0' ? 403 : kind === '1' ? 429 : 401);
    }
    // One line when Redis went away and one when it came back, per instance: nothing per request. (Requests
    // over the limit while Redis counts are logged, as Tomcat logs each: never while it cannot count.)
    for (const [n, i] of [a, b].entries()) {
      const lines = i
        .err()
        .slice(errBefore[n])
        .split('\n')
        .filter((l) => l !== '');
      const over = lines.filter((l) => l.includes('have exceeded the maximum allowed'));
      for (const l of over) {
        const t = Date.parse(l.slice(0, 24));
        expect(t < outageFrom || t > restarting, l).toBe(true);
      }
      const rest = lines.filter((l) => !over.includes(l));
      expect(
        rest.filter((l) => l.includes('is unreachable')),
        rest.join('\n'),
      ).toHaveLength(1);
      expect(
        rest.filter((l) => l.includes('answers again')),
        rest.join('\n'),
      ).toHaveLength(1);
      expect(rest, rest.join('\n')).toHaveLength(2);
    }
  });
});
