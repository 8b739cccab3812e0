/**
 * Instructions of one steady-state load + lint of a generated base (issue 18: the hardening rules
 * may cost at most 10%). Run under cachegrind twice, with --runs 1 and --runs 3: half the difference
 * of the two totals is one load + lint, startup and warm-up cancelled out.
 *
 *   for n in 1 3; do valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --predictable --import tsx bench/lint-ir.ts --apps 1000 --runs $n --dir /tmp/ir-base 2>&1 | grep 'I *refs'; done
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lintBase } from '../src/lint/engine.js';
import { loadInput } from '../src/lint/inputs.js';
import { generateBase } from './generate.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const apps = Number(arg('apps', '1000'));
const runs = Number(arg('runs', '1'));
const dir = arg('dir', '/tmp/tollgate-lint-ir');
// The same base for every run and both branches: generated once (generateBase writes <dir>/base-<apps>), then reused.
const existing = join(dir, `base-${apps}`);
const base = existsSync(join(existing, 'conf')) ? existing : generateBase(dir, apps).base;
// One warm-up, so the runs counted are steady state.
let findings = lintBase(loadInput(base)).diagnostics.length;
for (let i = 0; i < runs; i++) findings = lintBase(loadInput(base)).diagnostics.length;
process.stdout.write(`${apps} apps, ${runs} runs, ${findings} findings\n`);
