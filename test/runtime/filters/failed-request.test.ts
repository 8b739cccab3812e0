import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/failed-request.js';
import { create } from '../../../src/runtime/filters/failed-request.js';
import { request, serve, type Served } from '../serve.js';
import { declare, reportWith } from './helpers.js';

const report = reportWith((ex) => ({ a: ex.request.getParameter('a'), n: ex.request.getParameterNames().length }));

function params(n: number, from = 0): string {
  const out: string[] = [];
  for (let i = from; i < from + n; i++) out.push(`p${i}=${i}`);
  return out.join('&');
}

describe('FailedRequestFilter', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ maxParameterCount: 1000, maxPostSize: 65_536, filters: [declare(spec, create, {})] }, report);
  });
  afterAll(() => s.close());

  it('lets a request whose parameters all parse through, with the parameters parsed for downstream', async () => {
    const r = await request(s, '/x?a=1&b=2');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ a: '1', n: 2 });
  });

  it('reads a form body before deciding, and downstream sees its parameters', async () => {
    const r = await request(s, '/x?q=1', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=body',
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ a: 'body', n: 2 });
  });

  it('rejects a malformed %-escape or a parameter without a name with 400', async () => {
    expect((await request(s, '/x?a=%zz')).status).toBe(400);
    expect((await request(s, '/x?a=%C')).status).toBe(400);
    expect((await request(s, '/x?=x')).status).toBe(400);
  });

  it('rejects more parameters than maxParameterCount with 400, in the query or in the body', async () => {
    expect((await request(s, `/x?${params(1000)}`)).status).toBe(200);
    expect((await request(s, `/x?${params(1001)}`)).status).toBe(400);
    const body = params(600);
    expect(
      (
        await request(s, `/x?${params(600, 600)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        })
      ).status,
    ).toBe(400);
  });

  it('rejects a form body over maxPostSize with 413', async () => {
    const r = await request(s, '/x', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `a=${'x'.repeat(70_000)}`,
    });
    expect(r.status).toBe(413);
  });

  it('does not read bodies that are not forms', async () => {
    const r = await request(s, '/x?a=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"=":%zz}',
    });
    expect(r.status).toBe(200);
  });
});

describe('FailedRequestFilter under a flood of parameters', () => {
  it('answers 400 for a 100,000-parameter body when the limit is 10,000', async () => {
    const s = await serve({ maxParameterCount: 10_000, maxPostSize: -1, filters: [declare(spec, create, {})] }, report);
    try {
      const r = await request(s, '/x', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: params(100_000),
      });
      expect(r.status).toBe(400);
    } finally {
      await s.close();
    }
  });
});
