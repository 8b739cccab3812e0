/**
 * Parse + merge of a CATALINA_BASE with N webapps against a bare saxes parse
 * of the same bytes (the floor: the XML library alone, no tree, no model).
 * Run: npx tsx bench/parse.ts [apps]
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { contextsOf } from '../src/chain/index.js';
import { loadBase } from '../src/parser/index.js';
import { generateBase } from './generate.js';
import { fmt, time, type Timing } from './stats.js';

export interface BenchRow {
  name: string;
  command: string;
  value: Timing;
  baseline: Timing;
  baselineName: string;
}

/** Reads every descriptor and parses it with saxes and no handlers: what any XML-based tool must pay. */
function bareParse(files: string[]): number {
  let n = 0;
  for (const f of files) {
    const p = new SaxesParser({ xmlns: true, position: true });
    p.on('opentag', () => n++);
    p.write(readFileSync(f, 'utf8')).close();
  }
  return n;
}

export async function run(sizes = [1000]): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  const rows: BenchRow[] = [];
  try {
    for (const apps of sizes) {
      const { base, files } = generateBase(root, apps);
      const runs = apps >= 10_000 ? 3 : 7;
      const baseline = time(() => bareParse(files), runs);
      const value = time(() => {
        const b = loadBase({ base });
        return contextsOf(b).length;
      }, runs);
      rows.push({ name: `parse + merge, ${apps} webapps`, command: `npx tsx bench/parse.ts ${apps}`, value, baseline, baselineName: 'bare saxes parse of the same files' });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv[2] ? [Number(process.argv[2])] : [1000];
  for (const r of await run(sizes)) {
    console.log(`${r.name}: ${fmt(r.value)}; bare parse ${fmt(r.baseline)}; ratio ${(r.value.median / r.baseline.median).toFixed(2)}x`);
  }
}
