/**
 * Load-generation helpers shared by the HTTP benchmarks: start a server
 * variant in a child process, drive it with autocannon on loopback, and
 * summarise several runs as median and spread.
 */
import { fork, type ChildProcess } from 'node:child_process';
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

/** One autocannon run against 127.0.0.1:port. */
export async function load(port: number, o: LoadOptions): Promise<LoadRun> {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${o.path}`,
    connections: o.connections ?? 50,
    duration: o.amount ? undefined : o.seconds,
    amount: o.amount,
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
  memory(): Promise<NodeJS.MemoryUsage>;
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
    const onExit = (code: number | null): void => reject(new Error(`bench server ${JSON.stringify(variant).slice(0, 80)} exited with ${code}`));
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
            child.once('message', (m: { usage: NodeJS.MemoryUsage }) => res(m.usage));
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
