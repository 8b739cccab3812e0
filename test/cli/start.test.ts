/**
 * The built CLI's start (issue 24 goal 4): dist/bundle/cli.cjs evaluates only the invoked command's
 * modules, and bin/load-cli.cjs keeps one V8 code cache per bundle and command, pruned. Runs the
 * built files, as `npm test` builds them first.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands, main } from '../../src/cli/index.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');
const bundle = join(repo, 'dist', 'bundle', 'cli.cjs');
/** lint's own bundle: the same CLI with lint's code only, which bin/load-cli.cjs runs for argv starting with lint. */
const lintBundle = join(repo, 'dist', 'bundle', 'cli-lint.cjs');
const webXml = join(repo, 'examples', 'base', 'webapps', 'api', 'WEB-INF', 'web.xml');
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tollgate(args: string[], cache: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, TOLLGATE_COMPILE_CACHE: cache },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A bundle's first line: `// tollgate-cli <hash> <command words>`. */
const header = (file = bundle): string[] => readFileSync(file, 'latin1').split('\n', 1)[0]!.split(' ');
/** The content hash naming lint's code caches. */
const lintHash = (): string => header(lintBundle)[2]!;

describe('the CLI bundle', () => {
  it.each([
    [bundle, commands.map((c) => c.name.split(' ')[0])],
    [lintBundle, ['lint']],
  ])('%s is ASCII only and names its content hash and its commands in its first line', (file, expected) => {
    const text = readFileSync(file);
    expect(text.findIndex((b) => b > 0x7f)).toBe(-1);
    const [, tag, hash, words] = header(file);
    expect(tag).toBe('tollgate-cli');
    const rest = text.subarray(text.indexOf(0x0a) + 1);
    expect(hash).toBe(createHash('sha256').update(rest).digest('hex').slice(0, 16));
    expect(words!.split(',')).toEqual(expected);
  });

  it("lint's bundle has no other command's code, and lints a path named like another command", () => {
    const text = readFileSync(lintBundle, 'latin1');
    // What only serve and audit evaluate.
    expect(text).not.toContain('// src/server/connector.ts');
    expect(text).not.toContain('// src/audit/');
    expect(readFileSync(bundle, 'latin1')).toContain('// src/server/connector.ts');
    expect(text.length).toBeLessThan(readFileSync(bundle).length * 0.8);
    // main() loads the command argv starts with: `report` here is a directory, not the report command.
    mkdirSync(join(scratch, 'report', 'WEB-INF'), { recursive: true });
    writeFileSync(join(scratch, 'report', 'WEB-INF', 'web.xml'), readFileSync(webXml));
    const r = spawnSync(process.execPath, [bin, 'lint', 'report'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, TOLLGATE_COMPILE_CACHE: '0' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('lints a web.xml without loading the server, the cluster, child processes, node:crypto, node:assert or node:zlib', () => {
    // Node's list of the built-in modules a process has loaded: serve's code would have brought these in.
    const script = `const { loadCli } = require(${JSON.stringify(join(repo, 'bin', 'load-cli.cjs'))});
      const { exports: cli } = loadCli('lint');
      cli.main(['lint', ${JSON.stringify(webXml)}], { stdout() {}, stderr() {}, cwd: process.cwd() }).then((code) => {
        console.log(JSON.stringify({ code, loaded: process.moduleLoadList }));
      });`;
    const r = spawnSync(process.execPath, ['-e', script], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, TOLLGATE_COMPILE_CACHE: '0' },
    });
    const { code, loaded } = JSON.parse(r.stdout) as { code: number; loaded: string[] };
    expect(code).toBe(0);
    expect(loaded).toContain('NativeModule fs');
    for (const name of ['http', 'cluster', 'child_process', 'crypto', 'assert', 'zlib'])
      expect(loaded, name).not.toContain(`NativeModule ${name}`);
  });

  it.each(commands.map((c) => c.name.split(' ')[0]!))(
    '%s --help prints its options and exits 0 through bin/tollgate.js',
    (word) => {
      const r = tollgate([word, '--help'], '0');
      expect(r.code).toBe(0);
      expect(r.out).toContain(`tollgate ${word}`);
      expect(r.out).toContain('--help');
    },
  );

  it.each(commands.map((c) => c.name.split(' ')[0]!))(
    '%s refuses an unknown option with exit 2 through bin/tollgate.js',
    (word) => {
      const r = tollgate([word, '--bogus-option=x'], '0');
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(new RegExp(`^tollgate ${word}: `));
    },
  );

  it("keeps lint's exit codes through bin/tollgate.js: 0 clean, 1 with an error, 2 for a path that is not there", () => {
    expect(tollgate(['lint', webXml], '0').code).toBe(0);
    const bad = join(scratch, 'cors', 'web.xml');
    mkdirSync(join(scratch, 'cors'));
    writeFileSync(
      bad,
      '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><filter><filter-name>c</filter-name><filter-class>org.apache.catalina.filters.CorsFilter</filter-class><init-param><param-name>cors.allowed.origins</param-name><param-value>*</param-value></init-param><init-param><param-name>cors.support.credentials</param-name><param-value>true</param-value></init-param></filter><filter-mapping><filter-name>c</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>\n',
    );
    const r = tollgate(['lint', bad], '0');
    expect(r.code).toBe(1);
    expect(r.out).toContain('cors-credentials-with-any-origin');
    const missing = tollgate(['lint', join(scratch, 'not-there')], '0');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^tollgate lint: .*no such file or directory/);
  });

  it("judges server.xml by the catalogue as the source does, on every target (the bundles read the catalogue's tables from files beside them)", async () => {
    const base = join(scratch, 'catalogue-base');
    mkdirSync(join(base, 'conf'), { recursive: true });
    mkdirSync(join(base, 'webapps'));
    writeFileSync(
      join(base, 'conf', 'server.xml'),
      `<Server port="8005" shutdown="SHUTDOWN" bogusServer="1">
  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" />
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1" connectionTimeout="abc" bogusAttr="x" />
    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" />
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps">
        <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" noSuchThing="1" />
        <Valve className="org.apache.catalina.valves.NoSuchValve" />
      </Host>
    </Engine>
  </Service>
</Server>
`,
    );
    for (const target of ['9.0', '10.1', '11.0']) {
      const args = ['lint', base, '--target', target, '--format', 'json'];
      let out = '';
      const code = await main(args, { stdout: (t) => void (out += t), stderr: () => undefined, cwd: repo });
      const r = tollgate(args, '0');
      expect(r.out, target).toBe(out);
      expect(r.code).toBe(code);
      expect(out).toContain('attribute-unknown');
      expect(out).toContain('server-class-not-found');
    }
  });

  it('refuses an unknown command with exit 2, suggesting the nearest, and names the commands when none is given', () => {
    const typo = tollgate(['lnit'], '0');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/^tollgate: Did you mean lint\?/);
    const none = tollgate([], '0');
    expect(none.code).toBe(2);
    expect(none.err).toContain(commands.map((c) => c.name.split(' ')[0]).join(', '));
  });
});

describe('the code cache (bin/load-cli.cjs)', () => {
  it('writes one cache per bundle and command, and leaves it alone on later runs', () => {
    const dir = join(scratch, 'per-command');
    const hash = header()[2]!;
    const first = tollgate(['lint', webXml], dir);
    expect(first.code).toBe(0);
    const lint = `${lintHash()}-${process.version}-${process.arch}-lint.v8`;
    expect(readdirSync(dir)).toEqual([lint]);
    const written = statSync(join(dir, lint)).mtimeMs;
    const again = tollgate(['lint', webXml], dir);
    expect(again).toEqual(first);
    expect(statSync(join(dir, lint)).mtimeMs).toBe(written);
    expect(tollgate(['--version'], dir).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([lint, `${hash}-${process.version}-${process.arch}-other.v8`].sort());
  });

  it("when it writes one, removes other bundles' caches unused for a week, earlier names unused as long, and orphaned temporary files", () => {
    const dir = join(scratch, 'prune');
    mkdirSync(dir, { mode: 0o700 });
    const at = (name: string, minutesAgo: number, bytes = 1): void => {
      writeFileSync(join(dir, name), 'x'.repeat(bytes));
      const t = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(join(dir, name), t, t);
    };
    const week = 7 * 24 * 60;
    const other = (i: number, command = 'lint'): string => `${String(i).repeat(16)}-v20.0.0-x64-${command}.v8`;
    at(other(1), 10);
    at(other(2, 'serve'), week - 60);
    at(other(3), week + 60);
    at('cli-v20.0.0-x64-2831261-1795643074240.v8', 60);
    at('cli-v20.0.0-x64-2840710-1795643747244.v8', week + 60);
    at(`${'7'.repeat(16)}-v20.0.0-x64-lint.v8.4242`, 5);
    at(`${'8'.repeat(16)}-v20.0.0-x64-lint.v8.4343`, 0);
    at('notes.txt', week * 2);
    expect(tollgate(['lint', webXml], dir).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `${lintHash()}-${process.version}-${process.arch}-lint.v8`,
        // Used within the week: another installed version's, kept.
        other(1),
        other(2, 'serve'),
        'cli-v20.0.0-x64-2831261-1795643074240.v8',
        // Another process may be writing this one.
        `${'8'.repeat(16)}-v20.0.0-x64-lint.v8.4343`,
        'notes.txt',
      ].sort(),
    );
  });

  it("past its size bound, removes other bundles' least recently used caches first, never the running bundle's", () => {
    const { prune } = createRequire(import.meta.url)('../../bin/load-cli.cjs') as {
      prune: (dir: string, hash: string, maxBytes: number) => void;
    };
    const dir = join(scratch, 'bound');
    mkdirSync(dir, { mode: 0o700 });
    const ours = 'a'.repeat(16);
    const at = (name: string, minutesAgo: number): void => {
      writeFileSync(join(dir, name), 'x'.repeat(100));
      const t = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(join(dir, name), t, t);
    };
    at(`${ours}-v20.0.0-x64-lint.v8`, 500);
    at(`${ours}-v20.0.0-x64-serve.v8`, 400);
    for (const [i, ago] of [
      [1, 30],
      [2, 10],
      [3, 20],
      [4, 40],
    ] as const)
      at(`${String(i).repeat(16)}-v20.0.0-x64-lint.v8`, ago);
    prune(dir, ours, 450);
    // 600 bytes: the two least recently used others (4, then 1) go, leaving 400.
    expect(readdirSync(dir).sort()).toEqual([
      `${'2'.repeat(16)}-v20.0.0-x64-lint.v8`,
      `${'3'.repeat(16)}-v20.0.0-x64-lint.v8`,
      `${ours}-v20.0.0-x64-lint.v8`,
      `${ours}-v20.0.0-x64-serve.v8`,
    ]);
    prune(dir, ours, 100);
    expect(readdirSync(dir).sort()).toEqual([`${ours}-v20.0.0-x64-lint.v8`, `${ours}-v20.0.0-x64-serve.v8`]);
  });

  it('marks a cache it uses, so that pruning knows it is in use', () => {
    const dir = join(scratch, 'touch');
    expect(tollgate(['lint', webXml], dir).code).toBe(0);
    const file = join(dir, `${lintHash()}-${process.version}-${process.arch}-lint.v8`);
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(file, old, old);
    expect(tollgate(['lint', webXml], dir).code).toBe(0);
    // Marked again: its time moved forward from the two hours ago it was set to (by more than an hour).
    expect(statSync(file).mtimeMs - old.getTime()).toBeGreaterThan(3600_000);
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
