/**
 * A compiled chain module's `create({ state })` in two separate Node
 * processes, each with its own connection to one real redis-server: the
 * REST CSRF token one process handed out is honoured by the other, and the
 * rate limit counts the requests of both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBase } from '../../src/compile/index.js';
import { loadBase } from '../../src/parser/index.js';
import { makeBase, serverXml } from '../server/harness.js';
import { startRedis, type RedisProcess } from './redis-server.js';

const repo = join(import.meta.dirname, '..', '..');
/** 10 per 60 s with FastRateLimiter: 11 per 65.536 s window. */
const RL_WINDOW_MS = 65_536;
const RL_ALLOWED = 11;
/** Which FastRateLimiter window a time falls in (windows start at multiples of RL_WINDOW_MS since the epoch). */
const windowOf = (t: number): number => Math.floor(t / RL_WINDOW_MS);

const WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>limit</filter-name>
    <filter-class>org.apache.catalina.filters.RateLimitFilter</filter-class>
    <init-param><param-name>bucketDuration</param-name><param-value>60</param-value></init-param>
    <init-param><param-name>bucketRequests</param-name><param-value>10</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>limit</filter-name><url-pattern>/*</url-pattern></filter-mapping>
  <filter>
    <filter-name>rest</filter-name>
    <filter-class>org.apache.catalina.filters.RestCsrfPreventionFilter</filter-class>
  </filter>
  <filter-mapping><filter-name>rest</filter-name><url-pattern>/*</url-pattern></filter-mapping>
</web-app>
`;

/** What each process runs: the module's create() with a Redis backend, on node:http. */
const SERVER = `
import { createServer } from 'node:http';
import { toNodeListener } from 'tollgate/runtime';
import { createRedisBackend } from 'tollgate/stores/redis';
import { create } from './localhost/app.mjs';
const state = createRedisBackend({ url: process.argv[2] });
await state.ready();
const server = createServer(toNodeListener(create({ state }), (req, res) => res.end('downstream')));
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

let redis: RedisProcess;
let out: string;
let base: string;
const children: ChildProcess[] = [];
let ports: number[] = [];

function start(): Promise<number> {
  const child = spawn(process.execPath, [join(out, 'server.mjs'), redis.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  child.stderr!.on('data', (d) => (text += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      text += d;
      const m = /port (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the chain process exited with ${String(code)}: ${text}`)));
  });
}

function send(
  port: number,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/app/items', method, agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  redis = await startRedis();
  base = makeBase(serverXml());
  mkdirSync(join(base, 'webapps', 'app', 'WEB-INF'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'app', 'WEB-INF', 'web.xml'), WEB_XML);
  // Inside the package, so `tollgate/runtime` and `tollgate/stores/redis` resolve to this package's dist/ by name.
  out = mkdtempSync(join(repo, 'test', '.compiled-'));
  for (const m of compileBase(loadBase({ base })).modules) {
    mkdirSync(dirname(join(out, m.fileName)), { recursive: true });
    writeFileSync(join(out, m.fileName), m.code);
  }
  writeFileSync(join(out, 'server.mjs'), SERVER);
  ports = await Promise.all([start(), start()]);
});

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    }
  }
  await redis?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('a compiled module with create({ state }) in two processes', () => {
  it('shares the REST CSRF token and the rate-limit window through Redis', async () => {
    const left = RL_WINDOW_MS - (Date.now() % RL_WINDOW_MS);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const [a, b] = ports as [number, number];
    for (let round = 0; ; round++) {
      const window = windowOf(Date.now());
      const fetched = await send(a, 'GET', { 'X-CSRF-Token': 'Fetch' });
      expect(fetched.status).toBe(200);
      const token = fetched.headers['x-csrf-token'] as string;
      expect(token).toMatch(/^[0-9A-F]{32}$/);
      const cookie = (fetched.headers['set-cookie'] as string[])[0]!.split(';')[0]!;
      const posted = await send(b, 'POST', { Cookie: cookie, 'X-CSRF-Token': token });
      expect(posted.status).toBe(200);
      expect(posted.body).toBe('downstream');
      // B fetches the same token for the same session: one token per session, wherever it is asked.
      expect((await send(b, 'GET', { Cookie: cookie, 'X-CSRF-Token': 'Fetch' })).headers['x-csrf-token']).toBe(token);
      expect((await send(a, 'POST', { Cookie: cookie, 'X-CSRF-Token': '0'.repeat(32) })).status).toBe(403);
      // 4 requests so far; the window allows 11 from this address over both processes.
      const rest: number[] = [];
      for (let k = 0; k < RL_ALLOWED - 4 + 3; k++) rest.push((await send(k % 2 === 0 ? a : b, 'GET')).status);
      if (windowOf(Date.now()) === window) {
        expect(rest).toEqual([...Array<number>(RL_ALLOWED - 4).fill(200), 429, 429, 429]);
        break;
      }
      // A loaded machine took the requests past the window's end: the counts are split between two windows, so
      // this round says nothing of the limit; the window after the one they ended in starts from zero.
      expect(round, 'three rounds in a row ran into the next rate-limit window').toBeLessThan(2);
      await new Promise((r) => setTimeout(r, (windowOf(Date.now()) + 1) * RL_WINDOW_MS + 50 - Date.now()));
    }
  });
});
