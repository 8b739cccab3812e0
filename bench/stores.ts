/**
 * The compiled chain with its state in Redis against the same chain with its
 * state in memory: what keeping sessions, CSRF nonces and rate-limit windows
 * in Redis costs a request, and how many times a request talks to Redis.
 *
 *   npx tsx bench/stores.ts [--seconds 10] [--runs 3] [--cpu-prof DIR] [--redis-module FILE]…
 *                                                          (npm run bench -- --only stores)
 *
 * `--redis-module FILE` (repeatable) adds a row for another build of the Redis store (its
 * createRedisBackend, e.g. a copy of an older dist/bundle/stores-redis.js inside this repository), run
 * in the same rounds as the others, so two versions are compared under the same load.
 *
 * The chain: RateLimitFilter (a limit no run reaches) then CsrfPreventionFilter,
 * on GETs to its entry point by a client with a session cookie: every request
 * loads the session, counts the address in its window and issues a nonce,
 * which is what a networked store has to carry. The server is a compiled
 * module's `create()` (memory) or `create({ state })` (Redis, a local
 * redis-server on loopback) in a child process; the load is wrk or autocannon
 * with 32 connections. Round trips are counted by Redis itself (INFO stats
 * total_reads_processed: one read event per batch a client wrote) over 2,000
 * requests sent one at a time, and commands by INFO commandstats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@redis/client';
import { compileBase } from '../src/compile/index.js';
import { loadBase } from '../src/parser/index.js';
import { startRedis } from '../test/stores/redis-server.js';
import { cpuSeconds, load, LOAD_TOOL, spread, type LoadRun } from './load.js';

const repo = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    // A directory: each chain server writes a V8 CPU profile there (node --cpu-prof) when it stops.
    'cpu-prof': { type: 'string' },
    'redis-module': { type: 'string', multiple: true, default: [] },
  },
});
const redisModules = values['redis-module'].map((f) => pathToFileURL(resolvePath(f)).href);
const profileArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
const seconds = Number(values.seconds);
const runs = Number(values.runs);

const WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>limit</filter-name>
    <filter-class>org.apache.catalina.filters.RateLimitFilter</filter-class>
    <init-param><param-name>bucketRequests</param-name><param-value>1000000000</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>limit</filter-name><url-pattern>/page</url-pattern></filter-mapping>
  <filter>
    <filter-name>csrf</filter-name>
    <filter-class>org.apache.catalina.filters.CsrfPreventionFilter</filter-class>
    <init-param><param-name>entryPoints</param-name><param-value>/page</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>csrf</filter-name><url-pattern>/page</url-pattern></filter-mapping>
</web-app>
`;

const SERVER = `
import { createServer } from 'node:http';
import { toNodeListener } from 'tollgate/runtime';
import { create } from './localhost/app.mjs';
const url = process.argv[2];
let mw;
if (url === 'memory') {
  mw = create();
} else {
  const { createRedisBackend } = await import(process.argv[3] || 'tollgate/stores/redis');
  const state = createRedisBackend({ url });
  await state.ready();
  mw = create({ state });
}
const server = createServer(toNodeListener(mw, (req, res) => res.end('ok')));
server.keepAliveTimeout = 60_000;
// An orderly exit, so that --cpu-prof writes its profile.
process.on('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

interface Served {
  child: ChildProcess;
  port: number;
}

function startChain(dir: string, mode: string, module = ''): Promise<Served> {
  const child = spawn(process.execPath, [...profileArgs, join(dir, 'server.mjs'), mode, module], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      text += d;
      const m = /port (\d+)/.exec(text);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`chain server exited with ${String(code)}`)));
  });
}

function stopChain(s: Served): Promise<void> {
  return new Promise((r) => {
    s.child.once('exit', () => r());
    s.child.kill('SIGTERM');
  });
}

function getOnce(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<{ status: number; cookie: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, ...(agent ? { agent } : {}) }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] ?? null }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Read events, commands sent (EVALSHA, EVAL, DEL: what a client writes) and commands run (those plus the scripts' own redis.call). */
async function redisCounters(raw: {
  info(section: string): Promise<unknown>;
}): Promise<{ reads: number; sent: number; executed: number }> {
  const stats = String(await raw.info('stats'));
  const reads = Number(/total_reads_processed:(\d+)/.exec(stats)![1]);
  const cmd = String(await raw.info('commandstats'));
  let sent = 0;
  let executed = 0;
  for (const m of cmd.matchAll(/cmdstat_(\w+):calls=(\d+)/g)) {
    if (m[1] === 'info') continue;
    executed += Number(m[2]);
    if (m[1] === 'evalsha' || m[1] === 'eval' || m[1] === 'del') sent += Number(m[2]);
  }
  return { reads, sent, executed };
}

/** `n` requests one at a time on one kept-alive connection: the median latency in ms. */
async function oneAtATime(port: number, path: string, headers: Record<string, string>, n: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await getOnce(port, path, headers, agent);
      times.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`answered ${r.status}`);
    }
  } finally {
    agent.destroy();
  }
  times.sort((x, y) => x - y);
  return times[times.length >> 1]!;
}

const SEQUENTIAL = 2_000;

async function main(): Promise<void> {
  const loadAtStart = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const redis = await startRedis();
  const raw = createClient({ url: redis.url });
  raw.on('error', () => undefined);
  await raw.connect();
  const base = mkdtempSync(join(os.tmpdir(), 'tg-bench-stores-'));
  mkdirSync(join(base, 'conf'), { recursive: true });
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
  );
  mkdirSync(join(base, 'webapps', 'app', 'WEB-INF'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'app', 'WEB-INF', 'web.xml'), WEB_XML);
  // Inside the package, so `tollgate/runtime` and `tollgate/stores/redis` resolve to its dist/ by name.
  mkdirSync(join(repo, 'bench', 'out'), { recursive: true });
  const dir = mkdtempSync(join(repo, 'bench', 'out', 'stores-'));
  try {
    for (const m of compileBase(loadBase({ base })).modules) {
      mkdirSync(dirname(join(dir, m.fileName)), { recursive: true });
      writeFileSync(join(dir, m.fileName), m.code);
    }
    writeFileSync(join(dir, 'server.mjs'), SERVER);
    // Each store: its name in the table, the server's argument and the store module it imports ('' = this build's).
    const modes = [
      { name: 'memory', arg: 'memory', module: '' },
      { name: 'redis', arg: redis.url, module: '' },
      ...redisModules.map((module, i) => ({ name: `redis (${values['redis-module'][i]!})`, arg: redis.url, module })),
    ];
    type Seq = { p50: number; reads: number; sent: number; executed: number };
    const loadRuns = new Map<string, LoadRun[]>(modes.map((m) => [m.name, []]));
    // A request no stateful filter sees (/app/other, no cookie): it must cost Redis nothing.
    const statelessRuns = new Map<string, LoadRun[]>(modes.map((m) => [m.name, []]));
    const statelessSent = new Map<string, number>();
    const sequential = new Map<string, Seq>();
    const redisCpuUs = new Map<string, number[]>();
    for (let run = 0; run < runs; run++) {
      // Alternate, so a change in the machine's load falls on every store.
      for (const mode of run % 2 === 0 ? modes : [...modes].reverse()) {
        const isRedis = mode.arg !== 'memory';
        const s = await startChain(dir, mode.arg, mode.module);
        try {
          const first = await getOnce(s.port, '/app/page');
          if (first.status !== 200 || first.cookie === null)
            throw new Error(`the entry point answered ${first.status} without a session cookie`);
          const headers = { Cookie: first.cookie };
          await load(s.port, { path: '/app/page', seconds: 2, connections: 32, headers });
          if (run === 0) {
            const before = await redisCounters(raw);
            const p50 = await oneAtATime(s.port, '/app/page', headers, SEQUENTIAL);
            const after = await redisCounters(raw);
            // The two INFO commands of the probe itself are not counted (excluded by name); its reads are (2).
            const per = (k: 'reads' | 'sent' | 'executed', less = 0): number =>
              (after[k] - before[k] - less) / SEQUENTIAL;
            sequential.set(
              mode.name,
              isRedis
                ? { p50, reads: per('reads', 2), sent: per('sent'), executed: per('executed') }
                : { p50, reads: 0, sent: 0, executed: 0 },
            );
            if (isRedis) {
              const b = await redisCounters(raw);
              await oneAtATime(s.port, '/app/other', {}, SEQUENTIAL);
              statelessSent.set(mode.name, ((await redisCounters(raw)).executed - b.executed) / SEQUENTIAL);
            }
          }
          const plain = await load(s.port, { path: '/app/other', seconds, connections: 32 }, s.child.pid);
          if (plain.non2xx > 0 || plain.errors > 0) throw new Error(`${mode.name}: the stateless request failed`);
          statelessRuns.get(mode.name)!.push(plain);
          const redisCpu = cpuSeconds(redis.pid);
          const r = await load(s.port, { path: '/app/page', seconds, connections: 32, headers }, s.child.pid);
          if (isRedis) {
            const list = redisCpuUs.get(mode.name) ?? [];
            list.push(((cpuSeconds(redis.pid) - redisCpu) * 1e6) / r.requests);
            redisCpuUs.set(mode.name, list);
          }
          if (r.non2xx > 0 || r.errors > 0)
            throw new Error(`${mode.name}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
          loadRuns.get(mode.name)!.push(r);
        } finally {
          await stopChain(s);
        }
      }
    }
    const med = (name: string, f: (r: LoadRun) => number) => spread(loadRuns.get(name)!.map(f));
    const row = (name: string) => {
      const rps = med(name, (r) => r.rps);
      const cpu = med(name, (r) => r.cpuPerRequestUs);
      const p50 = med(name, (r) => r.p50);
      const p99 = med(name, (r) => r.p99);
      const seq = sequential.get(name)!;
      return `| ${name} | ${Math.round(rps.median)} (${Math.round(rps.min)}-${Math.round(rps.max)}) | ${p50.median} / ${p99.median} | ${cpu.median.toFixed(0)} (${cpu.min.toFixed(0)}-${cpu.max.toFixed(0)}) | ${seq.p50.toFixed(3)} | ${seq.reads.toFixed(2)} | ${seq.sent.toFixed(2)} (${seq.executed.toFixed(2)}) |`;
    };
    const stateless = (name: string) => {
      const c = spread(statelessRuns.get(name)!.map((r) => r.cpuPerRequestUs));
      return `${c.median.toFixed(1)} (${c.min.toFixed(1)}-${c.max.toFixed(1)}) µs`;
    };
    const m = med('memory', (r) => r.rps).median;
    const rd = med('redis', (r) => r.rps).median;
    const load1 = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    const redisRows = modes.filter((x) => x.arg !== 'memory').map((x) => x.name);
    const out = [
      `Chain: RateLimitFilter + CsrfPreventionFilter (a GET to its entry point with a session cookie: session load, window count, nonce issued), compiled module, node:http, ${LOAD_TOOL} with 32 connections, ${seconds} s per run, ${runs} runs per store alternating, medians (min-max). Node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart} at the start, ${load1} at the end.`,
      '',
      "| store | requests/s | latency p50 / p99 ms | server CPU µs per request | latency p50 ms, one at a time | writes to Redis per request (read events) | commands sent per request (run, with the scripts' own) |",
      '|---|---|---|---|---|---|---|',
      ...modes.map((x) => row(x.name)),
      '',
      `A stateless request (/app/other, which no stateful filter sees): server CPU per request ${modes.map((x) => `${x.name} ${stateless(x.name)}`).join(', ')}; commands Redis ran per such request: ${redisRows.map((x) => `${x} ${statelessSent.get(x)!.toFixed(2)}`).join(', ')}.`,
      '',
      `Redis costs ${((1 / rd - 1 / m) * 1e6).toFixed(0)} µs of wall time per request at this load (${((1 - rd / m) * 100).toFixed(0)}% fewer requests/s); redis-server itself spent ${redisRows.map((x) => `${spread(redisCpuUs.get(x)!).median.toFixed(0)} µs (${x})`).join(', ')} of CPU per request. Round trips: the session load and the window count go out in one write (the client sends a turn's commands together) and the request waits for that one answer; the nonce append follows in a write the request does not wait for (2,000 requests sent one at a time; under load, batches carry several requests' commands).`,
    ];
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(base, { recursive: true, force: true });
    await raw.close();
    await redis.stop();
  }
}

await main();
