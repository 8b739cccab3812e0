/**
 * Issue 25 item 2: the hostile parser shapes of test/fuzz/hostile.ts (deep nesting that declares
 * namespaces, 300,000 entity declarations, wide documents), each parsed in a fresh process
 * through parseWebXml (what lint, compile and serve call) and then parseXmlTree on the path the
 * shape takes; the time of the parse and the process's peak RSS (process.resourceUsage); and saxes
 * alone on the same text in another fresh process (the floor of the saxes path). The promise is
 * under one second of CPU each (docs/security.md).
 *
 *   npm run build && npx tsx bench/hostile.ts [--shapes a,b] [--runs 3] [--json]
 *
 * Each shape is measured in --runs fresh processes (default 3) and the run with the median
 * parseWebXml CPU time is reported, with the largest: one run can mislead (V8's pretenuring made
 * the 8 MiB namespace shape take 0.50 s in one process and 1.05 s in the next, issue 25).
 *
 * TOLLGATE_BENCH_DIST=<another build> measures that build instead (bench/dist.ts).
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { SaxesParser } from 'saxes';
import { hostileShapes } from '../test/fuzz/hostile.js';
import { fromDist } from './dist.js';

export interface HostileRow {
  shape: string;
  what: string;
  bytes: number;
  /** parseWebXml of the bytes, as loadBase calls it: wall-clock and CPU time (the CPU time a loaded machine moves less). */
  webXmlMs: number;
  webXmlCpuMs: number;
  /** parseXmlTree of the text (the positioned tree every other file type is read through). */
  treeMs: number;
  peakRssMb: number;
  findings: string[];
  /** saxes alone on the same text (no handlers, no namespaces) in a fresh process, the median of the runs: the floor of the saxes path, CPU ms. */
  bareSaxesCpuMs: number;
  /** How many fresh processes measured the shape, and the largest parseWebXml CPU time among them. */
  runs: number;
  webXmlCpuMsMax: number;
}

async function measureOne(name: string): Promise<HostileRow> {
  const shape = hostileShapes().find((s) => s.name === name);
  if (!shape) throw new Error(`no shape ${name}`);
  const { parseWebXml, parseXmlTree } = await fromDist<
    typeof import('../src/parser/index.js') & typeof import('../src/parser/xml.js')
  >('parser/index.js').then(async (p) => ({
    ...p,
    ...(await fromDist<typeof import('../src/parser/xml.js')>('parser/xml.js')),
  }));
  const text = shape.make();
  const bytes = Buffer.from(text, 'utf8');
  let t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = parseWebXml(bytes, 'web.xml');
  const cpu = process.cpuUsage(c0);
  const webXmlMs = performance.now() - t0;
  const webXmlCpuMs = (cpu.user + cpu.system) / 1000;
  t0 = performance.now();
  parseXmlTree({ path: 'web.xml', text, comments: [] } as never);
  const treeMs = performance.now() - t0;
  const findings = [...new Set(r.diagnostics.map((d) => `${d.ruleId}:${d.severity}`))];
  return {
    shape: shape.name,
    what: shape.what,
    bytes: bytes.length,
    webXmlMs,
    webXmlCpuMs,
    treeMs,
    bareSaxesCpuMs: NaN,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    findings,
    runs: 1,
    webXmlCpuMsMax: webXmlCpuMs,
  };
}

/** saxes alone on the shape's text, in a process of its own (after tollgate's parse its heap and code are another process's). */
function measureBare(name: string): number {
  const shape = hostileShapes().find((s) => s.name === name);
  if (!shape) throw new Error(`no shape ${name}`);
  const text = shape.make();
  const bare = new SaxesParser({ position: true });
  const b0 = process.cpuUsage();
  try {
    bare.write(text).close();
  } catch {
    // a shape saxes reports as malformed: the time to there is what counts
  }
  const b = process.cpuUsage(b0);
  return (b.user + b.system) / 1000;
}

export function formatHostile(rows: HostileRow[]): string {
  const out = [
    '| shape | bytes | parseWebXml, ms (CPU ms; largest of the runs) | parseXmlTree, ms | bare saxes, CPU ms | peak RSS, MB | findings |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    out.push(
      `| ${r.shape}: ${r.what} | ${r.bytes.toLocaleString('en-US')} | ${r.webXmlMs.toFixed(0)} (${r.webXmlCpuMs.toFixed(0)}; ${r.webXmlCpuMsMax.toFixed(0)}) | ${r.treeMs.toFixed(0)} | ${r.bareSaxesCpuMs.toFixed(0)} | ${r.peakRssMb.toFixed(0)} | ${r.findings.join(', ') || 'none'} |`,
    );
  }
  return out.join('\n');
}

/** This script in a fresh process with `args`: the JSON of its last line of output. */
function child<T>(...args: string[]): T {
  const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      measure: { type: 'string' },
      bare: { type: 'string' },
      shapes: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (values.bare) {
    process.stdout.write(`${JSON.stringify(measureBare(values.bare))}\n`);
    return;
  }
  const runs = Number(values.runs ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
  if (values.measure) {
    process.stdout.write(`${JSON.stringify(await measureOne(values.measure))}\n`);
    return;
  }
  const names = values.shapes ? values.shapes.split(',') : hostileShapes().map((s) => s.name);
  const rows: HostileRow[] = [];
  for (const name of names) {
    // A fresh process per run: its peak RSS is the shape's alone, and V8 decides afresh.
    const measured: HostileRow[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      measured.push(child<HostileRow>('--measure', name));
      bare.push(child<number>('--bare', name));
    }
    measured.sort((a, b) => a.webXmlCpuMs - b.webXmlCpuMs);
    bare.sort((a, b) => a - b);
    const row = {
      ...measured[(runs - 1) >> 1]!,
      runs,
      webXmlCpuMsMax: measured[runs - 1]!.webXmlCpuMs,
      bareSaxesCpuMs: bare[(runs - 1) >> 1]!,
    };
    rows.push(row);
    if (!values.json)
      process.stderr.write(
        `${row.shape}: ${row.webXmlMs.toFixed(0)} ms (${row.webXmlCpuMs.toFixed(0)} CPU, largest ${row.webXmlCpuMsMax.toFixed(0)}) / ${row.treeMs.toFixed(0)} ms, ${row.peakRssMb.toFixed(0)} MB\n`,
      );
  }
  process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : `${formatHostile(rows)}\n`);
}

if (process.argv[1] === import.meta.filename) await main();
