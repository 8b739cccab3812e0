/**
 * Instructions per request, counted by valgrind's cachegrind: a figure the
 * machine's load does not move (wall-clock numbers on a shared VM move by a
 * fifth between runs). Each variant answers GET /app/hello in-process, through
 * node:http's IncomingMessage and ServerResponse without a socket, so what is
 * counted is the JavaScript of a request: node:http's header work and, for the
 * chain, the compiled chain of bench/fixtures/runtime (the one bench/runtime.ts
 * puts under load). A variant runs twice, with 10,000 and 40,000 timed requests
 * after the same warm-up; the difference over 30,000 is the cost of one request.
 *
 *   npm run build && npx tsx bench/instructions.ts [--variants bare,bare-headers,bare-headers-one-call,chain]
 *
 * Besides those, `none` (the runtime with no filter) and `filter:<id>` (one filter alone, configured as in
 * bench/runtime.ts's SINGLE_FILTERS) count what bench/chain-cost.ts times, for one change's before and after
 * (TOLLGATE_BENCH_DIST names the other build).
 *
 * Needs valgrind (apt-get install valgrind).
 */
import { spawnSync } from 'node:child_process';
import type http from 'node:http';
import { parseArgs } from 'node:util';
import { fromDist, importCompiled } from './dist.js';
import { BARE_HANDLERS, hello, inProcessRequester } from './handlers.js';

const VARIANTS = {
  bare: 'bare node:http (the yardstick of bench/runtime.ts)',
  'bare-headers': "bare node:http writing the chain's 9 response headers with setHeader",
  'bare-headers-one-call': 'the same headers in one writeHead call',
  chain: 'tollgate compiled chain (8 filters)',
} as const;
type Variant = keyof typeof VARIANTS | 'none' | `filter:${string}`;

/** The filters `filter:<id>` may name, with their bench/runtime.ts parameters (passed in by the parent, which may load the schemas). */
type FilterParams = Record<string, Record<string, string>>;

function nameOf(variant: Variant): string {
  if (variant in VARIANTS) return VARIANTS[variant as keyof typeof VARIANTS];
  return variant === 'none'
    ? 'tollgate runtime, no filter'
    : `tollgate runtime, ${variant.slice('filter:'.length)} alone`;
}

const WARM_UP = 20_000;
const SHORT = 10_000;
const LONG = 40_000;

async function listenerFor(variant: Variant, module: string): Promise<http.RequestListener> {
  if (variant in BARE_HANDLERS) return BARE_HANDLERS[variant as keyof typeof BARE_HANDLERS];
  const runtime = await fromDist<typeof import('../src/runtime/index.js')>('runtime/index.js');
  if (variant === 'chain')
    return runtime.toNodeListener(
      (await importCompiled<{ default: Parameters<typeof runtime.toNodeListener>[0] }>(module)).default,
      hello,
    );
  const filters: { id: string; params: Record<string, string> }[] = [];
  if (variant !== 'none') {
    const id = variant.slice('filter:'.length);
    filters.push({
      id,
      params: (JSON.parse(process.env.TOLLGATE_BENCH_FILTER_PARAMS ?? '{}') as FilterParams)[id] ?? {},
    });
  }
  const { filterSpecById, plannedFilter } =
    await fromDist<typeof import('../src/filters/index.js')>('filters/index.js');
  runtime.setLogSink(() => {});
  const specs = filters.map(({ id, params }) => {
    const spec = filterSpecById(id);
    if (spec === undefined) throw new Error(`no filter ${id}`);
    return runtime.filterDeclaration(
      plannedFilter(spec.simpleName, spec.classNames[0]!, spec, spec.schema.parse(params)),
    );
  });
  return runtime.toNodeListener(runtime.createContextRuntime({ contextPath: '/app', filters: specs }), hello);
}

async function measure(variant: Variant, module: string, requests: number): Promise<void> {
  const one = inProcessRequester(await listenerFor(variant, module), variant);
  for (let i = 0; i < WARM_UP + requests; i++) {
    one();
    // Let timers and finish callbacks run, as they would between requests on a server.
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Instructions valgrind counted for the whole process (start-up, warm-up and `requests` requests). */
function countInstructions(variant: Variant, module: string, requests: number): number {
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
    '--measure',
    variant,
    module,
    String(requests),
  );
  const r = spawnSync('valgrind', args, {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    env: { ...process.env, TOLLGATE_BENCH_FILTER_PARAMS: filterParams },
  });
  if (r.status !== 0) throw new Error(`valgrind ${variant} ${requests}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (!m) throw new Error(`cachegrind printed no instruction count:\n${r.stderr.slice(-2000)}`);
  return Number(m[1]!.replaceAll(',', ''));
}

export interface InstructionsRow {
  variant: Variant;
  name: string;
  perRequest: number;
}

export interface InstructionsBench {
  command: string;
  /** Why nothing was counted (valgrind missing), or null. */
  skipped: string | null;
  rows: InstructionsRow[];
}

/** Whether valgrind can run here. */
export function valgrindAvailable(): boolean {
  return spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Every variant, for `npm run bench`; skipped (with the reason) where valgrind is not installed. */
export async function runAll(): Promise<InstructionsBench> {
  const command = 'npx tsx bench/instructions.ts';
  if (!valgrindAvailable())
    return { command, skipped: 'valgrind is not installed (apt-get install valgrind)', rows: [] };
  return { command, skipped: null, rows: await run(Object.keys(VARIANTS) as Variant[]) };
}

let filterParams = '{}';

export async function run(variants: Variant[]): Promise<InstructionsRow[]> {
  // Imported here, not in the measured child: it loads the compiler and parser from src/, whose modules
  // would share the child's heap with the requests being counted.
  const { prepare, SINGLE_FILTERS } = await import('./runtime.js');
  filterParams = JSON.stringify(Object.fromEntries(SINGLE_FILTERS.map((f) => [f.id, f.params])));
  const { module } = prepare();
  const rows: InstructionsRow[] = [];
  for (const variant of variants) {
    const counts = [SHORT, LONG].map((n) => countInstructions(variant, module, n));
    rows.push({ variant, name: nameOf(variant), perRequest: Math.round((counts[1]! - counts[0]!) / (LONG - SHORT)) });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--measure');
  if (at >= 0) {
    const [variant, module, requests] = process.argv.slice(at + 1) as [Variant, string, string];
    await measure(variant, module, Number(requests));
    // valgrind prints its summary when the process ends.
    process.stdout.write('', () => process.exit(0));
  } else {
    const { values } = parseArgs({
      options: { variants: { type: 'string', default: Object.keys(VARIANTS).join(',') } },
    });
    const variants = values.variants!.split(',') as Variant[];
    const unknown = variants.filter((v) => !(v in VARIANTS) && v !== 'none' && !v.startsWith('filter:'));
    if (unknown.length) {
      console.error(
        `unknown variant ${unknown.join(', ')}; known: ${Object.keys(VARIANTS).join(', ')}, none, filter:<id>`,
      );
      process.exit(2);
    }
    if (!valgrindAvailable()) {
      console.error('valgrind is not installed (apt-get install valgrind)');
      process.exit(2);
    }
    for (const r of await run(variants))
      console.log(`${r.name.padEnd(72)} ${r.perRequest.toLocaleString('en-US').padStart(8)} instructions/request`);
  }
}
