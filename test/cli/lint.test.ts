import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { app, cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

async function run(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd });
  return { code, out, err };
}

const warningOnly = app(
  filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000', antiClickJackingEnabled: 'false' }),
);
const withError = app(filter('c', 'CorsFilter'));

describe('tollgate lint', () => {
  it('exits 0 on the bundled example', async () => {
    const r = await run(['lint', join(import.meta.dirname, '..', '..', 'examples', 'base')], process.cwd());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('exits 1 on errors and prints file:line:col with the rule id', async () => {
    const dir = tree(withError);
    const r = await run(['lint', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('webapps/app/WEB-INF/web.xml');
    expect(r.out).toMatch(/\d+:\d+\s+error\s+CorsFilter has no cors\.allowed\.origins/);
    expect(r.out).toContain('cors-no-allowed-origins');
  });

  it('exits 0 with warnings, 1 when they exceed --max-warnings', async () => {
    const dir = tree(warningOnly);
    expect((await run(['lint', dir], dir)).code).toBe(0);
    const r = await run(['lint', dir, '--max-warnings', '0'], dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('--max-warnings 0');
  });

  it('--quiet prints errors only, --rule changes a level', async () => {
    const dir = tree(warningOnly);
    expect((await run(['lint', dir, '--quiet'], dir)).out).toBe('');
    expect((await run(['lint', dir, '--rule', 'security-header-disabled:error'], dir)).code).toBe(1);
    expect((await run(['lint', tree(withError), '--rule', 'cors-no-allowed-origins:off'], dir)).code).toBe(0);
  });

  it('reads tollgate.config.json upward from the working directory, with ignore globs', async () => {
    const dir = tree({
      ...withError,
      'tollgate.config.json': JSON.stringify({ rules: { 'cors-no-allowed-origins': 'warn' } }),
    });
    expect((await run(['lint', '..'], join(dir, 'webapps'))).code).toBe(0);
    writeFileSync(join(dir, 'tollgate.config.json'), JSON.stringify({ ignore: ['webapps/app/**'] }));
    expect((await run(['lint', dir], dir)).code).toBe(0);
  });

  it('honours suppression comments unless --no-inline-config', async () => {
    const dir = tree(
      app(
        '<!-- tollgate-disable cors-no-allowed-origins :: vetted, same-origin only -->\n' +
          filter('c', 'CorsFilter') +
          '\n<!-- tollgate-enable cors-no-allowed-origins -->',
      ),
    );
    expect((await run(['lint', dir], dir)).code).toBe(0);
    expect((await run(['lint', dir, '--no-inline-config'], dir)).code).toBe(1);
  });

  it('lints single files and web application directories', async () => {
    const dir = tree(withError);
    expect((await run(['lint', 'webapps/app/WEB-INF/web.xml'], dir)).code).toBe(1);
    expect((await run(['lint', 'webapps/app'], dir)).code).toBe(1);
  });

  it('reports a finding once when the paths overlap', async () => {
    const dir = tree(withError);
    const once = (await run(['lint', '.', '-f', 'json'], dir)).out;
    const twice = (await run(['lint', '.', 'webapps/app', 'webapps/app/WEB-INF/web.xml', '-f', 'json'], dir)).out;
    const count = (out: string) =>
      (JSON.parse(out) as { messages: unknown[] }[]).reduce((n, r) => n + r.messages.length, 0);
    expect(count(once)).toBeGreaterThan(0);
    expect(count(twice)).toBe(count(once));
  });

  it('reports "--" inside a suppression comment, which Tomcat\'s XML parser rejects', async () => {
    const dir = tree(
      app(
        '<!-- tollgate-disable-next-line cors-no-allowed-origins -- reason -->\n' +
          filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' }),
      ),
    );
    const r = await run(['lint', dir], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('write the reason after "::"');
  });

  it('exits 2 for usage and I/O failures, with one line', async () => {
    const dir = tree({ ...withError, 'tollgate.config.json': '{ "rules": ' });
    for (const args of [
      ['lint', 'no-such-path'],
      ['lint', '.', '--rule', 'nope:off'],
      ['lint', '.', '--format', 'xml'],
      ['lint', '.'],
    ]) {
      const r = await run(args, dir);
      expect(r.code, args.join(' ')).toBe(2);
    }
    const r = await run(['lint', '.'], dir);
    expect(r.err).toMatch(/tollgate\.config\.json:1:\d+: invalid JSON/);
  });

  it('prints JSON, SARIF and GitHub formats', async () => {
    const dir = tree(withError);
    expect(JSON.parse((await run(['lint', dir, '-f', 'json'], dir)).out)[0].errorCount).toBeGreaterThan(0);
    expect(JSON.parse((await run(['lint', dir, '-f', 'sarif'], dir)).out).version).toBe('2.1.0');
    expect((await run(['lint', dir, '-f', 'github'], dir)).out).toMatch(/^::error file=/m);
  });
});
