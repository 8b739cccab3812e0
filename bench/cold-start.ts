/**
 * Issue 24 goal 4: `tollgate lint <one web.xml>` as a whole process against `node -e 0`, in the
 * same run. The processes are interleaved (yardstick, this tree, the --before tree, yardstick, ...)
 * so a neighbour's load falls on every column alike; the load average before and after is reported
 * because the machine is shared. Each tree's code cache is warmed first, as a user's second run is.
 *
 *   npm run build && npx tsx bench/cold-start.ts [--runs 31] [--before <another built checkout>] [--json]
 *
 * --before: a checkout of an earlier commit, built (`git worktree add /tmp/cs-before main && cd
 * /tmp/cs-before && ln -s <repo>/node_modules . && npm run build`), measured in the same rounds.
 */
import { spawnSync } from 'node:child_process';
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
  /** The same web.xml through the --before tree's CLI, when one was given. */
  before?: { root: string; tollgateMs: Timing; overheadMs: number };
  /** 1-minute load averages when the rounds started and ended. */
  load: [number, number];
}

function once(args: string[]): number {
  const t = process.hrtime.bigint();
  // lint exits 1 when it finds problems; the time is what matters here
  spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Interleaved rounds of `node -e 0`, this tree's `tollgate lint file` and, with `before`, that tree's. */
export function measureColdStart(file: string, runs = 21, before?: string): ColdStart {
  const cases = [['-e', '0'], [join(repoRoot, 'bin', 'tollgate.js'), 'lint', file], ...(before ? [[join(before, 'bin', 'tollgate.js'), 'lint', file]] : [])];
  // Writes each tree's V8 code cache and brings the files into the page cache.
  for (let i = 0; i < 2; i++) for (const c of cases) once(c);
  const samples = cases.map((): number[] => []);
  const startLoad = loadavg()[0]!;
  for (let i = 0; i < runs; i++) cases.forEach((c, k) => samples[k]!.push(once(c)));
  const [nodeMs, tollgateMs, beforeMs] = samples.map(summarise) as [Timing, Timing, Timing?];
  return {
    tollgateMs,
    nodeMs,
    overheadMs: Math.round(tollgateMs.median - nodeMs.median),
    ...(before && beforeMs ? { before: { root: before, tollgateMs: beforeMs, overheadMs: Math.round(beforeMs.median - nodeMs.median) } } : {}),
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
  const lines = [`Cold start, \`tollgate lint <one web.xml>\` as a whole process: ${cell(c.tollgateMs)} ms against \`node -e 0\` ${cell(c.nodeMs)} ms: +${c.overheadMs} ms.`];
  if (c.before) lines.push(`The same rounds through ${c.before.root}: ${cell(c.before.tollgateMs)} ms: +${c.before.overheadMs} ms.`);
  lines.push(`${c.nodeMs.runs} interleaved rounds; load average ${c.load[0].toFixed(2)} at the start, ${c.load[1].toFixed(2)} at the end.`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const runs = Number(value('--runs') ?? 31);
  const c = withOneWebXml((file) => measureColdStart(file, runs, value('--before')));
  console.log(args.includes('--json') ? JSON.stringify(c) : formatColdStart(c));
}
