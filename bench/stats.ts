/** Small timing helpers shared by the benchmarks: warm up, then the median and spread of several runs. */
import { execFileSync } from 'node:child_process';
import { performance, PerformanceObserver } from 'node:perf_hooks';

export interface Timing {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/**
 * Where a run's time goes besides the work itself: the main thread's garbage
 * collection pauses (PerformanceObserver 'gc' entries that start inside the
 * run) and the minor page faults the process takes during it (fresh heap pages
 * touched for the first time; each costs kernel time). Medians over the runs.
 */
export interface RunCosts {
  gcMs: Timing;
  pageFaults: Timing;
}

/** Warms up, then times `runs` runs of `fn` (median and spread), with the GC pauses and page faults of each. */
export async function timeWithCosts(fn: () => unknown, runs = 7, warmup = 2): Promise<Timing & RunCosts> {
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    for (let i = 0; i < warmup; i++) fn();
    const windows: { start: number; end: number; faults: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const faults = process.resourceUsage().minorPageFault;
      const start = performance.now();
      fn();
      const end = performance.now();
      windows.push({ start, end, faults: process.resourceUsage().minorPageFault - faults });
    }
    // GC entries reach the observer asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const gc = windows.map((w) =>
      pauses.reduce((sum, p) => (p.start >= w.start && p.start < w.end ? sum + p.duration : sum), 0),
    );
    return {
      ...summarise(windows.map((w) => w.end - w.start)),
      gcMs: summarise(gc),
      pageFaults: summarise(windows.map((w) => w.faults)),
    };
  } finally {
    observer.disconnect();
  }
}

/** The same for asynchronous work (worker threads). */
export async function timeAsync(fn: () => Promise<unknown>, runs = 7, warmup = 2): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return summarise(samples);
}

export function summarise(samples: number[]): Timing {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[s.length >> 1]!, min: s[0]!, max: s[s.length - 1]!, runs: s.length };
}

/** Median with the spread, compact for tables: `41.0 (39.8-42.6)`. */
export function cell(t: Timing): string {
  return `${t.median.toFixed(1)} (${t.min.toFixed(1)}-${t.max.toFixed(1)})`;
}

export function fmt(t: Timing): string {
  return `${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}, n=${t.runs})`;
}

/** Repetitions for a base of `size` webapps: fewer at large sizes, so each bench stays within minutes. */
export function runsFor(size: number): { runs: number; warmup: number } {
  return size >= 10_000 ? { runs: 3, warmup: 1 } : size >= 1000 ? { runs: 9, warmup: 2 } : { runs: 15, warmup: 5 };
}

/**
 * Runs `script --measure ...args` in a new Node process with this process's
 * loader flags (tsx or none) and returns the Timing it prints last. Each side
 * of a comparison gets its own process: they share library code (saxes), and
 * once two callers have run through it V8's optimised code serves neither well.
 */
export function measureInChild(script: string, args: string[], input = '', nodeFlags: readonly string[] = []): Timing {
  const out = execFileSync(process.execPath, [...process.execArgv, ...nodeFlags, script, '--measure', ...args], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Timing;
}

/** `--sizes 10,100` and `--json` from argv (positional sizes accepted too). */
export function benchArgs(argv: string[], defaults: number[]): { sizes: number[]; json: boolean; rest: string[] } {
  let sizes = defaults;
  let json = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--sizes') sizes = argv[++i]!.split(',').map(Number);
    else if (a.startsWith('--sizes=')) sizes = a.slice(8).split(',').map(Number);
    else if (/^\d+(,\d+)*$/.test(a)) sizes = a.split(',').map(Number);
    else rest.push(a);
  }
  if (sizes.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`--sizes: whole numbers, comma-separated (got ${sizes.join(',')})`);
  return { sizes, json, rest };
}

/** One row of a size sweep: tollgate against the bare parse of the same bytes. */
export interface SizeRow {
  size: number;
  tollgateMs: Timing;
  bareMs: Timing;
  ratio: number;
  /** GC pauses and page faults inside the timed runs of each side (timeWithCosts). */
  tollgateCosts?: RunCosts;
  bareCosts?: RunCosts;
}

/** The RunCosts a child's timeWithCosts result carries, apart from its Timing. */
export function splitCosts(t: Timing & Partial<RunCosts>): { timing: Timing; costs?: RunCosts } {
  const { gcMs, pageFaults, ...timing } = t;
  return gcMs && pageFaults ? { timing, costs: { gcMs, pageFaults } } : { timing };
}

/** `7.1 / 3,160`: a side's median GC milliseconds and page faults per run, for tables. */
export function costCell(c: RunCosts | undefined): string {
  return c ? `${c.gcMs.median.toFixed(1)} / ${Math.round(c.pageFaults.median).toLocaleString('en-US')}` : '–';
}

export const ratio = (a: Timing, b: Timing): number => Math.round((a.median / b.median) * 100) / 100;
