/** Where the benchmarks load tollgate from: the built dist/, what users run (warns when src/ is newer). */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = join(import.meta.dirname, '..');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * The build to measure: dist/, or the directory TOLLGATE_BENCH_DIST names (another build of the
 * tree, e.g. `npx tsc -p tsconfig.build.json --outDir /tmp/before` at an older commit, to compare two builds on one machine).
 */
const distDir = process.env.TOLLGATE_BENCH_DIST ? resolve(process.env.TOLLGATE_BENCH_DIST) : join(repo, 'dist');

/** Imports <build>/<rel> after checking the build exists and (for dist/) is not older than src/. */
export async function fromDist<T>(rel: string): Promise<T> {
  const file = join(distDir, rel);
  let built: number;
  try {
    built = statSync(file).mtimeMs;
  } catch {
    throw new Error(`${file} is missing: run npm run build first`);
  }
  if (!process.env.TOLLGATE_BENCH_DIST && newest(join(repo, 'src')) > built)
    process.stderr.write(`bench: src/ is newer than dist/${rel}; run npm run build for current numbers\n`);
  return (await import(pathToFileURL(file).href)) as T;
}

export const repoRoot = repo;

/**
 * Imports a compiled module (`import ... from 'tollgate/runtime'`) against the build being measured: under
 * TOLLGATE_BENCH_DIST a copy next to it imports that build's runtime, so two builds' chains can be compared in one run.
 */
export async function importCompiled<T>(module: string): Promise<T> {
  let file = module;
  if (process.env.TOLLGATE_BENCH_DIST) {
    file = `${module.slice(0, -'.mjs'.length)}.bench-dist.mjs`;
    const runtime = pathToFileURL(join(distDir, 'runtime', 'index.js')).href;
    writeFileSync(
      file,
      readFileSync(module, 'utf8').replaceAll("from 'tollgate/runtime'", `from ${JSON.stringify(runtime)}`),
    );
  }
  return (await import(pathToFileURL(file).href)) as T;
}
