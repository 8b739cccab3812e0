/**
 * Parsing a CATALINA_BASE of N webapps against a bare saxes parse of the same
 * bytes (the floor: the XML library alone, no tree, no model). Each side runs in
 * a fresh process: saxes' code is shared, and once two parser shapes have run
 * through it V8's optimised code serves neither well, so measuring both in one
 * process would slow whichever runs second.
 * Run: npx tsx bench/parse.ts [apps]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { contextsOf } from '../src/chain/index.js';
import { loadBase, parseWebXml } from '../src/parser/index.js';
import { generateBase } from './generate.js';
import { fmt, time, type Timing } from './stats.js';

export interface BenchRow {
  name: string;
  command: string;
  value: Timing;
  baseline: Timing;
  baselineName: string;
}

type Mode = 'bare' | 'parse' | 'load';

/** Reads every descriptor and parses it with saxes and no tree: what any XML-based tool must pay. */
function bareParse(files: string[]): number {
  let n = 0;
  for (const f of files) {
    const p = new SaxesParser({ xmlns: true, position: true });
    p.on('opentag', () => n++);
    p.write(readFileSync(f, 'utf8')).close();
  }
  return n;
}

/** The same files through parseWebXml: positioned tree and model, no discovery. */
function modelParse(files: string[]): number {
  let n = 0;
  for (const f of files) n += parseWebXml(readFileSync(f), f).webXml?.filters.length ?? 0;
  return n;
}

function measure(mode: Mode, base: string, files: string[], runs: number): Timing {
  if (mode === 'bare') return time(() => bareParse(files), runs);
  if (mode === 'parse') return time(() => modelParse(files), runs);
  return time(() => contextsOf(loadBase({ base })).length, runs);
}

/** Runs one measurement in a new process with this process's loader flags (tsx or none). */
function inFreshProcess(mode: Mode, base: string, files: string[], runs: number): Timing {
  const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, '--worker', mode, base, String(runs)], {
    input: JSON.stringify(files),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Timing;
}

export async function run(sizes = [1000]): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  const rows: BenchRow[] = [];
  try {
    for (const apps of sizes) {
      const { base, files } = generateBase(root, apps);
      // The model side reads what the base holds: the app descriptors and conf/web.xml, not server.xml.
      const descriptors = files.filter((f) => f.endsWith('web.xml'));
      const runs = apps >= 10_000 ? 3 : 9;
      const baseline = inFreshProcess('bare', base, files, runs);
      const baselineName = 'bare saxes parse of the same files, own process';
      rows.push({
        name: `parse + merge, ${apps} webapps`,
        command: `npx tsx bench/parse.ts ${apps}`,
        value: inFreshProcess('load', base, files, runs),
        baseline,
        baselineName,
      });
      rows.push({
        name: `parseWebXml of each descriptor, ${apps} webapps`,
        command: `npx tsx bench/parse.ts ${apps}`,
        value: inFreshProcess('parse', base, descriptors, runs),
        baseline: inFreshProcess('bare', base, descriptors, runs),
        baselineName,
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--worker');
  if (at >= 0) {
    const [mode, base, runs] = process.argv.slice(at + 1) as [Mode, string, string];
    const files = JSON.parse(readFileSync(0, 'utf8')) as string[];
    console.log(JSON.stringify(measure(mode, base, files, Number(runs))));
  } else {
    const sizes = process.argv[2] ? [Number(process.argv[2])] : [1000];
    for (const r of await run(sizes)) {
      console.log(`${r.name}: ${fmt(r.value)}; ${r.baselineName} ${fmt(r.baseline)}; ratio ${(r.value.median / r.baseline.median).toFixed(2)}x`);
    }
  }
}
