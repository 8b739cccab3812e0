/**
 * Behind a balancer (issue 35, item 4): one HAProxy (Debian `haproxy`, in the
 * foreground with its own configuration on 127.0.0.1 ephemeral ports) with two
 * frontends, one to `tollgate serve --workers auto` and one to Tomcat 10.1,
 * over the same base (bench/runtime.ts's prepare(): the 8-filter chain and
 * Tomcat's conf/web.xml), measured in the same run, round by round. The
 * request is a 1 KB static file through the chain, as in bench/workers.ts.
 *
 * Figures per target: requests/s through the balancer, and the CPU time per
 * request of the server (its workers included) and of HAProxy, from /proc.
 *
 *   npm run build && npx tsx bench/balancer.ts [--seconds 5] [--runs 3] [--connections 50]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSeconds, load, spread, type LoadRun, type Spread } from './load.js';
import { prepare, REQUEST_HEADERS, sample, serveTarget, type Target } from './runtime.js';
import { compileServlets, freePort, startTomcat, tomcatAvailable, type RunningTomcat } from './tomcat.js';

const repo = join(import.meta.dirname, '..');
const PATH = '/app/static/app.css';

export interface BalancerRow {
  name: string;
  rps: Spread;
  /** The server's CPU µs per request (every worker process included). */
  serverCpuUs: Spread;
  /** HAProxy's CPU µs per request. */
  balancerCpuUs: Spread;
  p99: Spread;
  non2xx: number;
  errors: number;
}

export interface BalancerBench {
  settings: { seconds: number; runs: number; connections: number; tomcat: string; haproxy: string; workers: number };
  loadAverage: number[];
  rows: BalancerRow[];
}

/** Why the section cannot run here, or null. */
export function haproxyMissing(): string | null {
  const r = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? 'haproxy is not installed (Debian package haproxy)' : null;
}

interface Balancer {
  /** Frontend port per backend, in the order given. */
  ports: number[];
  pid: number | undefined;
  version: string;
  stop(): Promise<void>;
}

/** HAProxy in the foreground with one frontend per backend port, keep-alive on both sides. */
async function startHaproxy(dir: string, backends: number[]): Promise<Balancer> {
  const ports: number[] = [];
  for (let i = 0; i < backends.length; i++) ports.push(await freePort());
  const sections = backends.map(
    (b, i) => `frontend f${i}
  bind 127.0.0.1:${ports[i]}
  default_backend b${i}
backend b${i}
  http-reuse always
  server s${i} 127.0.0.1:${b} maxconn 100
`,
  );
  const cfg = join(dir, 'haproxy.cfg');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    cfg,
    `global
  maxconn 2000
  nbthread 1
defaults
  mode http
  option http-keep-alive
  timeout connect 5s
  timeout client 30s
  timeout server 30s
${sections.join('')}`,
  );
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  process.on('exit', () => child.kill('SIGKILL'));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await sample(ports[0]!, PATH).then(
      (s) => s.status === 200,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`haproxy did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const version = /HAProxy version (\S+)/.exec(spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
  return {
    ports,
    pid: child.pid,
    version,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

export async function run(o: { seconds: number; runs: number; connections: number }): Promise<BalancerBench> {
  const missing = haproxyMissing();
  if (missing !== null) throw new Error(missing);
  const avail = tomcatAvailable();
  if (!avail.ok) throw new Error(`Tomcat is needed for the balancer section: ${avail.why}`);
  const loadAverage = loadavg().map((x) => Math.round(x * 100) / 100);
  const workers = availableParallelism();
  const { base } = prepare();
  let tomcat: RunningTomcat | null = null;
  let serve: Target | null = null;
  let haproxy: Balancer | null = null;
  try {
    serve = await serveTarget(base, PATH, ['--workers', 'auto']);
    compileServlets(join(repo, 'bench', 'tomcat-src'), join(base, 'webapps', 'app'));
    tomcat = await startTomcat(join(base, 'webapps'));
    haproxy = await startHaproxy(join(base, '..', 'haproxy'), [serve.port, tomcat.port]);
    const targets = [
      { name: `tollgate serve --workers auto (${workers} processes)`, port: haproxy.ports[0]!, pid: serve.pid },
      { name: avail.version.replace('Apache Tomcat/', 'Tomcat '), port: haproxy.ports[1]!, pid: tomcat.pid },
    ];
    for (const t of targets) {
      const s = await sample(t.port, PATH);
      if (s.status !== 200 || s.body.length !== 1024)
        throw new Error(`${t.name} answered ${s.status} with ${s.body.length} bytes through HAProxy`);
    }
    const opts = (seconds: number) => ({ path: PATH, seconds, connections: o.connections, headers: REQUEST_HEADERS });
    // The JVM compiles hot paths for a while: Tomcat gets the longer warm-up, as in bench/runtime.ts.
    await load(targets[0]!.port, opts(3));
    await load(targets[1]!.port, opts(15));
    const got = targets.map(() => [] as { run: LoadRun; balancerUs: number }[]);
    for (let r = 0; r < o.runs; r++)
      for (const [i, t] of targets.entries()) {
        const h0 = cpuSeconds(haproxy.pid);
        const run = await load(t.port, opts(o.seconds), t.pid);
        got[i]!.push({ run, balancerUs: ((cpuSeconds(haproxy.pid) - h0) * 1e6) / run.requests });
        process.stderr.write('.');
      }
    process.stderr.write('\n');
    return {
      settings: {
        seconds: o.seconds,
        runs: o.runs,
        connections: o.connections,
        tomcat: avail.version,
        haproxy: haproxy.version,
        workers,
      },
      loadAverage,
      rows: targets.map((t, i) => ({
        name: t.name,
        rps: spread(got[i]!.map((g) => g.run.rps)),
        serverCpuUs: spread(got[i]!.map((g) => g.run.cpuPerRequestUs)),
        balancerCpuUs: spread(got[i]!.map((g) => g.balancerUs)),
        p99: spread(got[i]!.map((g) => g.run.p99)),
        non2xx: got[i]!.reduce((n, g) => n + g.run.non2xx, 0),
        errors: got[i]!.reduce((n, g) => n + g.run.errors, 0),
      })),
    };
  } finally {
    await haproxy?.stop();
    await serve?.stop();
    await tomcat?.stop();
  }
}

export function formatBalancer(r: BalancerBench): string {
  const lines = [
    `load average at start: ${r.loadAverage.join(' ')}; ${r.settings.workers} cores; HAProxy ${r.settings.haproxy}; ${r.settings.tomcat}`,
  ];
  for (const x of r.rows)
    lines.push(
      `  ${x.name.padEnd(44)} ${Math.round(x.rps.median).toString().padStart(7)} req/s (${Math.round(x.rps.min)}-${Math.round(x.rps.max)})  server cpu ${x.serverCpuUs.median.toFixed(1)} µs/req  haproxy cpu ${x.balancerCpuUs.median.toFixed(1)} µs/req  p99 ${x.p99.median} ms${x.non2xx || x.errors ? `  non-2xx ${x.non2xx} errors ${x.errors}` : ''}`,
    );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
    },
  });
  const missing = haproxyMissing();
  if (missing !== null) {
    process.stderr.write(`bench/balancer.ts: ${missing}\n`);
    process.exit(1);
  }
  const result = await run({
    seconds: Number(values.seconds),
    runs: Number(values.runs),
    connections: Number(values.connections),
  });
  process.stdout.write(`${formatBalancer(result)}\n`, () => process.exit(0));
}
