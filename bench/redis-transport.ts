/**
 * The Redis store's transport alone (issue 35, item 4): the client-side CPU
 * time of one stateful request's store operations, in-process, without HTTP,
 * and what loading the store adds to a worker's memory.
 *
 * A "request" is what bench/stores.ts's chain does with its state: the
 * session load and the rate-limit window count issued in one turn (one round
 * trip), then the nonce append. `--concurrency` requests are in flight at
 * once, as under load. CPU time is this process's (process.cpuUsage) over
 * `--requests` requests, median of `--runs`; Redis's own CPU is not in it.
 * Memory: a child process's RSS and heap after a GC, before and after
 * importing tollgate/stores/redis and connecting one backend.
 *
 *   npm run build && npx tsx bench/redis-transport.ts [--requests 20000] [--runs 5] [--concurrency 32] [--module FILE]
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedis } from '../test/stores/redis-server.js';

const repo = join(import.meta.dirname, '..');

export interface TransportResult {
  /** Client CPU µs per stateful request (three commands, two round trips), median (min-max). */
  cpuUs: { median: number; min: number; max: number };
  /** Memory a worker gains by loading the store and connecting, MB after a GC. */
  memory: { rssMb: number; heapMb: number };
}

const MEMORY_PROBE = `
const gc = globalThis.gc;
const snap = () => { gc(); gc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed }; };
await import('tollgate/runtime');
const before = snap();
const { createRedisBackend } = await import(process.argv[2] || 'tollgate/stores/redis');
const b = createRedisBackend({ url: process.argv[1] });
await b.ready();
const s = b.context('localhost', '/app');
await s.sessions.load('x', Date.now());
await new Promise((r) => setTimeout(r, 50));
const after = snap();
await b.close();
process.stdout.write(JSON.stringify({ rss: after.rss - before.rss, heap: after.heap - before.heap }));
`;

export async function run(o: {
  requests: number;
  runs: number;
  concurrency: number;
  /** The store's module (default: this build's dist/stores/redis.js), to compare two versions. */
  module?: string;
}): Promise<TransportResult> {
  const redis = await startRedis();
  try {
    const { createRedisBackend } = (await import(
      o.module ? pathToFileURL(resolve(o.module)).href : join(repo, 'dist', 'stores', 'redis.js')
    )) as typeof import('../src/stores/redis.js');
    // A generous timeout: a loaded machine may stall Redis for longer than the default 300 ms.
    const backend = createRedisBackend({ url: redis.url, timeoutMs: 10_000 });
    if (!(await backend.ready())) throw new Error('Redis did not answer');
    const stores = backend.context('localhost', '/app');
    const limiter = stores.rateLimiter('limit');
    const now = Date.now();
    // One session per in-flight request, as from distinct clients.
    const ids: string[] = [];
    for (let i = 0; i < o.concurrency; i++) {
      const id = `bench${i}`;
      ids.push(id);
      await stores.sessions.create({
        id,
        creationTime: now,
        lastAccessedTime: now,
        maxInactiveInterval: 1800,
        attributes: new Map(),
      } as never);
    }
    const request = async (i: number): Promise<void> => {
      const id = ids[i % ids.length]!;
      const [session] = await Promise.all([
        stores.sessions.load(id, Date.now()),
        limiter.increment('127.0.0.1', 1, 60_000),
      ]);
      if (session === null) throw new Error('the session was not found');
      await stores.sessions.addNonce(id, `n${i}`, 5);
    };
    const once = async (n: number): Promise<number> => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < n) await request(next++);
      };
      const t = process.cpuUsage();
      await Promise.all(Array.from({ length: o.concurrency }, worker));
      const d = process.cpuUsage(t);
      return (d.user + d.system) / n;
    };
    await once(Math.min(o.requests, 5_000));
    const samples: number[] = [];
    for (let r = 0; r < o.runs; r++) samples.push(await once(o.requests));
    await backend.close();
    samples.sort((a, b) => a - b);
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--input-type=module',
        '-e',
        MEMORY_PROBE,
        redis.url,
        o.module ? pathToFileURL(resolve(o.module)).href : '',
      ],
      {
        cwd: repo,
        encoding: 'utf8',
      },
    );
    const mem = JSON.parse(out) as { rss: number; heap: number };
    return {
      cpuUs: { median: samples[samples.length >> 1]!, min: samples[0]!, max: samples[samples.length - 1]! },
      memory: { rssMb: mem.rss / 2 ** 20, heapMb: mem.heap / 2 ** 20 },
    };
  } finally {
    await redis.stop();
  }
}

export function formatTransport(r: TransportResult): string {
  return `client CPU per stateful request (3 commands, 2 round trips): ${r.cpuUs.median.toFixed(1)} µs (${r.cpuUs.min.toFixed(1)}-${r.cpuUs.max.toFixed(1)}); loading the store and connecting: +${r.memory.rssMb.toFixed(1)} MB RSS, +${r.memory.heapMb.toFixed(1)} MB heap`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '20000' },
      runs: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '32' },
      module: { type: 'string' },
    },
  });
  const r = await run({
    requests: Number(values.requests),
    runs: Number(values.runs),
    concurrency: Number(values.concurrency),
    ...(values.module ? { module: values.module } : {}),
  });
  process.stdout.write(`${formatTransport(r)}\n`, () => process.exit(0));
}
