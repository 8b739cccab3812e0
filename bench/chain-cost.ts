/**
 * What the chain costs in CPU, without the network: real IncomingMessage and
 * ServerResponse objects (node:http's own header handling and serialisation
 * included), driven in a loop in one process with no socket, so the kernel's
 * share of a request (the larger part of it on loopback) and the load
 * generator's noise are out of the figure. The figure is CPU time (user +
 * system, GC threads included) per request. Log records are dropped, not written. Each variant runs in its own
 * process (see measureInChild). The HTTP benchmark (bench/runtime.ts) says
 * what a client sees; this one says which part of the server's work is
 * tollgate's, filter by filter.
 *
 *   npm run build && npx tsx bench/chain-cost.ts [--json]
 *   (each variant in its own process, with --no-allocation-site-pretenuring: see HARNESS_FLAGS)
 */
import type http from 'node:http';
import { fromDist, importCompiled } from './dist.js';
import { hello, helloWithChainHeaders, inProcessRequester } from './handlers.js';
import { measureInChild, summarise, type Timing } from './stats.js';

export interface CostRow {
  name: string;
  /** Microseconds per request. */
  us: Timing;
  /** Median µs over the floor's median µs. */
  overFloorUs: number;
}

export interface ChainCost {
  name: 'chain-cost';
  command: string;
  requestsPerSample: number;
  rows: CostRow[];
}

type Mode =
  | { kind: 'node' }
  | { kind: 'node-headers' }
  | { kind: 'filters'; filters: { id: string; params: Record<string, string> }[] }
  | { kind: 'compiled'; module: string };

const REQUESTS = 100_000;
const WARMUP = 30_000;
const SAMPLES = 5;
const YIELD_EVERY = 100;
/**
 * Every variant (the floor too) runs with V8's allocation-site pretenuring off. In this harness the
 * responses never reach a socket, and V8 at random decided, early in a process, to allocate their
 * objects in the old space: that process then ran about 36 mark-compacts instead of 1 and every row
 * measured 7-8 µs more (the no-filter runtime 7.7-7.9 µs in 3 of 6 processes, 1.14-1.18 in the other
 * 3, `node --trace-gc`; with the flag 1.17-1.27 in 6 of 6). Whole runs put 3 to 9 of the 20 rows in
 * that mode, a different set each time. A server whose responses go out on sockets does not show it
 * (bench/runtime.ts's HTTP figures are steady), so the flag removes the harness's artefact, not a cost
 * of tollgate's.
 */
const HARNESS_FLAGS = ['--no-allocation-site-pretenuring'];

async function listenerFor(mode: Mode): Promise<http.RequestListener> {
  if (mode.kind === 'node') return hello;
  if (mode.kind === 'node-headers') return helloWithChainHeaders;
  const runtime = await fromDist<typeof import('../src/runtime/index.js')>('runtime/index.js');
  // Log records are built as usual and then dropped: RequestDumperFilter's cost here leaves out writing its lines.
  runtime.setLogSink(() => {});
  if (mode.kind === 'compiled')
    return runtime.toNodeListener(
      (await importCompiled<{ default: Parameters<typeof runtime.toNodeListener>[0] }>(mode.module)).default,
      hello,
    );
  const { filterSpecById, plannedFilter } =
    await fromDist<typeof import('../src/filters/index.js')>('filters/index.js');
  const filters = mode.filters.map(({ id, params }) => {
    const spec = filterSpecById(id)!;
    return runtime.filterDeclaration(
      plannedFilter(spec.simpleName, spec.classNames[0]!, spec, spec.schema.parse(params)),
    );
  });
  return runtime.toNodeListener(runtime.createContextRuntime({ contextPath: '/app', filters }), hello);
}

async function measure(mode: Mode): Promise<Timing> {
  const listener = await listenerFor(mode);
  const one = inProcessRequester(listener, JSON.stringify(mode).slice(0, 80));
  // The event loop gets a turn every YIELD_EVERY requests, as a server's would: without it the callbacks node queues
  // for each finished response kept every request of a sample alive, V8 began allocating them in the old space
  // (allocation-site pretenuring), and runs measured 4 or 10 µs at random.
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < WARMUP; i++) {
    one();
    if (i % YIELD_EVERY === 0) await turn();
  }
  const samples: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    // CPU time, not wall time: other work on the machine then changes the figure little.
    const t = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) {
      one();
      if (i % YIELD_EVERY === 0) await turn();
    }
    const used = process.cpuUsage(t);
    samples.push((used.user + used.system) / REQUESTS);
  }
  return summarise(samples);
}

export async function run(): Promise<ChainCost> {
  // Loaded here, not at the top: the measuring processes import as little as a server would. With the compiler, the
  // Tomcat helpers and the load generator loaded too, the old space grew by every request's garbage, mark-compacts
  // took most of the time and the no-filter runtime measured 6 µs instead of 1 (seen with node --trace-gc).
  const { prepare, SINGLE_FILTERS } = await import('./runtime.js');
  const { module } = prepare();
  const modes: [string, Mode][] = [
    ['node:http alone (the floor)', { kind: 'node' }],
    ["node:http writing the chain's response headers", { kind: 'node-headers' }],
    ['tollgate runtime, no filter', { kind: 'filters', filters: [] }],
    ...SINGLE_FILTERS.map((f): [string, Mode] => [f.id, { kind: 'filters', filters: [f] }]),
    ['tollgate compiled chain (8 filters)', { kind: 'compiled', module }],
  ];
  const rows: CostRow[] = [];
  let floor = NaN;
  for (const [name, mode] of modes) {
    const us = measureInChild(import.meta.filename, [JSON.stringify(mode)], '', HARNESS_FLAGS);
    if (Number.isNaN(floor)) floor = us.median;
    rows.push({ name, us, overFloorUs: Math.round((us.median - floor) * 100) / 100 });
  }
  return { name: 'chain-cost', command: 'npx tsx bench/chain-cost.ts', requestsPerSample: REQUESTS, rows };
}

export function formatCost(r: ChainCost): string {
  const lines = [`${''.padEnd(48)}${'µs/request, median (min-max)'.padEnd(32)}over the floor`];
  for (const row of r.rows)
    lines.push(
      `${row.name.padEnd(48)}${`${row.us.median.toFixed(2)} (${row.us.min.toFixed(2)}-${row.us.max.toFixed(2)})`.padEnd(32)}${row.overFloorUs.toFixed(2)}`,
    );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--measure');
  if (at >= 0) {
    console.log(JSON.stringify(await measure(JSON.parse(process.argv[at + 1]!) as Mode)));
  } else {
    const r = await run();
    console.log(process.argv.includes('--json') ? JSON.stringify(r) : formatCost(r));
  }
}
