/**
 * What `tollgate serve` spends on a static file, without the network: the
 * container's own request listener (host routing, the context's 8-filter
 * chain of bench/fixtures/runtime, the default servlet) driven in-process
 * with node:http's IncomingMessage and ServerResponse over no socket, as
 * bench/chain-cost.ts drives the chain. The kernel's share of a loopback
 * request and the load generator are out; node:http's header work is in.
 *
 * Two figures per file: CPU time per request (process.cpuUsage, median of 5
 * samples) and, with --instructions, instructions per request counted by
 * valgrind's cachegrind under `node --predictable` (two runs of different
 * length; the difference is the cost of the extra requests), which the
 * machine's load does not move.
 *
 *   npm run build && npx tsx bench/static-cost.ts [--files app.css,app.js,missing.css] [--instructions] [--json]
 *
 * TOLLGATE_BENCH_DIST=<another tsc build> measures that build instead (before/after on one machine).
 */
import { spawnSync } from 'node:child_process';
import http, { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { fromDist } from './dist.js';
import { measureInChild, summarise, type Timing } from './stats.js';

const BATCH = 50;
const WARMUP = 20_000;
const REQUESTS = 50_000;
const SAMPLES = 5;
const SHORT = 5_000;
const LONG = 20_000;
const COUNT_WARMUP = 10_000;

const RAW_HEADERS = ['Host', '127.0.0.1:8080', 'Origin', 'https://a.example', 'X-Forwarded-For', '203.0.113.5'];

/** The container's request listener over `base`, caught as it is handed to http.createServer. */
async function containerListener(base: string): Promise<RequestListener> {
  let caught: RequestListener | null = null;
  const original = http.createServer;
  http.createServer = ((...args: unknown[]) => {
    caught = args.find((a) => typeof a === 'function') as RequestListener;
    return (original as (...a: unknown[]) => http.Server)(...args);
  }) as typeof http.createServer;
  syncBuiltinESMExports();
  const { startContainer } = await fromDist<typeof import('../src/server/container.js')>('server/container.js');
  await startContainer({ base, port: 0, address: '127.0.0.1' });
  http.createServer = original;
  syncBuiltinESMExports();
  if (caught === null) throw new Error('the container created no HTTP server');
  return caught;
}

/** Sends `n` GETs of `path` in batches of BATCH (the event loop turns between batches) and checks each finished. */
function requester(listener: RequestListener, path: string): (n: number) => Promise<void> {
  const socket = new Socket();
  for (const [k, v] of Object.entries({
    remoteAddress: '127.0.0.1',
    remotePort: 40000,
    localAddress: '127.0.0.1',
    localPort: 8080,
  }))
    Object.defineProperty(socket, k, { value: v });
  const expected = path.includes('missing') ? 404 : 200;
  return async (n) => {
    for (let done = 0; done < n; done += BATCH) {
      const batch: ServerResponse[] = [];
      for (let i = 0; i < BATCH; i++) {
        const req = new IncomingMessage(socket);
        req.method = 'GET';
        req.url = path;
        req.httpVersion = '1.1';
        (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(
          RAW_HEADERS,
          RAW_HEADERS.length,
        );
        req.push(null);
        const res = new ServerResponse(req);
        listener(req, res);
        batch.push(res);
      }
      // A cache hit ends within one turn of the event loop; a look-up on the disk takes a few.
      const deadline = Date.now() + 60_000;
      while (!batch.every((r) => r.writableEnded) && Date.now() < deadline)
        await new Promise((resolve) => setImmediate(resolve));
      for (const res of batch) {
        if (!res.writableEnded || res.statusCode !== expected)
          throw new Error(
            `${path} answered ${res.statusCode} (ended: ${res.writableEnded}, ${batch.filter((r) => r.writableEnded).length} of ${batch.length} ended, after ${done} requests)`,
          );
      }
    }
  };
}

async function cpuPerRequest(base: string, path: string): Promise<Timing> {
  const send = requester(await containerListener(base), path);
  await send(WARMUP);
  const samples: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t = process.cpuUsage();
    await send(REQUESTS);
    const used = process.cpuUsage(t);
    samples.push((used.user + used.system) / REQUESTS);
  }
  return summarise(samples);
}

function countInstructions(base: string, path: string, requests: number): number {
  const args = [
    '--tool=cachegrind',
    '--cache-sim=no',
    '--cachegrind-out-file=/dev/null',
    process.execPath,
    ...process.execArgv,
  ];
  args.push(
    '--predictable',
    '--random-seed=1',
    '--hash-seed=1',
    import.meta.filename,
    '--count',
    base,
    path,
    String(requests),
  );
  const r = spawnSync('valgrind', args, { encoding: 'utf8', maxBuffer: 1 << 24, env: process.env });
  if (r.status !== 0) throw new Error(`valgrind ${path} ${requests}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (!m) throw new Error(`cachegrind printed no instruction count:\n${r.stderr.slice(-2000)}`);
  return Number(m[1]!.replaceAll(',', ''));
}

export interface StaticCostRow {
  file: string;
  us: Timing;
  instructions: number | null;
}

export async function run(files: string[], instructions: boolean): Promise<StaticCostRow[]> {
  const { prepare } = await import('./runtime.js');
  const { base } = prepare();
  const rows: StaticCostRow[] = [];
  for (const file of files) {
    const path = `/app/static/${file}`;
    const us = measureInChild(import.meta.filename, [base, path]);
    const counts = instructions ? [SHORT, LONG].map((n) => countInstructions(base, path, n)) : null;
    rows.push({ file, us, instructions: counts ? Math.round((counts[1]! - counts[0]!) / (LONG - SHORT)) : null });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const measure = process.argv.indexOf('--measure');
  const count = process.argv.indexOf('--count');
  if (measure >= 0) {
    const [base, path] = process.argv.slice(measure + 1) as [string, string];
    console.log(JSON.stringify(await cpuPerRequest(base, path)));
    process.exit(0);
  } else if (count >= 0) {
    const [base, path, n] = process.argv.slice(count + 1) as [string, string, string];
    const send = requester(await containerListener(base), path);
    await send(COUNT_WARMUP + Number(n));
    // valgrind prints its summary when the process ends.
    process.stdout.write('', () => process.exit(0));
  } else {
    const { values } = parseArgs({
      options: {
        files: { type: 'string', default: 'app.css,app.js,missing.css' },
        instructions: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const rows = await run(values.files!.split(','), values.instructions!);
    if (values.json) console.log(JSON.stringify(rows));
    else
      for (const r of rows)
        console.log(
          `${r.file.padEnd(14)} ${r.us.median.toFixed(2)} µs/request (${r.us.min.toFixed(2)}-${r.us.max.toFixed(2)})${r.instructions === null ? '' : `  ${r.instructions.toLocaleString('en-US')} instructions/request`}`,
        );
    process.exit(0);
  }
}
