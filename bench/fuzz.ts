/**
 * The benchmark-style fuzz run (test/fuzz/fuzz-core.ts): inputs 0..N-1 of a
 * seed through parse, load, lint, chain and compile, split between worker
 * threads by index range, with a watchdog that ends a thread stuck on one
 * input (a hang is a finding too) and carries on after it.
 *
 *   npx tsx bench/fuzz.ts [--inputs 1000000] [--seed 1] [--workers 2] [--json]
 *                         [--every load=4,lint=4,chain=4,compile=8] [--start 0]
 *                         [--replay INDEX] [--minimise]
 *   npx tsx bench/fuzz.ts --layouts 500 [--seed 1] [--start 0] [--json]
 *
 * parse runs on every input; the targets after it run on every Nth input
 * (--every; `all` runs every target on every input). The report says exactly
 * how many times each ran. Exit status 1 when any target crashed or hung.
 * --replay runs one input and prints it; --minimise reduces each crashing
 * input and writes it to test/fuzz/regressions/.
 *
 * --layouts N builds N hostile repository layouts instead (test/fuzz/layouts.ts: random combinations
 * of links out of the base, /proc and device links, loops, FIFOs, zip bombs, huge and deep files and
 * control characters, in every position), lints each in every format and reports it with the CIS
 * audit, and reports any output holding a byte from outside the base or a raw control character, with
 * the CPU time per layout and the growth of peak RSS. Exit status 1 on any such finding.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  crashSignature,
  emptySummary,
  loadCorpus,
  makeInput,
  mergeSummaries,
  minimise,
  record,
  REGRESSIONS,
  runInput,
  TARGETS,
  targetsFor,
  TIME_LIMIT_MS,
  Workspace,
  type Finding,
  type FuzzInput,
  type RunSummary,
  type Target,
} from '../test/fuzz/fuzz-core.js';
import { runLayouts } from '../test/fuzz/layouts.js';

interface Options {
  inputs: number;
  seed: number;
  workers: number;
  json: boolean;
  every: Partial<Record<Target, number>>;
  start: number;
  replay: number | null;
  minimise: boolean;
  layouts: number | null;
}

const DEFAULT_EVERY: Partial<Record<Target, number>> = { load: 4, lint: 4, chain: 4, compile: 8 };
/** Flush a thread's figures this often, so a thread ended by the watchdog loses none. */
const CHUNK = 500;
/** A thread that has not finished one input in this long is stuck. */
const STALL_MS = 60_000;

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: bench/fuzz.ts [--inputs N] [--seed S] [--workers W] [--json] [--every target=N,...|all] [--start K] [--replay INDEX] [--minimise] [--layouts N]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    inputs: 1_000_000,
    seed: 1,
    workers: 0,
    json: false,
    every: { ...DEFAULT_EVERY },
    start: 0,
    replay: null,
    minimise: false,
    layouts: null,
  };
  const int = (flag: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < min)
      usage(`${flag} needs an integer >= ${min}, got ${v ?? 'nothing'}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--inputs') o.inputs = int(a, argv[++i], 1);
    else if (a === '--seed') o.seed = int(a, argv[++i], 0);
    else if (a === '--workers') o.workers = int(a, argv[++i], 1);
    else if (a === '--start') o.start = int(a, argv[++i], 0);
    else if (a === '--replay') o.replay = int(a, argv[++i], 0);
    else if (a === '--layouts') o.layouts = int(a, argv[++i], 1);
    else if (a === '--json') o.json = true;
    else if (a === '--minimise') o.minimise = true;
    else if (a === '--every') {
      const v = argv[++i] ?? '';
      if (v === 'all') o.every = {};
      else {
        for (const part of v.split(',')) {
          const [t, n] = part.split('=');
          if (!TARGETS.includes(t as Target) || t === 'parse')
            usage(`--every: ${t} is not one of ${TARGETS.slice(1).join(', ')}`);
          o.every[t as Target] = int(`--every ${t}`, n, 1);
        }
      }
    } else usage(`unknown argument ${a}`);
  }
  // lint, chain and compile need the loaded base: they run only on inputs load runs on.
  const load = o.every.load ?? 1;
  for (const t of ['lint', 'chain', 'compile'] as const)
    if ((o.every[t] ?? 1) % load !== 0) usage(`--every: ${t} must be a multiple of load's ${load}`);
  if (o.workers === 0) o.workers = o.inputs >= 10_000 ? Math.min(2, cpus().length) : 1;
  return o;
}

// ---------------------------------------------------------------- worker thread

interface Job {
  seed: number;
  from: number;
  to: number;
  every: Partial<Record<Target, number>>;
  skip: number[];
  slot: number;
  progress: SharedArrayBuffer;
}

type Message = { type: 'chunk'; summary: RunSummary; next: number } | { type: 'done' };

async function workerMain(job: Job): Promise<void> {
  const progress = new Int32Array(job.progress);
  const corpus = loadCorpus();
  const ws = new Workspace();
  let current: FuzzInput | null = null;
  let summary = emptySummary();
  // A rejection or exception no target returned: a crash of the input that was running.
  const stray = (e: unknown): void => {
    const err = e instanceof Error ? e : new Error(String(e));
    const input = current ?? { index: -1, slot: 'app' as const, data: '', description: '(between inputs)' };
    record(summary, input, [
      {
        target: 'compile',
        ms: 0,
        error: { message: `unhandled: ${err.name}: ${err.message}`, stack: err.stack ?? '' },
      },
    ]);
  };
  process.on('unhandledRejection', stray);
  process.on('uncaughtException', stray);
  const skip = new Set(job.skip);
  try {
    for (let i = job.from; i < job.to; i++) {
      if (!skip.has(i)) {
        Atomics.store(progress, job.slot, i + 1);
        current = makeInput(corpus, job.seed, i);
        const outcomes = await runInput(current, ws, {
          targets: targetsFor(i, job.every),
          importModule: i % 1000 === 0,
        });
        // The benchmark owns the machine: inputs over TIME_LIMIT_MS of wall-clock time are reported.
        record(summary, current, outcomes, { ms: TIME_LIMIT_MS, wall: true });
        current = null;
      }
      if ((i + 1 - job.from) % CHUNK === 0 || i + 1 === job.to) {
        parentPort!.postMessage({ type: 'chunk', summary, next: i + 1 } satisfies Message);
        summary = emptySummary();
      }
    }
  } finally {
    ws.dispose();
  }
  parentPort!.postMessage({ type: 'done' } satisfies Message);
}

// ---------------------------------------------------------------- main thread

/** A thread running this file: it registers tsx's loader itself (the parent's hooks do not reach threads), as src/lint/parallel.ts does. */
function startWorker(job: Job): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(here), { workerData: job, execArgv: [] });
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(here)}); })`;
  return new Worker(boot, { eval: true, workerData: job });
}

interface Range {
  from: number;
  to: number;
  skip: number[];
}

/** Runs one index range in a thread, restarting after any input the watchdog declares stuck. */
function runRange(
  o: Options,
  slot: number,
  progress: SharedArrayBuffer,
  range: Range,
  parts: RunSummary[],
  hangs: Finding[],
  describe: (i: number) => string,
): Promise<void> {
  const view = new Int32Array(progress);
  return new Promise((resolve, reject) => {
    let next = range.from;
    const start = (from: number, skip: number[]): void => {
      Atomics.store(view, slot, 0);
      const job: Job = { seed: o.seed, from, to: range.to, every: o.every, skip, slot, progress };
      const worker = startWorker(job);
      let last = -1;
      let since = Date.now();
      let finished = false;
      const watchdog = setInterval(() => {
        const now = Atomics.load(view, slot);
        if (now !== last) {
          last = now;
          since = Date.now();
          return;
        }
        if (now > 0 && Date.now() - since > STALL_MS) {
          clearInterval(watchdog);
          finished = true;
          const stuck = now - 1;
          hangs.push({
            kind: 'slow',
            target: 'parse',
            signature: `hang at ${stuck}`,
            input: describe(stuck),
            message: `no progress for ${STALL_MS / 1000} s: thread ended (the target is the first of the input's not yet reported)`,
            ms: STALL_MS,
          });
          void worker.terminate().then(() => start(next, [...skip, stuck]));
        }
      }, 1000);
      worker.on('message', (m: Message) => {
        if (m.type === 'chunk') {
          parts.push(m.summary);
          next = m.next;
        } else {
          finished = true;
          clearInterval(watchdog);
          resolve();
        }
      });
      worker.on('error', (e) => {
        clearInterval(watchdog);
        if (!finished) reject(e);
      });
      worker.on('exit', (code) => {
        clearInterval(watchdog);
        if (!finished) reject(new Error(`fuzz thread ${slot} exited with ${code} before finishing`));
      });
    };
    start(range.from, range.skip);
  });
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function report(o: Options, s: RunSummary, wallS: number, rssMb: number): string {
  const crashes = s.findings.filter((f) => f.kind === 'crash');
  const slow = s.findings.filter((f) => f.kind === 'slow');
  const out = [
    `fuzz: ${fmt(s.inputs)} inputs (indexes ${fmt(o.start)}..${fmt(o.start + o.inputs - 1)}) of seed ${o.seed}, ${o.workers} worker thread${o.workers > 1 ? 's' : ''}`,
    `wall ${wallS.toFixed(1)} s, ${fmt(Math.round(s.inputs / wallS))} inputs/s, peak RSS ${rssMb.toFixed(0)} MB`,
    `crashes: ${crashes.length}; inputs over ${TIME_LIMIT_MS} ms in a target (or hung): ${slow.length}`,
    '',
    'target   runs         mean ms  slowest ms  slowest input',
  ];
  for (const t of TARGETS) {
    const x = s.targets[t];
    const every = t === 'parse' ? 1 : (o.every[t] ?? 1);
    out.push(
      `${t.padEnd(8)} ${fmt(x.runs).padStart(9)} ${`1/${every}`.padStart(4)} ${(x.runs ? x.totalMs / x.runs : 0).toFixed(3).padStart(8)} ${x.slowestMs.toFixed(1).padStart(10)}  ${x.slowest.slice(0, 160)}`,
    );
  }
  for (const f of [...crashes, ...slow].slice(0, 30)) {
    out.push(
      '',
      `${f.kind === 'crash' ? 'CRASH' : 'SLOW'} ${f.signature}`,
      `  input: ${f.input.slice(0, 300)}`,
      `  ${f.message.split('\n').slice(0, 6).join('\n  ').slice(0, 1200)}`,
    );
  }
  if (crashes.length)
    out.push(
      '',
      `Reproduce one: npx tsx bench/fuzz.ts --seed ${o.seed} --replay <index>; add --minimise to a run to write regression files.`,
    );
  return out.join('\n') + '\n';
}

async function replay(o: Options): Promise<string> {
  const corpus = loadCorpus();
  const ws = new Workspace();
  try {
    const input = makeInput(corpus, o.seed, o.replay!);
    const outcomes = await runInput(input, ws);
    const file = join(ws.dir, '..', `tollgate-fuzz-${o.seed}-${o.replay}.${input.slot === 'chain' ? 'json' : 'xml'}`);
    writeFileSync(file, input.data);
    const lines = [
      input.description,
      `${typeof input.data === 'string' ? 'string' : 'bytes'}, ${input.data.length} long, written to ${file}`,
    ];
    for (const r of outcomes)
      lines.push(`${r.target.padEnd(8)} ${r.ms.toFixed(1).padStart(8)} ms${r.error ? `  THREW ${r.error.stack}` : ''}`);
    return lines.join('\n') + '\n';
  } finally {
    ws.dispose();
  }
}

/** Reduces each crashing input and writes it as a regression file. */
async function minimiseCrashes(o: Options, crashes: Finding[]): Promise<string[]> {
  const corpus = loadCorpus();
  const ws = new Workspace();
  const written: string[] = [];
  try {
    for (const f of crashes) {
      const index = Number(/^#(\d+)/.exec(f.input)?.[1]);
      if (!Number.isInteger(index)) continue;
      const input = makeInput(corpus, o.seed, index);
      const text = typeof input.data === 'string' ? input.data : Buffer.from(input.data).toString('latin1');
      const asData = (t: string): string | Uint8Array =>
        typeof input.data === 'string' ? t : Buffer.from(t, 'latin1');
      const fails = async (t: string): Promise<boolean> => {
        const out = await runInput({ ...input, data: asData(t) }, ws);
        return out.some((r) => r.error && crashSignature(r) === f.signature);
      };
      if (!(await fails(text))) continue;
      const small = await minimise(text, fails);
      const name = f.signature
        .replace(/@.*$/, '')
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()
        .slice(0, 60);
      const file = join(REGRESSIONS, `${name}.${input.slot}.${input.slot === 'chain' ? 'json' : 'xml'}`);
      writeFileSync(file, asData(small));
      written.push(`${file} (${small.length} of ${text.length} characters)`);
    }
  } finally {
    ws.dispose();
  }
  return written;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.layouts !== null) {
    const s = await runLayouts(o.seed, o.start, o.layouts);
    const cpu = [...s.cpuMs].sort((a, b) => a - b);
    const at = (p: number): number => cpu[Math.min(cpu.length - 1, Math.floor((cpu.length * p) / 100))] ?? 0;
    const out = o.json
      ? `${JSON.stringify({ seed: o.seed, start: o.start, ...s, cpuMs: undefined, cpuP50: at(50), cpuMax: at(100) }, null, 2)}\n`
      : [
          `${s.layouts} hostile layouts of seed ${o.seed} (from ${o.start}); load average ${loadavg()
            .map((l) => l.toFixed(1))
            .join(', ')}`,
          `attacks placed: ${Object.entries(s.attacks)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
          `CPU per layout (lint in 4 formats + report with the CIS audit): p50 ${at(50).toFixed(0)} ms, p95 ${at(95).toFixed(0)} ms, max ${at(100).toFixed(0)} ms`,
          `peak RSS growth ${s.rssGrowthMiB.toFixed(0)} MiB; ${(s.outputBytes / 1024 / 1024).toFixed(1)} MB of output checked`,
          `failures: ${s.failures.length}`,
          ...s.failures.map((f) => `  ${f.layout}\n    ${f.problems.join('\n    ')}`),
          '',
        ].join('\n');
    process.stdout.write(out, () => process.exit(s.failures.length ? 1 : 0));
    return;
  }
  if (o.replay !== null) {
    const out = await replay(o);
    process.stdout.write(out, () => process.exit(0));
    return;
  }
  const t0 = performance.now();
  const corpus = loadCorpus();
  const describe = (i: number): string => makeInput(corpus, o.seed, i).description;
  const progress = new SharedArrayBuffer(4 * o.workers);
  const parts: RunSummary[] = [];
  const hangs: Finding[] = [];
  const per = Math.ceil(o.inputs / o.workers);
  const ranges: Range[] = [];
  for (let w = 0; w < o.workers; w++) {
    const from = o.start + w * per;
    const to = Math.min(o.start + o.inputs, from + per);
    if (from < to) ranges.push({ from, to, skip: [] });
  }
  await Promise.all(ranges.map((r, slot) => runRange(o, slot, progress, r, parts, hangs, describe)));
  const summary = mergeSummaries(parts);
  summary.inputs += hangs.length;
  summary.findings.push(...hangs);
  const wallS = (performance.now() - t0) / 1000;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const crashes = summary.findings.filter((f) => f.kind === 'crash');
  let out: string;
  if (o.json) {
    out =
      JSON.stringify(
        {
          seed: o.seed,
          start: o.start,
          inputs: summary.inputs,
          workers: o.workers,
          every: o.every,
          wallSeconds: wallS,
          inputsPerSecond: summary.inputs / wallS,
          peakRssMb: rssMb,
          targets: summary.targets,
          findings: summary.findings,
        },
        null,
        2,
      ) + '\n';
  } else {
    out = report(o, summary, wallS, rssMb);
  }
  if (o.minimise && crashes.length) {
    const written = await minimiseCrashes(o, crashes);
    out += `\nRegression files written:\n${written.map((w) => `  ${w}`).join('\n') || '  (none reproduced)'}\n`;
  }
  const failed = summary.findings.length > 0;
  process.stdout.write(out, () => process.exit(failed ? 1 : 0));
}

if (isMainThread) {
  void main().catch((e: unknown) => {
    process.stderr.write(`bench/fuzz.ts: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(2);
  });
} else {
  void workerMain(workerData as Job);
}
