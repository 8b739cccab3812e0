import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, lint, rules, TollgateInputError, writeBaseline } from '../../src/api/lint.js';
import { main } from '../../src/cli/index.js';
import { app, cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');
const withError = app(filter('c', 'CorsFilter'));

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: () => {}, cwd });
  return { code, out };
}

describe('tollgate/lint', () => {
  it('lints a base and lists every file it read, clean ones included', async () => {
    const report = await lint(example);
    expect(report.errorCount).toBe(0);
    expect(report.lintedFiles).toContain(join(example, 'conf', 'server.xml'));
  });

  it('counts findings by severity and formats them as the CLI prints them', async () => {
    const dir = tree(withError);
    const report = await lint([], { cwd: dir });
    expect(report.errorCount).toBe(1);
    expect(report.diagnostics.map((d) => d.ruleId)).toContain('cors-no-allowed-origins');
    for (const format of ['stylish', 'json', 'sarif', 'github'] as const) {
      expect(formatReport(report, format), format).toBe((await cli(['lint', '--format', format], dir)).out);
    }
  });

  it('takes rule levels and the config file as the CLI does', async () => {
    const dir = tree({
      ...withError,
      'tollgate.config.json': JSON.stringify({ rules: { 'cors-no-allowed-origins': 'warn' } }),
    });
    expect((await lint(dir, { cwd: dir })).warningCount).toBe(1);
    expect((await lint(dir, { cwd: dir, config: false })).errorCount).toBe(1);
    expect((await lint(dir, { cwd: dir, rules: { 'cors-no-allowed-origins': 'off' } })).diagnostics).toEqual([]);
    expect(formatReport(await lint(dir, { cwd: dir }), 'stylish', { quiet: true })).toBe('');
  });

  it('writes a baseline that the next run subtracts', async () => {
    const dir = tree(withError);
    expect(writeBaseline(await lint(dir), join(dir, 'baseline.json'))).toBe(1);
    expect((await lint(dir, { baseline: join(dir, 'baseline.json') })).errorCount).toBe(0);
  });

  it('throws TollgateInputError for a path that is nothing it can lint, or a broken config file', async () => {
    await expect(lint('/no/such/tollgate/path')).rejects.toThrow(TollgateInputError);
    const dir = tree({ ...withError, 'tollgate.config.json': '{ "rules": ' });
    await expect(lint(dir, { cwd: dir })).rejects.toThrow(/tollgate\.config\.json:1:\d+: invalid JSON/);
  });

  it('lists every rule with its metadata', () => {
    const ids = rules().map((r) => r.id);
    expect(ids).toContain('cors-no-allowed-origins');
    expect(new Set(ids).size).toBe(ids.length);
  });
});
