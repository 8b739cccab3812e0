import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-action-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the GitHub Action (action/)', () => {
  it('action/index.cjs, which GitHub runs, is what scripts/bundle-action.mjs builds from action/src', () => {
    const built = execFileSync(process.execPath, ['scripts/bundle-action.mjs', '--print'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(
      built === readFileSync(join(repo, 'action', 'index.cjs'), 'utf8'),
      'run node scripts/bundle-action.mjs',
    ).toBe(true);
    expect(readFileSync(join(repo, 'action', 'action.yml'), 'utf8')).toMatch(/using: node20\n\s+main: index\.cjs/);
  });

  it('run by @github/local-action on a bad web.xml: an error annotation at its file, line and column, SARIF written, the step failed', () => {
    const workspace = join(dir, 'workspace');
    mkdirSync(join(workspace, 'WEB-INF'), { recursive: true });
    writeFileSync(
      join(workspace, 'WEB-INF', 'web.xml'),
      `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter-mapping>
    <filter-name>missing</filter-name>
    <url-pattern>/*</url-pattern>
  </filter-mapping>
</web-app>
`,
    );
    const env = join(dir, 'action.env');
    writeFileSync(
      env,
      [
        'INPUT_PATH=WEB-INF/web.xml',
        'INPUT_SARIF=tollgate.sarif',
        `INPUT_COMMAND=${process.execPath} ${join(repo, 'bin', 'tollgate.js')}`,
        `GITHUB_WORKSPACE=${workspace}`,
        '',
      ].join('\n'),
    );
    // local-action runs the action's source with @actions/core replaced by its own, which prints the workflow commands.
    const r = spawnSync(
      join(repo, 'node_modules', '.bin', 'local-action'),
      ['run', join(repo, 'action'), 'src/main.ts', env],
      { cwd: repo, encoding: 'utf8' },
    );
    const out = r.stdout + r.stderr;
    expect(out).toContain(
      '::error title=filter-mapping-undefined-filter,file=WEB-INF/web.xml,line=3,endLine=3,col=18,endColumn=25::<filter-mapping> names "missing"',
    );
    expect(out).toContain('::set-output name=errors::1');
    expect(out).toContain('::error::tollgate lint found 1 error(s)');
    const sarif = JSON.parse(readFileSync(join(workspace, 'tollgate.sarif'), 'utf8')) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(sarif.runs[0]!.results.map((x) => [x.ruleId, x.level])).toEqual([
      ['filter-mapping-undefined-filter', 'error'],
    ]);

    // The bundle itself, as GitHub's runner starts it (node index.cjs, inputs in INPUT_* variables): exit code 1.
    const bundled = spawnSync(process.execPath, [join(repo, 'action', 'index.cjs')], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        INPUT_PATH: 'WEB-INF/web.xml',
        INPUT_SARIF: 'bundled.sarif',
        INPUT_COMMAND: `${process.execPath} ${join(repo, 'bin', 'tollgate.js')}`,
        GITHUB_WORKSPACE: workspace,
      },
    });
    expect(bundled.status, bundled.stderr).toBe(1);
    expect(bundled.stdout).toContain('::error title=filter-mapping-undefined-filter,file=WEB-INF/web.xml,line=3,');
    expect(bundled.stdout).toContain('::error::tollgate lint found 1 error(s)');
  }, 300_000);
});
