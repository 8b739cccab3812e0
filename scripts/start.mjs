// `npm start`: serve a working copy of examples/base, building first only when the build is missing
// or older than its sources (a full build is 7-20 s; most starts change nothing).
// The copy is tmp/example-base (ignored by git), so the host manager's add/remove/persist never
// rewrite the tracked example; delete that folder to start afresh.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const built = join(root, 'dist', 'bundle', 'cli.cjs');

/** The newest modification time under these paths (files and whole folders). */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    const s = statSync(p);
    if (s.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else latest = Math.max(latest, s.mtimeMs);
  };
  for (const p of paths) if (existsSync(p)) visit(p);
  return latest;
}

const sources = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'].map((p) =>
  join(root, p),
);
if (!existsSync(built) || statSync(built).mtimeMs < newest(sources)) {
  process.stdout.write('npm start: dist is missing or older than src, building\n');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const copy = join(root, 'tmp', 'example-base');
if (!existsSync(copy)) cpSync(join(root, 'examples', 'base'), copy, { recursive: true });
process.stdout.write(
  `npm start: serving ${relative(process.cwd(), copy)}, a copy of examples/base (the host manager writes there; delete it to start afresh)\n`,
);

const { main } = await import(built);
process.exitCode = await main(['serve', '--base', copy, ...process.argv.slice(2)]);
