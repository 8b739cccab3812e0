/**
 * tollgate lint on a generated base of N webapps against the bare saxes parse
 * of the same bytes, and the cold start of the CLI on one web.xml against
 * `node -e 0`. Run: npm run build && npx tsx bench/lint.ts [apps]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { lintBase } from '../src/lint/engine.js';
import { loadBase } from '../src/parser/index.js';
import { generateBase } from './generate.js';
import type { BenchRow } from './parse.js';
import { fmt, time } from './stats.js';

const repo = join(import.meta.dirname, '..');

function bareParse(files: string[]): void {
  for (const f of files) {
    const p = new SaxesParser({ xmlns: true, position: true });
    p.on('opentag', () => undefined);
    p.write(readFileSync(f, 'utf8')).close();
  }
}

/** Wall time of whole processes, so the cold start includes module loading. */
function processTime(args: string[], runs = 9): ReturnType<typeof time> {
  return time(() => {
    try {
      execFileSync(process.execPath, args, { cwd: repo, stdio: 'ignore' });
    } catch {
      // lint exits 1 when it finds problems; the time is what matters here
    }
  }, runs, 2);
}

export async function run(sizes = [1000]): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-lint-'));
  const rows: BenchRow[] = [];
  try {
    for (const apps of sizes) {
      const { base, files } = generateBase(root, apps);
      const runs = apps >= 10_000 ? 3 : 7;
      const baseline = time(() => bareParse(files), runs);
      const value = time(() => lintBase(loadBase({ base })).diagnostics.length, runs);
      rows.push({ name: `lint, ${apps} webapps`, command: `npx tsx bench/lint.ts ${apps}`, value, baseline, baselineName: 'bare saxes parse of the same files' });
    }
    const one = join(root, 'base-1', 'webapps', 'app0', 'WEB-INF', 'web.xml');
    generateBase(root, 1);
    rows.push({
      name: 'cold start: tollgate lint one web.xml',
      command: 'node bin/tollgate.js lint <web.xml>',
      value: processTime(['bin/tollgate.js', 'lint', one]),
      baseline: processTime(['-e', '0']),
      baselineName: 'node -e 0',
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv[2] ? [Number(process.argv[2])] : [1000];
  for (const r of await run(sizes)) {
    const extra = r.name.startsWith('cold') ? `; +${(r.value.median - r.baseline.median).toFixed(0)} ms` : `; ratio ${(r.value.median / r.baseline.median).toFixed(2)}x`;
    console.log(`${r.name}: ${fmt(r.value)}; ${r.baselineName} ${fmt(r.baseline)}${extra}`);
  }
}
