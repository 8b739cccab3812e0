import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/security.md: "nothing else opens user files". Every call that reads a file's bytes or lists a
 * folder in src/ is in the file-access layer (src/parser/files.ts), or in a file below that reads only
 * what is not a user's configuration, for the reason given.
 */
const ALLOWED: Record<string, string> = {
  'src/parser/files.ts': 'the layer itself',
  'src/lint/config.ts': "tollgate.config.json, found upward from the working directory (the user's own settings)",
  'src/lint/baseline.ts': 'the baseline file named by --baseline',
  'src/lint/docs.ts': "tollgate's own package.json",
  'src/lint/fix.ts': '--fix rewrites files lint read through the layer (its bytes compared before writing)',
  'src/migrate/index.ts':
    'compares the bytes of a file the loader read through the layer with its decoded text (never printed)',
  'src/lint/parallel.ts': 'counts the entries of webapps/ to choose a thread count (names only, never printed)',
  'src/report/html.ts': "the report's own browser script from the build",
  'src/plan/index.ts':
    "the names in appBase and the host's config folder in file-system order, for which context starts first (names only)",
  'src/filters/digester.ts': 'whether a lib/ folder holds jars (names only, never printed)',
  'src/filters/server-classes.ts': 'whether a lib/ folder holds jars (names only, never printed)',
  'src/api/compile.ts': '`tollgate compile` of a JSON chain named on the command line',
  'src/api/schema.ts': '`tollgate schema` of a web.xml named on the command line',
  'src/cli/commands/chain.ts': '`tollgate chain` of a JSON chain named on the command line',
};
const READS = /\b(?:readFileSync|readFile|createReadStream|openSync|readdirSync|opendirSync|readSync)\s*\(/;
/** The server and runtime serve files at run time: Tomcat's rules (allowLinking) apply there, and the default servlet's own check keeps what it serves inside the base and home and out of /proc, /sys and /dev (src/server/static-cache.ts; test/security/hostile-repo.test.ts serves the hostile base). */
const RUN_TIME = /^src\/(?:runtime|server|stores|compile|embed)\//;

function walk(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('the file-access layer is the one reader of user files', () => {
  it('no file of src/ outside it reads or lists files, but those allowed for their reason', () => {
    const root = join(import.meta.dirname, '..', '..');
    const offenders = walk(join(root, 'src'), [])
      .map((f) => relative(root, f).split('\\').join('/'))
      .filter((f) => !RUN_TIME.test(f) && !(f in ALLOWED))
      .filter((f) => READS.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
