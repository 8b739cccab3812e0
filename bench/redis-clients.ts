/**
 * Which Redis client the store should use (issue 35, item 4): the client-side CPU of one stateful request's
 * commands, and what loading the client and connecting adds to a process, for each candidate against the
 * same local redis-server, each in its own process, alternating.
 *
 * A request is what bench/stores.ts's chain sends: the session load (an EVALSHA answering a hash of 8
 * strings) and the window count (an EVALSHA answering an integer) in one turn, then the nonce append (an
 * EVALSHA answering 1), `--concurrency` requests in flight.
 *
 *   npx tsx bench/redis-clients.ts [--requests 20000] [--runs 3] [--rounds 3] [--ioredis DIR/node_modules/ioredis]
 *
 * ioredis is not a dependency: install it in a folder of its own (`npm install --prefix /tmp/ior ioredis`) and
 * pass its path. Candidates: @redis/client with RESP2 and RESP3, ioredis with and without its
 * auto-pipelining, and src/stores/resp.ts (dist/stores/resp.js: `npm run build` first).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedis } from '../test/stores/redis-server.js';

const repo = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '32' },
    ioredis: { type: 'string' },
    only: { type: 'string' },
  },
});

const LOAD = `local h = redis.call('HGETALL', KEYS[1]) redis.call('HSET', KEYS[1], 'l', ARGV[1]) redis.call('PEXPIRE', KEYS[1], 1801000) return h`;
const INCR = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;
const NONCE = `redis.call('HSET', KEYS[1], 'x', ARGV[1]) return 1`;

/** Each candidate: how to connect, and send(args) → promise of the reply. Run inside the child. */
const CANDIDATES: Record<string, string> = {
  '@redis/client 6.3.1, RESP2': `
    const { createClient } = await import('@redis/client');
    const c = createClient({ url, disableOfflineQueue: true, commandOptions: { timeout: 0 } });
    await c.connect();
    send = (a) => c.sendCommand(a);
    close = () => c.close();`,
  '@redis/client 6.3.1, RESP3': `
    const { createClient } = await import('@redis/client');
    const c = createClient({ url, RESP: 3, disableOfflineQueue: true, commandOptions: { timeout: 0 } });
    await c.connect();
    send = (a) => c.sendCommand(a);
    close = () => c.close();`,
  ioredis: `
    const { default: Redis } = await import(IOREDIS);
    const c = new Redis(url, { enableOfflineQueue: false, lazyConnect: true });
    await c.connect();
    send = (a) => c.call(...a);
    close = () => c.quit();`,
  'ioredis, enableAutoPipelining': `
    const { default: Redis } = await import(IOREDIS);
    const c = new Redis(url, { enableOfflineQueue: false, lazyConnect: true, enableAutoPipelining: true });
    await c.connect();
    send = (a) => c.call(...a);
    close = () => c.quit();`,
  'src/stores/resp.ts': `
    const { RespClient } = await import(${JSON.stringify(join(repo, 'dist', 'stores', 'resp.js'))});
    let ready;
    const up = new Promise((r) => (ready = r));
    const c = new RespClient({ url, connectTimeoutMs: 1000, retryDelay: () => 100, onReady: () => ready(), onError: () => {} });
    await up;
    send = (a) => c.send(a);
    close = () => c.close();`,
};

const CHILD = (connect: string) => `
const [url, requests, runs, concurrency, IOREDIS] = process.argv.slice(1);
const gc = globalThis.gc;
const snap = () => { gc(); gc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed }; };
const before = snap();
let send, close;
${connect}
const shas = [];
for (const s of [${JSON.stringify(LOAD)}, ${JSON.stringify(INCR)}, ${JSON.stringify(NONCE)}]) shas.push(String(await send(['SCRIPT', 'LOAD', s])));
await send(['HSET', 'sess', 'c', '1', 'l', '1', 'm', '1800', 'n', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD']);
await new Promise((r) => setTimeout(r, 50));
const after = snap();
const request = async (i) => {
  const [h, n] = await Promise.all([
    send(['EVALSHA', shas[0], '1', 'sess', String(Date.now())]),
    send(['EVALSHA', shas[1], '1', 'rl:1:127.0.0.1', '60000']),
  ]);
  if (!Array.isArray(h) || h.length < 8 || typeof n !== 'number') throw new Error('unexpected replies ' + JSON.stringify([h, n]));
  await send(['EVALSHA', shas[2], '1', 'sess', 'n' + i]);
};
const once = async (n) => {
  let next = 0;
  const worker = async () => { while (next < n) await request(next++); };
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  const d = process.cpuUsage(t);
  return (d.user + d.system) / n;
};
await once(Math.min(Number(requests), 5000));
const samples = [];
for (let r = 0; r < Number(runs); r++) samples.push(await once(Number(requests)));
await close();
samples.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ cpu: samples[samples.length >> 1], rss: after.rss - before.rss, heap: after.heap - before.heap }));
`;

const redis = await startRedis();
const results: Record<string, { cpu: number[]; rss: number[]; heap: number[] }> = {};
const names = Object.keys(CANDIDATES).filter(
  (n) => (values.ioredis !== undefined || !n.startsWith('ioredis')) && (!values.only || n.includes(values.only)),
);
const loadBefore = os.loadavg();
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const out = execFileSync(
        process.execPath,
        [
          '--expose-gc',
          '--input-type=module',
          '-e',
          CHILD(CANDIDATES[name]!),
          redis.url,
          values.requests,
          values.runs,
          values.concurrency,
          values.ioredis ?? '',
        ],
        { cwd: repo, encoding: 'utf8' },
      );
      const r = JSON.parse(out) as { cpu: number; rss: number; heap: number };
      const e = (results[name] ??= { cpu: [], rss: [], heap: [] });
      e.cpu.push(r.cpu);
      e.rss.push(r.rss / 2 ** 20);
      e.heap.push(r.heap / 2 ** 20);
    }
  }
} finally {
  await redis.stop();
}
const range = (xs: number[], d: number): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[s.length >> 1]!.toFixed(d)} (${s[0]!.toFixed(d)}-${s[s.length - 1]!.toFixed(d)})`;
};
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
const lines = [
  `Node ${process.version}, ${values.rounds} rounds alternating, each the median of ${values.runs} runs of ${values.requests} requests, ${values.concurrency} in flight; load average ${fmt(loadBefore)} at the start, ${fmt(os.loadavg())} at the end.`,
  '',
  '| client | client CPU µs per stateful request, median of rounds (min-max) | RSS after loading and connecting, MB | heap after a GC, MB |',
  '|---|---|---|---|',
  ...Object.entries(results).map(
    ([name, r]) => `| ${name} | ${range(r.cpu, 1)} | +${range(r.rss, 1)} | +${range(r.heap, 2)} |`,
  ),
];
process.stdout.write(lines.join('\n') + '\n');
