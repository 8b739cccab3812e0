import { mkdirSync } from 'node:fs';
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

/** Lints a clean application under this tollgate.config.json text; returns stderr and the exit code. */
async function withConfig(text: string): Promise<{ code: number; err: string }> {
  const dir = tree({ ...app(filter('a', 'WebdavFixFilter')), 'tollgate.config.json': text });
  const r = await run(['lint', '.'], dir);
  return { code: r.code, err: r.err };
}

describe('tollgate.config.json errors name file:line:column', () => {
  it('points at the end of a truncated file', async () => {
    const r = await withConfig('{ "rules": ');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tollgate\.config\.json:1:11: invalid JSON/);
  });

  it('points at a syntax error on a later line, with CRLF line ends', async () => {
    const r = await withConfig('{\r\n  "rules": {\r\n    "filter-never-mapped": "warn",\r\n  }\r\n}');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tollgate\.config\.json:4:3: invalid JSON/);
  });

  it('points at a value of the wrong kind', async () => {
    const r = await withConfig('{\n  "rules": {\n    "filter-never-mapped": "warning"\n  }\n}');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tollgate\.config\.json:3:28: rules\.filter-never-mapped: .*"warn"/);
  });

  it('points at an unknown key and at an unknown rule id', async () => {
    const key = await withConfig('{\n  "rules": {},\n  "ignores": []\n}');
    expect(key.code).toBe(2);
    expect(key.err).toMatch(/tollgate\.config\.json:3:3: .*"ignores"/);
    const rule = await withConfig('{\n  "rules": {\n    "no-such-rule": "off"\n  }\n}');
    expect(rule.code).toBe(2);
    expect(rule.err).toMatch(/tollgate\.config\.json:3:5: rules: there is no rule "no-such-rule"/);
  });

  it('reads a file saved with a byte order mark', async () => {
    const r = await withConfig('\uFEFF{ "rules": { "filter-never-mapped": "off" } }');
    expect(r).toEqual({ code: 0, err: '' });
  });

  it('reports a config path it cannot read as a usage failure, not a crash', async () => {
    const dir = tree(app(filter('a', 'WebdavFixFilter')));
    mkdirSync(join(dir, 'tollgate.config.json'));
    const r = await run(['lint', '.'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tollgate lint: .*tollgate\.config\.json: cannot read/);
  });
});
