import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');

describe('the built package', () => {
  it('exports "tollgate", "tollgate/runtime", "tollgate/lint", "tollgate/compile" and "tollgate/schema" to ESM consumers', () => {
    // A separate Node process resolves the package by its own name, exactly as a user's code would.
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const lib = await import('tollgate'); const rt = await import('tollgate/runtime');
       const l = await import('tollgate/lint'); const c = await import('tollgate/compile'); const s = await import('tollgate/schema');
       const report = await l.lint('examples/base');
       console.log(typeof lib.loadBase, typeof lib.effectiveChain, typeof rt.matchesFilterUrlPattern, report.errorCount,
         c.compile('examples/base').modules.length > 0, s.jsonSchemas().has('tollgate.chain.schema.json'),
         l.TollgateInputError === c.TollgateInputError && c.TollgateInputError === s.TollgateInputError);`,
      ],
      { cwd: repo, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function function 0 true true true');
  });

  it('runs as a CLI through bin/tollgate.js', () => {
    const out = execFileSync(
      process.execPath,
      ['bin/tollgate.js', 'chain', '--base', 'examples/base', '--path', '/intranet/', '--format', 'json'],
      { cwd: repo, encoding: 'utf8' },
    );
    expect((JSON.parse(out) as { filters: { name: string }[] }).filters.map((f) => f.name)).toEqual([
      'RemoteIpFilter',
      'RemoteCIDRFilter',
      'httpHeaderSecurity',
    ]);
  });

  it('packs only what runs, and the tarball installed in an empty folder (npx) or globally (npm install -g) lints the example base', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-pack-'));
    try {
      // --ignore-scripts: prepack would rebuild; npm test has just built dist/.
      const [packed] = JSON.parse(
        execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
          cwd: repo,
          encoding: 'utf8',
        }),
      ) as { filename: string; files: { path: string }[] }[];
      const files = packed!.files.map((f) => f.path);
      expect(files).toContain('dist/bundle/cli.cjs');
      // lint's own bundle, refa's Unicode tables and the catalogue's, which the CLI bundles read on first use (scripts/bundle.mjs).
      expect(files).toContain('dist/bundle/cli-lint.cjs');
      expect(files).toContain('dist/bundle/refa-tables.txt');
      expect(files).toContain('dist/bundle/catalogue-tomcat-10.1.json');
      expect(files).toContain('dist/index.d.ts');
      expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
      // tsc's unbundled JavaScript stays home: the bundles are what bin/ and the exports load.
      expect(
        files.filter((f) => f.endsWith('.js') && !f.startsWith('dist/bundle/') && f !== 'bin/tollgate.js'),
      ).toEqual([]);
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), '{ "name": "tollgate-pack-test", "private": true }\n');
      execFileSync('npm', ['install', join(dir, packed!.filename), '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: app,
        stdio: 'pipe',
      });
      const out = execFileSync(
        'npx',
        ['--no', '--', 'tollgate', 'lint', join(repo, 'examples', 'base'), '--format', 'json'],
        { cwd: app, encoding: 'utf8' },
      );
      expect((JSON.parse(out) as { filePath: string }[]).map((r) => r.filePath)).toContain(
        join(repo, 'examples', 'base', 'conf', 'server.xml'),
      );
      expect(execFileSync('npx', ['--no', '--', 'tollgate', '--version'], { cwd: app, encoding: 'utf8' }).trim()).toBe(
        JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version,
      );
      // regex-redos runs recheck's JavaScript build shipped in dist/bundle/recheck.cjs: the recheck package, whose optional
      // dependencies are a 23 MB JAR and a 29 MB native binary, is not installed.
      expect(existsSync(join(app, 'node_modules', 'recheck')), 'node_modules/recheck').toBe(false);
      // What the bundles inline is a dev dependency, and the opt-in parts are optional peers: tollgate installs
      // refa and its regexpp (which the ES module entries load on first use) and nothing else.
      expect(
        readdirSync(join(app, 'node_modules'))
          .filter((n) => !n.startsWith('.'))
          .sort(),
      ).toEqual(['@eslint-community', 'refa', 'tollgate']);
      const esm = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const l = await import('tollgate/lint'); const r = await import('tollgate/runtime'); const s = await import('tollgate/schema');
           const report = await l.lint(${JSON.stringify(join(repo, 'examples', 'base'))});
           console.log(report.errorCount, typeof r.createContextRuntime, s.jsonSchemas().size > 0);`,
        ],
        { cwd: app, encoding: 'utf8' },
      );
      expect(esm.trim()).toBe('0 function true');
      // The language server's libraries are not there: one line names them, exit code 2.
      const lsp = spawnSync('npx', ['--no', '--', 'tollgate', 'lsp', '--stdio'], {
        cwd: app,
        encoding: 'utf8',
        input: '',
      });
      expect([lsp.status, lsp.stderr]).toEqual([
        2,
        'tollgate lsp: the language server needs the package vscode-languageserver, which is not installed (an optional peer dependency): run `npm install vscode-languageserver@^10.1.2 vscode-languageserver-textdocument@^1.0.16` where tollgate is installed (with -g for a global tollgate)\n',
      ]);
      // npm install -g links bin/tollgate.js itself onto the PATH: the kernel runs its #! line, and
      // bin/package.json (packed) makes Node read it as CommonJS.
      expect(files).toContain('bin/package.json');
      const global = join(dir, 'global');
      execFileSync(
        'npm',
        [
          'install',
          '-g',
          '--prefix',
          global,
          join(dir, packed!.filename),
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
        ],
        { stdio: 'pipe' },
      );
      const linked = spawnSync(
        join(global, 'bin', 'tollgate'),
        ['lint', join(repo, 'examples', 'base'), '--format', 'json'],
        { encoding: 'utf8' },
      );
      expect(linked.status, linked.stderr).toBe(0);
      expect(execFileSync(join(global, 'bin', 'tollgate'), ['--version'], { encoding: 'utf8' }).trim()).toBe(
        JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version,
      );
      expect((JSON.parse(linked.stdout) as { filePath: string }[]).map((r) => r.filePath)).toContain(
        join(repo, 'examples', 'base', 'conf', 'server.xml'),
      );
      const appXml = join(dir, 'redos', 'webapps', 'a', 'WEB-INF', 'web.xml');
      mkdirSync(dirname(appXml), { recursive: true });
      writeFileSync(
        appXml,
        '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><filter><filter-name>a</filter-name><filter-class>org.apache.catalina.filters.RemoteAddrFilter</filter-class><init-param><param-name>allow</param-name><param-value>(a+)+b</param-value></init-param></filter><filter-mapping><filter-name>a</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>\n',
      );
      const redos = spawnSync('npx', ['--no', '--', 'tollgate', 'lint', appXml, '--format', 'json'], {
        cwd: app,
        encoding: 'utf8',
      });
      expect(
        (JSON.parse(redos.stdout) as { messages: { ruleId: string }[] }[]).flatMap((r) =>
          r.messages.map((m) => m.ruleId),
        ),
      ).toContain('regex-redos');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
