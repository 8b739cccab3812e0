/**
 * Issue 2: parsing and merging a CATALINA_BASE of N webapps (discovery,
 * positioned trees, models, merge of every context) against a bare saxes
 * parse of the same bytes (the floor: the XML library alone, no tree, no
 * model), plus parseWebXml of each descriptor alone. Every measurement runs
 * in its own process (see measureInChild) on the built dist/.
 *
 *   npm run build && npx tsx bench/parse.ts --sizes 100,1000 [--json]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { fromDist } from './dist.js';
import { generateBase } from './generate.js';
import {
  benchArgs,
  cell,
  costCell,
  measureInChild,
  ratio,
  runsFor,
  splitCosts,
  timeWithCosts,
  type SizeRow,
  type Timing,
} from './stats.js';

type Mode = 'bare' | 'parse' | 'load';

export interface ParseSizeRow extends SizeRow {
  /** parseWebXml of each descriptor alone (no discovery, no merge), and its own floor. */
  parseWebXmlMs: Timing;
  parseWebXmlBareMs: Timing;
  parseWebXmlRatio: number;
}

export interface ParseBench {
  name: 'parse';
  command: string;
  sizes: ParseSizeRow[];
}

/** Reads every file and parses it with saxes and no tree: what any XML-based tool must pay. */
export function bareParse(files: string[]): number {
  let n = 0;
  for (const f of files) {
    const p = new SaxesParser({ xmlns: true, position: true });
    p.on('opentag', () => n++);
    p.write(readFileSync(f, 'utf8')).close();
  }
  return n;
}

async function measure(mode: Mode, base: string, files: string[], runs: number, warmup: number): Promise<Timing> {
  if (mode === 'bare') return timeWithCosts(() => bareParse(files), runs, warmup);
  const { loadBase, parseWebXml } = await fromDist<typeof import('../src/parser/index.js')>('parser/index.js');
  if (mode === 'parse')
    return timeWithCosts(
      () => files.reduce((n, f) => n + (parseWebXml(readFileSync(f), f).webXml?.filters.length ?? 0), 0),
      runs,
      warmup,
    );
  const { contextsOf } = await fromDist<typeof import('../src/chain/index.js')>('chain/index.js');
  return timeWithCosts(() => contextsOf(loadBase({ base })).length, runs, warmup);
}

/** Measures every size; each side in a fresh process. */
export async function run(sizes = [1000]): Promise<ParseBench> {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-parse-'));
  const rows: ParseSizeRow[] = [];
  try {
    for (const size of sizes) {
      const { base, files } = generateBase(root, size);
      // parseWebXml reads the descriptors only; loadBase reads server.xml too.
      const descriptors = files.filter((f) => f.endsWith('web.xml'));
      const { runs, warmup } = runsFor(size);
      const child = (mode: Mode, list: string[]): Timing =>
        measureInChild(import.meta.filename, [mode, base, String(runs), String(warmup)], JSON.stringify(list));
      const bare = splitCosts(child('bare', files));
      const tollgate = splitCosts(child('load', files));
      const parseWebXmlBareMs = splitCosts(child('bare', descriptors)).timing;
      const parseWebXmlMs = splitCosts(child('parse', descriptors)).timing;
      rows.push({
        size,
        tollgateMs: tollgate.timing,
        bareMs: bare.timing,
        ratio: ratio(tollgate.timing, bare.timing),
        tollgateCosts: tollgate.costs,
        bareCosts: bare.costs,
        parseWebXmlMs,
        parseWebXmlBareMs,
        parseWebXmlRatio: ratio(parseWebXmlMs, parseWebXmlBareMs),
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { name: 'parse', command: `npx tsx bench/parse.ts --sizes ${sizes.join(',')}`, sizes: rows };
}

export function formatParse(r: ParseBench): string {
  const lines = [
    `${'webapps'.padStart(7)}  ${'parse+merge ms'.padEnd(24)}${'bare saxes ms'.padEnd(24)}ratio   ${'parseWebXml ms'.padEnd(24)}${'bare ms'.padEnd(24)}ratio   GC ms / page faults per run: tollgate, bare`,
  ];
  for (const s of r.sizes) {
    lines.push(
      `${String(s.size).padStart(7)}  ${cell(s.tollgateMs).padEnd(24)}${cell(s.bareMs).padEnd(24)}${s.ratio.toFixed(2)}x   ${cell(s.parseWebXmlMs).padEnd(24)}${cell(s.parseWebXmlBareMs).padEnd(24)}${s.parseWebXmlRatio.toFixed(2)}x   ${costCell(s.tollgateCosts)}, ${costCell(s.bareCosts)}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--measure');
  if (at >= 0) {
    const [mode, base, runs, warmup] = process.argv.slice(at + 1) as [Mode, string, string, string];
    const files = JSON.parse(readFileSync(0, 'utf8')) as string[];
    console.log(JSON.stringify(await measure(mode, base, files, Number(runs), Number(warmup))));
  } else {
    const { sizes, json } = benchArgs(process.argv.slice(2), [1000]);
    const r = await run(sizes);
    console.log(json ? JSON.stringify(r) : formatParse(r));
  }
}
