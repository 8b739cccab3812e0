/**
 * Where `tollgate lint <one web.xml>`'s start goes (issue 24 goal 4), from a copy of the built CLI
 * whose module wrappers are timed: esbuild's `__esm` / `__commonJS` wrappers around every bundled
 * module (the time of evaluating each, its own share, without the modules it evaluates), the
 * built-in modules the bundle requires, and bin/load-cli.cjs's read and compile of the bundle.
 * The copy has its own code cache (another content hash), warmed first.
 *
 *   npm run build && npx tsx bench/cold-start-modules.ts [--runs 11] [--file <web.xml>] [--json]
 *
 * Timing every module adds a little to each; the whole-process figures are bench/cold-start.ts's.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withOneWebXml } from './cold-start.js';
import { repoRoot } from './dist.js';

/** What one run reports: times in ms. */
interface Sample {
  /** performance.now() when bin/tollgate.js starts: Node's own start-up. */
  start: number;
  read: number;
  compile: number;
  loadCli: number;
  main: number;
  /** Own evaluation time per bundled module, and per built-in module the bundle requires. */
  modules: Record<string, number>;
}

const TIMER = `var __T = globalThis.__tgTimes = { stack: [], own: new Map() };
globalThis.__tgTimed = __timed;
function __timed(name, f) { const s = performance.now(); __T.stack.push(0); try { return f(); } finally { const d = performance.now() - s; const c = __T.stack.pop(); __T.own.set(name, (__T.own.get(name) ?? 0) + d - c); if (__T.stack.length) __T.stack[__T.stack.length - 1] += d; } }
`;

function replaceOnce(text: string, from: string | RegExp, to: string, what: string): string {
  const out = text.replace(from, to);
  if (out === text)
    throw new Error(`bench/cold-start-modules.ts: cannot find ${what} (the bundle's or the loader's layout changed)`);
  return out;
}

/** A copy of bin/ and dist/bundle/ under `dir` whose bundle times its modules. */
function timedCopy(dir: string): void {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'dist', 'bundle'), join(dir, 'dist', 'bundle'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  // lint runs from its own bundle (bin/load-cli.cjs's OWN_BUNDLE).
  const bundlePath = join(dir, 'dist', 'bundle', 'cli-lint.cjs');
  let bundle = readFileSync(bundlePath, 'latin1');
  bundle = replaceOnce(
    bundle,
    /var __esm = \(fn, res, (\w+)\) => function __init\(\) \{\n {2}if \(\1\) throw \1\[0\];\n {2}try \{\n {4}return fn && \(res = \(0, fn\[__getOwnPropNames\(fn\)\[0\]\]\)\(fn = 0\)\), res;/,
    'var __esm = (fn, res, err) => function __init() {\n  if (err) throw err[0];\n  try {\n    if (!fn) return res; const n = __getOwnPropNames(fn)[0]; const f = fn[n]; fn = 0;\n    return (res = __timed(n, () => f())), res;',
    "esbuild's __esm",
  );
  bundle = replaceOnce(
    bundle,
    '    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;',
    '    return mod || __timed(__getOwnPropNames(cb)[0], () => (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod)), mod.exports;',
    "esbuild's __commonJS",
  );
  // Another content hash, so the copy's code cache is its own.
  const [header, rest] = [bundle.slice(0, bundle.indexOf('\n')), bundle.slice(bundle.indexOf('\n') + 1)];
  writeFileSync(
    bundlePath,
    `${header.replace(/tollgate-cli [0-9a-f]{16}/, 'tollgate-cli 0123456789abcdef')}\n${TIMER}${rest}`,
    'latin1',
  );

  patch(join(dir, 'bin', 'load-cli.cjs'), [
    [
      "  const source = readFileSync(file, 'latin1');",
      "  const r0 = performance.now();\n  const source = readFileSync(file, 'latin1');\n  globalThis.__tgRead = performance.now() - r0;",
      'the read',
    ],
    [
      '  const script = new vm.Script(',
      '  const c0 = performance.now();\n  const script = new vm.Script(',
      'the compile',
    ],
    [
      '  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));',
      `  globalThis.__tgCompile = performance.now() - c0;
  const plain = createRequire(file);
  // Built-ins the bundle requires, timed once the bundle's timer exists.
  const timedRequire = Object.assign((id) => (globalThis.__tgTimed ? globalThis.__tgTimed('require ' + id, () => plain(id)) : plain(id)), plain);
  const t0 = performance.now();
  script.runInThisContext()(module.exports, timedRequire, module, file, dirname(file));
  const T = globalThis.__tgTimes;
  T.own.set('(the bundle\\'s top level)', performance.now() - t0 - [...T.own.values()].reduce((a, b) => a + b, 0));`,
      'the run',
    ],
  ]);
  patch(join(dir, 'bin', 'tollgate.js'), [
    ["'use strict';", "'use strict';\nconst m0 = performance.now();", 'the start'],
    [
      'const { exports: cli, save } = loaded;',
      'const { exports: cli, save } = loaded;\nconst m1 = performance.now();',
      'loadCli',
    ],
    [
      '  (code) => {\n    save();',
      `  (code) => {
    const m2 = performance.now();
    save();
    process.stderr.write('\\n' + JSON.stringify({ start: m0, read: globalThis.__tgRead, compile: globalThis.__tgCompile, loadCli: m1 - m0, main: m2 - m1, modules: Object.fromEntries(globalThis.__tgTimes.own) }) + '\\n');`,
      'the end',
    ],
  ]);
}

/** Applies each [from, to, what] to the file once, or says which it could not find. */
function patch(path: string, edits: [string, string, string][]): void {
  writeFileSync(
    path,
    edits.reduce((text, [from, to, what]) => replaceOnce(text, from, to, what), readFileSync(path, 'utf8')),
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Groups a module by package (node_modules/<name>) or source folder (src/<folder>). */
function group(name: string): string {
  if (name.startsWith('require ')) return 'Node built-ins';
  if (name.startsWith('(')) return name;
  const parts = name.split('/');
  if (parts[0] === 'node_modules') return parts.slice(0, parts[1]!.startsWith('@') ? 3 : 2).join('/');
  return parts.slice(0, 2).join('/');
}

export function profileColdStart(file: string, runs = 11): { samples: Sample[]; load: [number, number] } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-modules-'));
  try {
    timedCopy(dir);
    const run = (): Sample => {
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'tollgate.js'), 'lint', file], {
        encoding: 'utf8',
        env: { ...process.env, TOLLGATE_COMPILE_CACHE: join(dir, 'cache') },
      });
      return JSON.parse(r.stderr.trim().split('\n').pop()!) as Sample;
    };
    run();
    run();
    const load0 = loadavg()[0]!;
    const samples = Array.from({ length: runs }, run);
    return { samples, load: [load0, loadavg()[0]!] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatProfile({ samples, load }: { samples: Sample[]; load: [number, number] }, top = 16): string {
  const m = (f: (s: Sample) => number): string => median(samples.map(f)).toFixed(1);
  const grouped = samples.map((s) => {
    const g = new Map<string, number>();
    for (const [k, v] of Object.entries(s.modules)) g.set(group(k), (g.get(group(k)) ?? 0) + v);
    return g;
  });
  const names = [...new Set(grouped.flatMap((g) => [...g.keys()]))];
  const rows = names.map((n) => [n, median(grouped.map((g) => g.get(n) ?? 0))] as const).sort((a, b) => b[1] - a[1]);
  return [
    `Medians of ${samples.length} runs (load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end), ms:`,
    `bin/tollgate.js starts ${m((s) => s.start)} after the process; loadCli ${m((s) => s.loadCli)} (read ${m((s) => s.read)}, compile with the code cache ${m((s) => s.compile)}); main ${m((s) => s.main)}, of which module evaluation ${m((s) => Object.values(s.modules).reduce((a, b) => a + b, 0))}:`,
    ...rows.slice(0, top).map(([n, v]) => `${v.toFixed(2).padStart(7)}  ${n}`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const runs = Number(value('--runs') ?? 11);
  const given = value('--file');
  const p = given ? profileColdStart(given, runs) : withOneWebXml((file) => profileColdStart(file, runs));
  console.log(args.includes('--json') ? JSON.stringify(p) : formatProfile(p));
}
