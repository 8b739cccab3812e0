/**
 * Issues 3 and 9: `tollgate lint` on generated bases of N webapps (loading,
 * merging, validation, every rule, suppressions; not the output format)
 * against the bare saxes parse of the same bytes, each in its own warm
 * process on the built dist/; whole CLI processes with --workers 0 and 2
 * (what worker threads buy); and the cold start of the CLI on one web.xml
 * against `node -e 0`, reported separately.
 *
 *   npm run build && npx tsx bench/lint.ts --sizes 10,100,1000,10000 [--json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureColdStart, type ColdStart } from './cold-start.js';
import { fromDist, repoRoot } from './dist.js';
import { generateBase } from './generate.js';
import { bareParse } from './parse.js';
import {
  benchArgs,
  cell,
  costCell,
  measureInChild,
  ratio,
  runsFor,
  splitCosts,
  summarise,
  timeWithCosts,
  type SizeRow,
  type Timing,
} from './stats.js';

type Mode = 'bare' | 'lint';

/**
 * tollgateMs: lintBase(loadInput(base)) in a warm process, one thread. The CLI
 * columns are whole `tollgate lint` processes (cold start, JIT warm-up and
 * output included) with --workers 0 and --workers 2, to show what threads buy.
 */
export interface LintSizeRow extends SizeRow {
  cli: { oneThreadMs: Timing; twoThreadsMs: Timing; speedup: number };
  /** Whether --workers auto uses threads at this size. */
  autoUsesWorkers: boolean;
}

export interface LintBench {
  name: 'lint';
  command: string;
  sizes: LintSizeRow[];
  /** Whole processes: `tollgate lint <one web.xml>` against `node -e 0`, interleaved (bench/cold-start.ts). */
  coldStart: ColdStart;
  /** The heap of one lint of the largest base, its result still held. */
  memory: LintMemory;
}

export interface LintMemory {
  apps: number;
  /** heapUsed after a full GC with the LintResult alive, MB. */
  heapMB: number;
  /** heapUsed after a full GC once the result is dropped: what lint leaves behind, MB. */
  heapAfterMB: number;
  /** The process's peak resident set over the lint (getrusage maxrss), MB. */
  peakRssMB: number;
  /** Diagnostics and files in the result. */
  diagnostics: number;
  files: number;
}

/** One lint of `base` in a fresh process with --expose-gc (see --memory below). */
function memoryOf(base: string, apps: number): LintMemory {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, import.meta.filename, '--memory', base],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  return { apps, ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<LintMemory, 'apps'>) };
}

async function measureMemory(base: string): Promise<Omit<LintMemory, 'apps'>> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const { loadInput } = await fromDist<typeof import('../src/lint/inputs.js')>('lint/inputs.js');
  const { lintBase } = await fromDist<typeof import('../src/lint/engine.js')>('lint/engine.js');
  // The result lives only inside this arrow, so the second gc() finds it unreachable.
  const { heapMB, diagnostics, files } = (() => {
    const result = lintBase(loadInput(base));
    gc();
    return {
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
      diagnostics: result.diagnostics.length,
      files: result.files.size,
    };
  })();
  gc();
  const heapAfterMB = process.memoryUsage().heapUsed / 2 ** 20;
  return { heapMB, heapAfterMB, peakRssMB: process.resourceUsage().maxRSS / 1024, diagnostics, files };
}

async function measure(mode: Mode, base: string, files: string[], runs: number, warmup: number): Promise<Timing> {
  if (mode === 'bare') return timeWithCosts(() => bareParse(files), runs, warmup);
  const { loadInput } = await fromDist<typeof import('../src/lint/inputs.js')>('lint/inputs.js');
  const { lintBase } = await fromDist<typeof import('../src/lint/engine.js')>('lint/engine.js');
  return timeWithCosts(() => lintBase(loadInput(base)).diagnostics.length, runs, warmup);
}

/** Wall time of whole processes, so the cold start includes module loading. */
function processTime(args: string[], runs = 9, warmup = 2): Timing {
  const samples: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    const t = process.hrtime.bigint();
    try {
      execFileSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
    } catch {
      // lint exits 1 when it finds problems; the time is what matters here
    }
    if (i >= warmup) samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return summarise(samples);
}

const bin = join(repoRoot, 'bin', 'tollgate.js');

/** Measures every size, then the cold start. */
export async function run(sizes = [10, 100, 1000, 10_000]): Promise<LintBench> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-lint-'));
  const rows: LintSizeRow[] = [];
  const { PARALLEL_THRESHOLD } = await fromDist<typeof import('../src/lint/parallel.js')>('lint/parallel.js');
  try {
    for (const size of sizes) {
      const { base, files } = generateBase(root, size);
      const { runs, warmup } = runsFor(size);
      const child = (mode: Mode): Timing =>
        measureInChild(import.meta.filename, [mode, base, String(runs), String(warmup)], JSON.stringify(files));
      const bare = splitCosts(child('bare'));
      const tollgate = splitCosts(child('lint'));
      const bareMs = bare.timing;
      const tollgateMs = tollgate.timing;
      const cliRuns = size >= 10_000 ? 3 : 5;
      const cli = (workers: number): Timing =>
        processTime([bin, 'lint', base, '--workers', String(workers)], cliRuns, 1);
      const oneThreadMs = cli(0);
      const twoThreadsMs = cli(2);
      rows.push({
        size,
        tollgateMs,
        bareMs,
        ratio: ratio(tollgateMs, bareMs),
        tollgateCosts: tollgate.costs,
        bareCosts: bare.costs,
        cli: { oneThreadMs, twoThreadsMs, speedup: ratio(oneThreadMs, twoThreadsMs) },
        autoUsesWorkers: size >= PARALLEL_THRESHOLD,
      });
    }
    const largest = Math.max(...sizes);
    const memory = memoryOf(generateBase(root, largest).base, largest);
    const { base } = generateBase(root, 1);
    const one = join(base, 'webapps', 'app0', 'WEB-INF', 'web.xml');
    return {
      name: 'lint',
      command: `npx tsx bench/lint.ts --sizes ${sizes.join(',')}`,
      sizes: rows,
      coldStart: measureColdStart(one),
      memory,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function formatLint(r: LintBench): string {
  const lines = [
    `${'webapps'.padStart(7)}  ${'bare saxes ms'.padEnd(26)}${'lint (warm, 1 thread) ms'.padEnd(27)}ratio   ${'CLI --workers 0 ms'.padEnd(27)}${'CLI --workers 2 ms'.padEnd(27)}speed-up  auto      GC ms / page faults per run: tollgate, bare`,
  ];
  for (const s of r.sizes) {
    lines.push(
      `${String(s.size).padStart(7)}  ${cell(s.bareMs).padEnd(26)}${cell(s.tollgateMs).padEnd(27)}${s.ratio.toFixed(2)}x   ${cell(s.cli.oneThreadMs).padEnd(27)}${cell(s.cli.twoThreadsMs).padEnd(27)}${s.cli.speedup.toFixed(2)}x     ${(s.autoUsesWorkers ? 'threads' : '1 thread').padEnd(10)}${costCell(s.tollgateCosts)}, ${costCell(s.bareCosts)}`,
    );
  }
  const c = r.coldStart;
  lines.push(
    `cold start, tollgate lint one web.xml: ${cell(c.tollgateMs)} ms; node -e 0: ${cell(c.nodeMs)} ms; +${c.overheadMs} ms (load average ${c.load[0].toFixed(2)}-${c.load[1].toFixed(2)})`,
  );
  const m = r.memory;
  lines.push(
    `memory, lint of ${m.apps} webapps (${m.files} files, ${m.diagnostics} findings): heap ${m.heapMB.toFixed(1)} MB with the result held, ${m.heapAfterMB.toFixed(1)} MB after it is dropped; peak RSS ${m.peakRssMB.toFixed(0)} MB`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--measure');
  const mem = process.argv.indexOf('--memory');
  if (mem >= 0) {
    console.log(JSON.stringify(await measureMemory(process.argv[mem + 1]!)));
  } else if (at >= 0) {
    const [mode, base, runs, warmup] = process.argv.slice(at + 1) as [Mode, string, string, string];
    const files = JSON.parse(readFileSync(0, 'utf8')) as string[];
    console.log(JSON.stringify(await measure(mode, base, files, Number(runs), Number(warmup))));
  } else {
    const { sizes, json } = benchArgs(process.argv.slice(2), [10, 100, 1000, 10_000]);
    const r = await run(sizes);
    console.log(json ? JSON.stringify(r) : formatLint(r));
  }
}
