/**
 * Instructions to parseWebXml the 1,001 descriptors of a generated 1,000-webapp base (bench/parse.ts's
 * largest everyday size), counted by valgrind's cachegrind under `node --predictable`: a figure the
 * machine's load does not move. The child parses every descriptor `passes` times after one warm-up
 * pass; two children (1 and 5 passes) are counted and the difference over 4 is one pass.
 *
 *   npm run build && npx tsx bench/parse-instructions.ts
 *
 * TOLLGATE_BENCH_DIST=<another build> counts that build (bench/dist.ts). Needs valgrind.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateBase } from './generate.js';
import { fromDist } from './dist.js';

async function child(list: string, passes: number): Promise<void> {
  const { parseWebXml } = await fromDist<typeof import('../src/parser/index.js')>('parser/index.js');
  const files = (JSON.parse(readFileSync(list, 'utf8')) as string[]).map((f) => [f, readFileSync(f)] as const);
  let n = 0;
  for (let p = 0; p <= passes; p++)
    for (const [f, bytes] of files) n += parseWebXml(bytes, f).webXml?.filters.length ?? 0;
  process.stdout.write(`${n}\n`);
}

function count(list: string, passes: number): number {
  // The child runs this file through tsx's loader; its start-up cost is the same in both counts.
  const r = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      ...process.execArgv,
      import.meta.filename,
      '--child',
      list,
      '--passes',
      String(passes),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (!m) throw new Error(`cachegrind gave no count:\n${r.stderr.slice(-2000)}`);
  return Number(m[1]!.replace(/,/g, ''));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { child: { type: 'string' }, passes: { type: 'string' } } });
  if (values.child) return child(values.child, Number(values.passes));
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-parse-instr-'));
  try {
    const { files } = generateBase(root, 1000);
    const descriptors = files.filter((f) => f.endsWith('web.xml'));
    const list = join(root, 'list.json');
    (await import('node:fs')).writeFileSync(list, JSON.stringify(descriptors));
    const one = count(list, 1);
    const five = count(list, 5);
    const perPass = (five - one) / 4;
    process.stdout.write(
      `${descriptors.length} descriptors: ${(perPass / 1e6).toFixed(1)} M instructions per pass (${(perPass / descriptors.length / 1e3).toFixed(1)} K per descriptor)\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
