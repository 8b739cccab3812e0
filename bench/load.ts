/**
 * Load-generation helpers shared by the HTTP benchmarks: start a server
 * variant in a child process, drive it with autocannon on loopback, and
 * summarise several runs as median and spread.
 */
import { execFile, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Variant } from './server.js';

export interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** CPU time the server process spent per request (user + system), in microseconds; NaN when unknown. */
  cpuPerRequestUs: number;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[s.length >> 1]!, min: s[0]!, max: s[s.length - 1]!, runs: s.length };
}

export interface LoadOptions {
  path: string;
  seconds: number;
  connections?: number;
  headers?: Record<string, string>;
  amount?: number;
}

/**
 * CPU seconds (user + system) a process and its living descendants (the workers of `serve --workers`)
 * have used so far, from /proc; NaN where there is no /proc.
 */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let total = (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
    for (const child of childrenOf(pid)) {
      const c = cpuSeconds(child);
      if (!Number.isNaN(c)) total += c;
    }
    return total;
  } catch {
    return NaN;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
const CLOCK_TICKS = 100;

/**
 * The load generator: wrk (C, one thread) when it is installed, since on a
 * two-core machine autocannon needs as much CPU as a bare node:http server and
 * so caps what can be measured; otherwise autocannon.
 */
export const LOAD_TOOL: 'wrk' | 'autocannon' =
  process.env.TOLLGATE_BENCH_LOAD === 'autocannon' || spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk';

/** One load run against 127.0.0.1:port; `pid` is the server's, for its CPU time. */
export async function load(port: number, o: LoadOptions, pid?: number): Promise<LoadRun> {
  const cpu0 = cpuSeconds(pid);
  const r = LOAD_TOOL === 'wrk' && !o.amount ? await wrk(port, o) : await cannon(port, o);
  return { ...r, cpuPerRequestUs: ((cpuSeconds(pid) - cpu0) * 1e6) / r.requests };
}

function wrk(port: number, o: LoadOptions): Promise<Omit<LoadRun, 'cpuPerRequestUs'>> {
  const args = ['-t1', `-c${o.connections ?? 50}`, `-d${o.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(`http://127.0.0.1:${port}${o.path}`);
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (o.seconds + 30) * 1000 }, (err, stdout) => {
      if (err) return reject(err);
      const num = (re: RegExp): number => Number(re.exec(stdout)?.[1] ?? 0);
      const latency = (pct: string): number => {
        const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(stdout);
        if (!m) return NaN;
        return Math.round(Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) * 100) / 100;
      };
      const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      resolve({
        rps: num(/Requests\/sec:\s+([\d.]+)/),
        p50: latency('50'),
        p99: latency('99'),
        non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
        errors: errs ? errs.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
        requests: num(/(\d+) requests in/),
      });
    });
  });
}

async function cannon(port: number, o: LoadOptions): Promise<Omit<LoadRun, 'cpuPerRequestUs'>> {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${o.path}`,
    connections: o.connections ?? 50,
    ...(o.amount ? { amount: o.amount } : { duration: o.seconds }),
    headers: o.headers,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r.requests.total,
  };
}

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** The server's memory after a GC (when started with --expose-gc), and its session store's size. */
  memory(): Promise<{ usage: NodeJS.MemoryUsage; sessions: number; rejected: number }>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Starts bench/server.ts with `variant` in its own Node process (loaded through tsx). */
export function startServer(variant: Variant, execArgv: string[] = []): Promise<ServerProcess> {
  const child = fork(join(import.meta.dirname, 'server.ts'), [JSON.stringify(variant)], {
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onExit = (code: number | null): void =>
      reject(new Error(`bench server ${JSON.stringify(variant).slice(0, 80)} exited with ${code}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.off('exit', onExit);
      const { port } = JSON.parse(out.slice(0, nl)) as { port: number };
      resolve({
        port,
        child,
        memory: () =>
          new Promise((res) => {
            child.once('message', (m: { usage: NodeJS.MemoryUsage; sessions: number; rejected: number }) => res(m));
            child.send({ type: 'memory' });
          }),
        stop: () =>
          new Promise((res) => {
            children.delete(child);
            if (child.exitCode !== null || child.signalCode !== null) return res();
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export const ms = (n: number): string => `${n.toFixed(n < 10 ? 2 : 1)}`;
