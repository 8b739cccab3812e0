/**
 * The built CLI's start (issue 24 goal 4): dist/bundle/cli.cjs evaluates only the invoked command's
 * modules, and bin/load-cli.cjs keeps one V8 code cache per bundle and command, pruned. Runs the
 * built files, as `npm test` builds them first.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/index.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');
const bundle = join(repo, 'dist', 'bundle', 'cli.cjs');
const webXml = join(repo, 'examples', 'base', 'webapps', 'api', 'WEB-INF', 'web.xml');
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tollgate(args: string[], cache: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, TOLLGATE_COMPILE_CACHE: cache } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The bundle's first line: `// tollgate-cli <hash> <command words>`. */
const header = (): string[] => readFileSync(bundle, 'latin1').split('\n', 1)[0]!.split(' ');

describe('the CLI bundle', () => {
  it('is ASCII only and names its content hash and every command in its first line', () => {
    const text = readFileSync(bundle);
    expect(text.findIndex((b) => b > 0x7f)).toBe(-1);
    const [, tag, hash, words] = header();
    expect(tag).toBe('tollgate-cli');
    const rest = text.subarray(text.indexOf(0x0a) + 1);
    expect(hash).toBe(createHash('sha256').update(rest).digest('hex').slice(0, 16));
    expect(words!.split(',')).toEqual(commands.map((c) => c.name.split(' ')[0]));
  });

  it('lints a web.xml without loading the server, the cluster, child processes, node:crypto or node:assert', () => {
    // Node's list of the built-in modules a process has loaded: serve's code would have brought these in.
    const script = `const { loadCli } = require(${JSON.stringify(join(repo, 'bin', 'load-cli.cjs'))});
      const { exports: cli } = loadCli('lint');
      cli.main(['lint', ${JSON.stringify(webXml)}], { stdout() {}, stderr() {}, cwd: process.cwd() }).then((code) => {
        console.log(JSON.stringify({ code, loaded: process.moduleLoadList }));
      });`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: repo, encoding: 'utf8', env: { ...process.env, TOLLGATE_COMPILE_CACHE: '0' } });
    const { code, loaded } = JSON.parse(r.stdout) as { code: number; loaded: string[] };
    expect(code).toBe(0);
    expect(loaded).toContain('NativeModule fs');
    for (const name of ['http', 'cluster', 'child_process', 'crypto', 'assert']) expect(loaded, name).not.toContain(`NativeModule ${name}`);
  });

  it.each(commands.map((c) => c.name.split(' ')[0]!))('%s --help prints its options and exits 0 through bin/tollgate.js', (word) => {
    const r = tollgate([word, '--help'], '0');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`tollgate ${word}`);
    expect(r.out).toContain('--help');
  });

  it('refuses an unknown command with exit 2, naming the commands', () => {
    const r = tollgate(['lnit'], '0');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tollgate: /);
  });
});

describe('the code cache (bin/load-cli.cjs)', () => {
  it('writes one cache per bundle and command, and leaves it alone on later runs', () => {
    const dir = join(scratch, 'per-command');
    const hash = header()[2]!;
    const first = tollgate(['lint', webXml], dir);
    expect(first.code).toBe(0);
    const lint = `${hash}-${process.version}-${process.arch}-lint.v8`;
    expect(readdirSync(dir)).toEqual([lint]);
    const written = statSync(join(dir, lint)).mtimeMs;
    const again = tollgate(['lint', webXml], dir);
    expect(again).toEqual(first);
    expect(statSync(join(dir, lint)).mtimeMs).toBe(written);
    expect(tollgate(['--version'], dir).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([lint, `${hash}-${process.version}-${process.arch}-other.v8`].sort());
  });

  it('when it writes one, removes the caches of all but the three most recent other bundles, earlier names and orphaned temporary files', () => {
    const dir = join(scratch, 'prune');
    mkdirSync(dir, { mode: 0o700 });
    const old = (name: string, minutesAgo: number): void => {
      writeFileSync(join(dir, name), 'x');
      const t = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(join(dir, name), t, t);
    };
    const other = (i: number): string => `${String(i).repeat(16)}-v20.0.0-x64-lint.v8`;
    for (const i of [1, 2, 3, 4, 5]) old(other(i), 10 * i);
    old(`${'6'.repeat(16)}-v20.0.0-x64-serve.v8`, 5);
    old('cli-v20.0.0-x64-2831261-1795643074240.v8', 1);
    old(`${'7'.repeat(16)}-v20.0.0-x64-lint.v8.4242`, 5);
    old(`${'8'.repeat(16)}-v20.0.0-x64-lint.v8.4343`, 0);
    old('notes.txt', 100);
    expect(tollgate(['lint', webXml], dir).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `${header()[2]}-${process.version}-${process.arch}-lint.v8`,
        // The three most recent other bundles: 6 (5 minutes ago), 1 (10) and 2 (20); 3, 4 and 5 go.
        `${'6'.repeat(16)}-v20.0.0-x64-serve.v8`,
        other(1),
        other(2),
        // Another process may be writing this one.
        `${'8'.repeat(16)}-v20.0.0-x64-lint.v8.4343`,
        'notes.txt',
      ].sort(),
    );
  });

  it('runs the same without a usable cache directory, or with the cache turned off', () => {
    const cached = tollgate(['lint', webXml, '--format', 'json'], join(scratch, 'usable'));
    expect(cached.code).toBe(0);
    // A directory that cannot be created (its parent is a file), even for root.
    writeFileSync(join(scratch, 'a-file'), '');
    expect(tollgate(['lint', webXml, '--format', 'json'], join(scratch, 'a-file', 'cache'))).toEqual(cached);
    expect(tollgate(['lint', webXml, '--format', 'json'], '0')).toEqual(cached);
  });
});
