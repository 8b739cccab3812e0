/**
 * Issue 24 goal 4: `tollgate lint <one web.xml>` as a whole process against `node -e 0`, in the
 * same run. The processes are interleaved (yardstick, this tree, the --before tree, yardstick, ...)
 * so a neighbour's load falls on every column alike; the load average before and after is reported
 * because the machine is shared. Each tree's code cache (its own directory) is warmed first, as a
 * user's second run is.
 *
 *   npm run build && npx tsx bench/cold-start.ts [--runs 31] [--before <another built checkout>]... [--json]
 *
 * --before (repeatable): a checkout of an earlier commit, built (`git worktree add /tmp/cs-before main
 * && cd /tmp/cs-before && ln -s <repo>/node_modules . && npm run build`), measured in the same rounds.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './dist.js';
import { generateBase } from './generate.js';
import { cell, summarise, type Timing } from './stats.js';

export interface ColdStart {
  tollgateMs: Timing;
  nodeMs: Timing;
  overheadMs: number;
  /**
   * CPU time of each process (perf stat's task-clock, all threads), when perf runs here: a neighbour's
   * load stretches wall time by waiting, CPU time much less. Same order as `before`, after this tree's.
   */
  cpu: { nodeMs: Timing; tollgateMs: Timing; before: Timing[] } | null;
  /** The same web.xml through each --before tree's CLI. */
  before: { root: string; tollgateMs: Timing; overheadMs: number }[];
  /** 1-minute load averages when the rounds started and ended. */
  load: [number, number];
}

/** CPU milliseconds of one process, from `perf stat -e task-clock`, or null without a working perf. */
function cpuOnce(args: string[]): number | null {
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', process.execPath, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: cacheEnv(args),
  });
  const line = r.status === null || r.error ? undefined : r.stderr.split('\n').find((l) => l.includes('task-clock'));
  const ms = line ? Number(line.split(',')[0]) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/** Each tree's code cache in its own directory, so that no tree's pruning removes another's. */
let cacheRoot = '';
const cacheEnv = (args: string[]): NodeJS.ProcessEnv => ({
  ...process.env,
  TOLLGATE_COMPILE_CACHE: join(
    cacheRoot,
    String(args[0] === '-e' ? 'node' : createHash('sha1').update(args[0]!).digest('hex').slice(0, 8)),
  ),
});

function once(args: string[]): number {
  const t = process.hrtime.bigint();
  // lint exits 1 when it finds problems; the time is what matters here
  spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore', env: cacheEnv(args) });
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Interleaved rounds of `node -e 0`, this tree's `tollgate lint file` and each of `before`'s. */
export function measureColdStart(file: string, runs = 21, before: string[] = []): ColdStart {
  const cases = [['-e', '0'], ...[repoRoot, ...before].map((root) => [join(root, 'bin', 'tollgate.js'), 'lint', file])];
  cacheRoot = mkdtempSync(join(tmpdir(), 'tollgate-bench-cache-'));
  // Writes each tree's V8 code cache and brings the files into the page cache.
  for (let i = 0; i < 2; i++) for (const c of cases) once(c);
  const samples = cases.map((): number[] => []);
  const cpuSamples = cases.map((): number[] => []);
  const withCpu = cpuOnce(['-e', '0']) !== null;
  const startLoad = loadavg()[0]!;
  for (let i = 0; i < runs; i++) {
    cases.forEach((c, k) => samples[k]!.push(once(c)));
    if (withCpu) cases.forEach((c, k) => cpuSamples[k]!.push(cpuOnce(c) ?? NaN));
  }
  rmSync(cacheRoot, { recursive: true, force: true });
  const [nodeMs, tollgateMs, ...beforeMs] = samples.map(summarise) as [Timing, Timing, ...Timing[]];
  const [cpuNode, cpuTollgate, ...cpuBefore] = cpuSamples.map((c) => summarise(c.filter(Number.isFinite))) as [
    Timing,
    Timing,
    ...Timing[],
  ];
  return {
    tollgateMs,
    nodeMs,
    overheadMs: Math.round(tollgateMs.median - nodeMs.median),
    cpu: withCpu ? { nodeMs: cpuNode, tollgateMs: cpuTollgate, before: cpuBefore } : null,
    before: before.map((root, i) => ({
      root,
      tollgateMs: beforeMs[i]!,
      overheadMs: Math.round(beforeMs[i]!.median - nodeMs.median),
    })),
    load: [startLoad, loadavg()[0]!],
  };
}

/** The web.xml bench/lint.ts uses: one generated application's. */
export function withOneWebXml<T>(f: (file: string) => T): T {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-cold-'));
  try {
    const { base } = generateBase(root, 1);
    return f(join(base, 'webapps', 'app0', 'WEB-INF', 'web.xml'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function formatColdStart(c: ColdStart): string {
  const lines = [
    `Cold start, \`tollgate lint <one web.xml>\` as a whole process: ${cell(c.tollgateMs)} ms against \`node -e 0\` ${cell(c.nodeMs)} ms: +${c.overheadMs} ms.`,
  ];
  for (const b of c.before)
    lines.push(`The same rounds through ${b.root}: ${cell(b.tollgateMs)} ms: +${b.overheadMs} ms.`);
  if (c.cpu) {
    const over = (t: Timing): string => `+${(t.median - c.cpu!.nodeMs.median).toFixed(0)}`;
    lines.push(
      `CPU time per process (perf stat task-clock): node -e 0 ${cell(c.cpu.nodeMs)} ms; tollgate ${cell(c.cpu.tollgateMs)} ms (${over(c.cpu.tollgateMs)})` +
        c.cpu.before.map((t, i) => `; ${c.before[i]!.root} ${cell(t)} ms (${over(t)})`).join('') +
        '.',
    );
  }
  lines.push(
    `${c.nodeMs.runs} interleaved rounds; load average ${c.load[0].toFixed(2)} at the start, ${c.load[1].toFixed(2)} at the end.`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const values = (name: string): string[] =>
    args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : []));
  const runs = Number(values('--runs')[0] ?? 31);
  const c = withOneWebXml((file) => measureColdStart(file, runs, values('--before')));
  console.log(args.includes('--json') ? JSON.stringify(c) : formatColdStart(c));
}
