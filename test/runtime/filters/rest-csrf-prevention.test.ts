import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/rest-csrf-prevention.js';
import { create } from '../../../src/runtime/filters/rest-csrf-prevention.js';
import { request, serve, type RawResponse, type Served } from '../serve.js';
import { declare, reportWith } from './helpers.js';

const report = reportWith((ex) => ({ reached: true, session: ex.request.getSession(false)?.id ?? null }));

function cookie(r: RawResponse): string {
  return r.headers['set-cookie']![0]!.split(';')[0]!;
}

const FORM = 'application/x-www-form-urlencoded';

describe('RestCsrfPreventionFilter', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve(
      { contextPath: '/api', filters: [declare(spec, create, { pathsAcceptingParams: '/accepted1, /accepted2' })] },
      report,
    );
  });
  afterAll(() => s.close());

  /** Fetches a nonce: returns the session cookie and the nonce. */
  async function fetchNonce(): Promise<{ cookie: string; nonce: string }> {
    const r = await request(s, '/api/items', { headers: { 'x-csrf-token': 'Fetch' } });
    expect(r.status).toBe(200);
    return { cookie: cookie(r), nonce: r.headers['x-csrf-token'] as string };
  }

  it('lets GET, HEAD and OPTIONS through without a nonce and without creating a session', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const r = await request(s, '/api/items', { method });
      expect(r.status, method).toBe(200);
      expect(r.headers['set-cookie']).toBeUndefined();
      expect(r.headers['x-csrf-token']).toBeUndefined();
    }
  });

  it('answers X-CSRF-Token: Fetch (any case) with a nonce, creating the session, and repeats the same nonce for that session', async () => {
    const first = await request(s, '/api/items', { headers: { 'x-csrf-token': 'fetch' } });
    expect(first.headers['x-csrf-token']).toMatch(/^[0-9A-F]{32}$/);
    expect(first.headers['set-cookie']![0]).toMatch(/^JSESSIONID=[0-9A-F]{32}; Path=\/api; HttpOnly$/);
    const again = await request(s, '/api/items', { headers: { 'x-csrf-token': 'FETCH', cookie: cookie(first) } });
    expect(again.headers['x-csrf-token']).toBe(first.headers['x-csrf-token']);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a modifying request without a nonce with 403 and X-CSRF-Token: Required, without reaching downstream', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await request(s, '/api/items', { method });
      expect(r.status, method).toBe(403);
      expect(r.headers['x-csrf-token']).toBe('Required');
      expect(r.body).toContain('CSRF nonce validation failed');
    }
  });

  it('refuses a missing, wrong or fetched-as-value nonce even with a session', async () => {
    const { cookie: c, nonce } = await fetchNonce();
    expect((await request(s, '/api/items', { method: 'POST', headers: { cookie: c } })).status).toBe(403);
    expect(
      (await request(s, '/api/items', { method: 'POST', headers: { cookie: c, 'x-csrf-token': 'WRONG' } })).status,
    ).toBe(403);
    expect(
      (await request(s, '/api/items', { method: 'POST', headers: { cookie: c, 'x-csrf-token': 'Fetch' } })).status,
    ).toBe(403);
    expect(
      (await request(s, '/api/items', { method: 'POST', headers: { cookie: c, 'x-csrf-token': nonce.toLowerCase() } }))
        .status,
    ).toBe(403);
  });

  it("accepts the session's nonce in the header", async () => {
    const { cookie: c, nonce } = await fetchNonce();
    const r = await request(s, '/api/items', { method: 'POST', headers: { cookie: c, 'x-csrf-token': nonce } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).reached).toBe(true);
  });

  it('refuses a valid nonce without the session it belongs to, or from another session', async () => {
    const a = await fetchNonce();
    const b = await fetchNonce();
    expect((await request(s, '/api/items', { method: 'POST', headers: { 'x-csrf-token': a.nonce } })).status).toBe(403);
    expect(
      (await request(s, '/api/items', { method: 'POST', headers: { cookie: b.cookie, 'x-csrf-token': a.nonce } }))
        .status,
    ).toBe(403);
  });

  it('accepts the nonce as the X-CSRF-Token parameter only on pathsAcceptingParams, from the query or a form body', async () => {
    const { cookie: c, nonce } = await fetchNonce();
    expect(
      (await request(s, `/api/accepted1?X-CSRF-Token=${nonce}`, { method: 'POST', headers: { cookie: c } })).status,
    ).toBe(200);
    expect(
      (
        await request(s, '/api/accepted2', {
          method: 'POST',
          headers: { cookie: c, 'content-type': FORM },
          body: `X-CSRF-Token=${nonce}`,
        })
      ).status,
    ).toBe(200);
    expect(
      (await request(s, `/api/accepted1blah?X-CSRF-Token=${nonce}`, { method: 'POST', headers: { cookie: c } })).status,
    ).toBe(403);
    expect(
      (await request(s, `/api/items?X-CSRF-Token=${nonce}`, { method: 'POST', headers: { cookie: c } })).status,
    ).toBe(403);
  });

  it('prefers the header over the parameter: a wrong header is not rescued by a right parameter', async () => {
    const { cookie: c, nonce } = await fetchNonce();
    expect(
      (
        await request(s, `/api/accepted1?X-CSRF-Token=${nonce}`, {
          method: 'POST',
          headers: { cookie: c, 'x-csrf-token': 'WRONG' },
        })
      ).status,
    ).toBe(403);
    // An empty header counts as absent.
    expect(
      (
        await request(s, `/api/accepted1?X-CSRF-Token=${nonce}`, {
          method: 'POST',
          headers: { cookie: c, 'x-csrf-token': '' },
        })
      ).status,
    ).toBe(200);
  });

  it('accepts repeated identical nonce parameters and refuses disagreeing ones', async () => {
    const { cookie: c, nonce } = await fetchNonce();
    expect(
      (
        await request(s, `/api/accepted1?X-CSRF-Token=${nonce}&X-CSRF-Token=${nonce}`, {
          method: 'POST',
          headers: { cookie: c },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await request(s, `/api/accepted1?X-CSRF-Token=${nonce}&X-CSRF-Token=OTHER`, {
          method: 'POST',
          headers: { cookie: c },
        })
      ).status,
    ).toBe(403);
  });

  it('refuses a parameter nonce when the session has none', async () => {
    const plain = await request(s, '/api/accepted1', {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: 'X-CSRF-Token=ABC',
    });
    expect(plain.status).toBe(403);
  });

  it('never hands out a nonce for a Fetch sent as a parameter', async () => {
    const r = await request(s, '/api/accepted1?X-CSRF-Token=Fetch');
    expect(r.status).toBe(200);
    expect(r.headers['x-csrf-token']).toBeUndefined();
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('refuses once the session is gone (expired or id changed by the server)', async () => {
    const { nonce } = await fetchNonce();
    expect(
      (
        await request(s, '/api/items', {
          method: 'POST',
          headers: { cookie: 'JSESSIONID=0123456789ABCDEF0123456789ABCDEF', 'x-csrf-token': nonce },
        })
      ).status,
    ).toBe(403);
  });
});

describe('RestCsrfPreventionFilter options', () => {
  it('answers with denyStatus', async () => {
    const s = await serve({ filters: [declare(spec, create, { denyStatus: '400' })] }, report);
    try {
      const r = await request(s, '/x', { method: 'POST' });
      expect(r.status).toBe(400);
      expect(r.headers['x-csrf-token']).toBe('Required');
    } finally {
      await s.close();
    }
  });

  it('ignores parameters when no path accepts them', async () => {
    const s = await serve({ filters: [declare(spec, create, {})] }, report);
    try {
      const f = await request(s, '/x', { headers: { 'x-csrf-token': 'Fetch' } });
      const nonce = f.headers['x-csrf-token'] as string;
      expect(
        (await request(s, `/x?X-CSRF-Token=${nonce}`, { method: 'POST', headers: { cookie: cookie(f) } })).status,
      ).toBe(403);
    } finally {
      await s.close();
    }
  });
});
