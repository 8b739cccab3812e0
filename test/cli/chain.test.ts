import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';

const repo = join(import.meta.dirname, '..', '..');
const example = join(repo, 'examples', 'base');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: repo });
  return { code, out, err };
}

describe('tollgate chain', () => {
  it('lists the filters of one request in order with where they were declared', async () => {
    const r = await run(['chain', '--base', example, '--path', '/api/items']);
    expect(r.code).toBe(0);
    const names = [...r.out.matchAll(/^\s+\d+\. (\S+)/gm)].map((m) => m[1]);
    expect(names).toEqual(['setCharacterEncoding', 'CorsFilter', 'RestCSRF', 'httpHeaderSecurity']);
    expect(r.out).toContain('examples/base/webapps/api/WEB-INF/web.xml:20:3');
  });

  it('prints JSON with the matched mapping', async () => {
    const r = await run(['chain', '--base', example, '--host', 'partners.localhost', '--path', '/index.html', '--format', 'json']);
    const doc = JSON.parse(r.out) as { host: string; filters: { name: string; matchedBy: { kind: string; value: string } }[] };
    expect(doc.host).toBe('partners.localhost');
    expect(doc.filters.map((f) => f.name)).toEqual(['frameOptions', 'httpHeaderSecurity']);
    expect(doc.filters[0]!.matchedBy).toEqual({ kind: 'url-pattern', value: '/*' });
  });

  it('lists every context without --path', async () => {
    const r = await run(['chain', '--base', example]);
    expect(r.out).toMatch(/^localhost\/api /m);
    expect(r.out).toMatch(/^partners\.localhost\/ /m);
  });

  it('exits 2 with one line for an unreadable base', async () => {
    const r = await run(['chain', '--base', join(repo, 'no-such-dir')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 for a bad dispatcher and for an unknown option', async () => {
    expect((await run(['chain', '--base', example, '--path', '/', '--dispatcher', 'NOPE'])).code).toBe(2);
    expect((await run(['chain', '--base', example, '--bogus'])).code).toBe(2);
  });
});
