/**
 * Issues 3 and 9: `tollgate lint` on generated bases of N webapps (loading,
 * merging, validation, every rule, suppressions; not the output format)
 * against the bare saxes parse of the same bytes, each in its own process on
 * the built dist/; and the cold start of the CLI on one web.xml against
 * `node -e 0`, reported separately.
 *
 *   npm run build && npx tsx bench/lint.ts --sizes 10,100,1000,10000 [--json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromDist, repoRoot } from './dist.js';
import { generateBase } from './generate.js';
import { bareParse } from './parse.js';
import { benchArgs, cell, measureInChild, ratio, runsFor, summarise, time, type SizeRow, type Timing } from './stats.js';

type Mode = 'bare' | 'lint';

export interface LintBench {
  name: 'lint';
  command: string;
  sizes: SizeRow[];
  /** Whole processes: `tollgate lint <one web.xml>` against `node -e 0`. */
  coldStart: { tollgateMs: Timing; nodeMs: Timing; overheadMs: number };
}

async function measure(mode: Mode, base: string, files: string[], runs: number, warmup: number): Promise<Timing> {
  if (mode === 'bare') return time(() => bareParse(files), runs, warmup);
  const { loadInput } = await fromDist<typeof import('../src/lint/inputs.js')>('lint/inputs.js');
  const { lintBase } = await fromDist<typeof import('../src/lint/engine.js')>('lint/engine.js');
  return time(() => lintBase(loadInput(base)).diagnostics.length, runs, warmup);
}

/** Wall time of whole processes, so the cold start includes module loading. */
function processTime(args: string[], runs = 9): Timing {
  const samples: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t = process.hrtime.bigint();
    try {
      execFileSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
    } catch {
      // lint exits 1 when it finds problems; the time is what matters here
    }
    if (i >= 2) samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return summarise(samples);
}

/** Measures every size, then the cold start. */
export async function run(sizes = [10, 100, 1000, 10_000]): Promise<LintBench> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-lint-'));
  const rows: SizeRow[] = [];
  try {
    for (const size of sizes) {
      const { base, files } = generateBase(root, size);
      const { runs, warmup } = runsFor(size);
      const child = (mode: Mode): Timing => measureInChild(import.meta.filename, [mode, base, String(runs), String(warmup)], JSON.stringify(files));
      const bareMs = child('bare');
      const tollgateMs = child('lint');
      rows.push({ size, tollgateMs, bareMs, ratio: ratio(tollgateMs, bareMs) });
    }
    const { base } = generateBase(root, 1);
    const one = join(base, 'webapps', 'app0', 'WEB-INF', 'web.xml');
    const tollgateMs = processTime([join(repoRoot, 'bin', 'tollgate.js'), 'lint', one]);
    const nodeMs = processTime(['-e', '0']);
    return {
      name: 'lint',
      command: `npx tsx bench/lint.ts --sizes ${sizes.join(',')}`,
      sizes: rows,
      coldStart: { tollgateMs, nodeMs, overheadMs: Math.round(tollgateMs.median - nodeMs.median) },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function formatLint(r: LintBench): string {
  const lines = [`${'webapps'.padStart(7)}  ${'tollgate lint ms'.padEnd(26)}${'bare saxes ms'.padEnd(26)}ratio`];
  for (const s of r.sizes) lines.push(`${String(s.size).padStart(7)}  ${cell(s.tollgateMs).padEnd(26)}${cell(s.bareMs).padEnd(26)}${s.ratio.toFixed(2)}x`);
  const c = r.coldStart;
  lines.push(`cold start, tollgate lint one web.xml: ${cell(c.tollgateMs)} ms; node -e 0: ${cell(c.nodeMs)} ms; +${c.overheadMs} ms`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--measure');
  if (at >= 0) {
    const [mode, base, runs, warmup] = process.argv.slice(at + 1) as [Mode, string, string, string];
    const files = JSON.parse(readFileSync(0, 'utf8')) as string[];
    console.log(JSON.stringify(await measure(mode, base, files, Number(runs), Number(warmup))));
  } else {
    const { sizes, json } = benchArgs(process.argv.slice(2), [10, 100, 1000, 10_000]);
    const r = await run(sizes);
    console.log(json ? JSON.stringify(r) : formatLint(r));
  }
}
