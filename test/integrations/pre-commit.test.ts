import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { needPackages } from '../system-packages.js';

const repo = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-pre-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BAD = `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter-mapping>
    <filter-name>missing</filter-name>
    <url-pattern>/*</url-pattern>
  </filter-mapping>
</web-app>
`;
const GOOD = `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <display-name>sample</display-name>
</web-app>
`;

describe('the pre-commit hook (.pre-commit-hooks.yaml)', () => {
  it('pre-commit try-repo on a clone of this repository refuses a bad web.xml and passes a good one', () => {
    needPackages('pre-commit');
    // The hook is language: system: tollgate from the packed tarball, installed into a prefix put first on PATH.
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
        cwd: repo,
        encoding: 'utf8',
      }),
    ) as { filename: string }[];
    const prefix = join(dir, 'prefix');
    execFileSync(
      'npm',
      ['install', '-g', '--prefix', prefix, join(dir, packed!.filename), '--prefer-offline', '--no-audit', '--no-fund'],
      { stdio: 'pipe' },
    );
    // try-repo needs the hooks committed: a clone of this checkout's HEAD.
    const clone = join(dir, 'tollgate');
    execFileSync('git', ['clone', '-q', '--no-local', repo, clone], { stdio: 'pipe' });
    const sample = join(dir, 'sample');
    mkdirSync(join(sample, 'WEB-INF'), { recursive: true });
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
        cwd: sample,
        stdio: 'pipe',
      });
    };
    git('init', '-q');
    const env = {
      ...process.env,
      PATH: `${join(prefix, 'bin')}${delimiter}${process.env['PATH'] ?? ''}`,
      PRE_COMMIT_HOME: join(dir, 'pre-commit-home'),
    };
    const tryRepo = (): { status: number | null; out: string } => {
      const r = spawnSync('pre-commit', ['try-repo', clone, 'tollgate', '--files', 'WEB-INF/web.xml'], {
        cwd: sample,
        env,
        encoding: 'utf8',
      });
      return { status: r.status, out: r.stdout + r.stderr };
    };

    writeFileSync(join(sample, 'WEB-INF', 'web.xml'), BAD);
    git('add', '.');
    const bad = tryRepo();
    expect(bad.status, bad.out).toBe(1);
    expect(bad.out).toMatch(/tollgate lint\.+Failed/);
    expect(bad.out).toContain('filter-mapping-undefined-filter');
    expect(bad.out).toContain('WEB-INF/web.xml');

    writeFileSync(join(sample, 'WEB-INF', 'web.xml'), GOOD);
    git('add', '.');
    const good = tryRepo();
    expect(good.status, good.out).toBe(0);
    expect(good.out).toMatch(/tollgate lint\.+Passed/);
  }, 300_000);
});
