/**
 * The compiled chain with its state in Redis against the same chain with its
 * state in memory: what keeping sessions, CSRF nonces and rate-limit windows
 * in Redis costs a request, and how many times a request talks to Redis.
 *
 *   npx tsx bench/stores.ts [--seconds 10] [--runs 3] [--cpu-prof DIR]     (npm run bench -- --only stores)
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
import { dirname, join } from 'node:path';
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
  },
});
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
  const { createRedisBackend } = await import('tollgate/stores/redis');
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

function startChain(dir: string, mode: string): Promise<Served> {
  const child = spawn(process.execPath, [...profileArgs, join(dir, 'server.mjs'), mode], {
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
    const modes = { memory: 'memory', redis: redis.url } as const;
    const loadRuns: Record<keyof typeof modes, LoadRun[]> = { memory: [], redis: [] };
    // A request no stateful filter sees (/app/other, no cookie): it must cost Redis nothing.
    const statelessRuns: Record<keyof typeof modes, LoadRun[]> = { memory: [], redis: [] };
    let statelessSent = NaN;
    const sequential: Record<keyof typeof modes, { p50: number; reads: number; sent: number; executed: number }> = {
      memory: { p50: NaN, reads: 0, sent: 0, executed: 0 },
      redis: { p50: NaN, reads: NaN, sent: NaN, executed: NaN },
    };
    let redisCpuUs = NaN;
    for (let run = 0; run < runs; run++) {
      // Alternate, so a change in the machine's load falls on both.
      for (const mode of run % 2 === 0 ? (['memory', 'redis'] as const) : (['redis', 'memory'] as const)) {
        const s = await startChain(dir, modes[mode]);
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
            sequential[mode] =
              mode === 'memory'
                ? { ...sequential.memory, p50 }
                : { p50, reads: per('reads', 2), sent: per('sent'), executed: per('executed') };
            if (mode === 'redis') {
              const b = await redisCounters(raw);
              await oneAtATime(s.port, '/app/other', {}, SEQUENTIAL);
              statelessSent = ((await redisCounters(raw)).executed - b.executed) / SEQUENTIAL;
            }
          }
          const plain = await load(s.port, { path: '/app/other', seconds, connections: 32 }, s.child.pid);
          if (plain.non2xx > 0 || plain.errors > 0) throw new Error(`${mode}: the stateless request failed`);
          statelessRuns[mode].push(plain);
          const redisCpu = cpuSeconds(redis.pid);
          const r = await load(s.port, { path: '/app/page', seconds, connections: 32, headers }, s.child.pid);
          if (mode === 'redis') redisCpuUs = ((cpuSeconds(redis.pid) - redisCpu) * 1e6) / r.requests;
          if (r.non2xx > 0 || r.errors > 0)
            throw new Error(`${mode}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
          loadRuns[mode].push(r);
        } finally {
          await stopChain(s);
        }
      }
    }
    const med = (mode: keyof typeof modes, f: (r: LoadRun) => number) => spread(loadRuns[mode].map(f));
    const row = (mode: keyof typeof modes) => {
      const rps = med(mode, (r) => r.rps);
      const cpu = med(mode, (r) => r.cpuPerRequestUs);
      const p50 = med(mode, (r) => r.p50);
      const p99 = med(mode, (r) => r.p99);
      const seq = sequential[mode];
      return `| ${mode} | ${Math.round(rps.median)} (${Math.round(rps.min)}-${Math.round(rps.max)}) | ${p50.median} / ${p99.median} | ${cpu.median.toFixed(0)} | ${seq.p50.toFixed(3)} | ${seq.reads.toFixed(2)} | ${seq.sent.toFixed(2)} (${seq.executed.toFixed(2)}) |`;
    };
    const stateless = (mode: keyof typeof modes) => spread(statelessRuns[mode].map((r) => r.cpuPerRequestUs)).median;
    const m = med('memory', (r) => r.rps).median;
    const rd = med('redis', (r) => r.rps).median;
    const load1 = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    const out = [
      `Chain: RateLimitFilter + CsrfPreventionFilter (a GET to its entry point with a session cookie: session load, window count, nonce issued), compiled module, node:http, ${LOAD_TOOL} with 32 connections, ${seconds} s per run, ${runs} runs per store alternating, medians (min-max). Node ${process.version}, ${os.cpus().length} cores, load average ${load1} at the end.`,
      '',
      "| store | requests/s | latency p50 / p99 ms | server CPU µs per request | latency p50 ms, one at a time | writes to Redis per request (read events) | commands sent per request (run, with the scripts' own) |",
      '|---|---|---|---|---|---|---|',
      row('memory'),
      row('redis'),
      '',
      `A stateless request (/app/other, which no stateful filter sees): server CPU ${stateless('memory').toFixed(1)} µs per request with the state in memory, ${stateless('redis').toFixed(1)} µs with it in Redis; commands Redis ran per such request: ${statelessSent.toFixed(2)}.`,
      '',
      `Redis costs ${((1 / rd - 1 / m) * 1e6).toFixed(0)} µs of wall time per request at this load (${((1 - rd / m) * 100).toFixed(0)}% fewer requests/s); redis-server itself spent ${redisCpuUs.toFixed(0)} µs of CPU per request. Round trips: the session load and the window count go out in one write (node-redis sends a turn's commands together) and the request waits for that one answer; the nonce append follows in a write the request does not wait for (2,000 requests sent one at a time; under load, batches carry several requests' commands).`,
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
