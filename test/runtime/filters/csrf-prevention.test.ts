import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec, type CsrfPreventionConfig } from '../../../src/filters/csrf-prevention.js';
import { addNonce, create, removeQueryParameters } from '../../../src/runtime/filters/csrf-prevention.js';
import { MemorySessionStore, newSessionRecord } from '../../../src/runtime/index.js';
import type { Exchange, FilterDeclaration } from '../../../src/runtime/index.js';
import { request, serve, type RawResponse, type Served } from '../serve.js';
import { declare, reportWith } from './helpers.js';

const P = 'org.apache.catalina.filters.CSRF_NONCE';

/** Downstream: the nonce issued for this request and the encodings of ?u=... URLs. */
const report = reportWith((ex: Exchange) => {
  const urls = new URLSearchParams(ex.request.queryString ?? '').getAll('u');
  return {
    nonce: ex.request.getAttribute('org.apache.catalina.filters.CSRF_REQUEST_NONCE') ?? null,
    session: ex.request.getSession(false)?.id ?? null,
    url: urls.map((u) => ex.response.encodeURL(u)),
    redirect: urls.map((u) => ex.response.encodeRedirectURL(u)),
  };
});

function cookie(r: RawResponse): string {
  return r.headers['set-cookie']![0]!.split(';')[0]!;
}

async function csrfServer(
  params: Record<string, unknown>,
  contextPath = '/app',
  transform?: (d: FilterDeclaration<CsrfPreventionConfig>) => FilterDeclaration<CsrfPreventionConfig>,
): Promise<Served> {
  const d = declare(spec, create, { entryPoints: '/index', ...params });
  return serve({ contextPath, filters: [transform ? transform(d) : d] }, report);
}

describe('CsrfPreventionFilter: the nonce protocol', () => {
  let s: Served;
  beforeAll(async () => {
    s = await csrfServer({ nonceCacheSize: '2' });
  });
  afterAll(() => s.close());

  async function enter(): Promise<{ cookie: string; nonce: string }> {
    const r = await request(s, '/app/index');
    expect(r.status).toBe(200);
    return { cookie: cookie(r), nonce: JSON.parse(r.body).nonce };
  }

  it('lets a GET to an entry point in, creating the session and a 32-hex-digit nonce', async () => {
    const r = await request(s, '/app/index');
    expect(r.status).toBe(200);
    expect(r.headers['set-cookie']![0]).toMatch(/^JSESSIONID=[0-9A-F]{32}; Path=\/app; HttpOnly$/);
    expect(JSON.parse(r.body).nonce).toMatch(/^[0-9A-F]{32}$/);
  });

  it('refuses a request without a nonce with 403, with or without a session', async () => {
    const { cookie: c } = await enter();
    expect((await request(s, '/app/page')).status).toBe(403);
    expect((await request(s, '/app/page', { headers: { cookie: c } })).status).toBe(403);
  });

  it('accepts a nonce the session was given, issuing a new one each time', async () => {
    const { cookie: c, nonce } = await enter();
    const r = await request(s, `/app/page?${P}=${nonce}`, { headers: { cookie: c } });
    expect(r.status).toBe(200);
    const next = JSON.parse(r.body).nonce;
    expect(next).not.toBe(nonce);
    expect((await request(s, `/app/other?${P}=${next}`, { headers: { cookie: c } })).status).toBe(200);
  });

  it('refuses a nonce from another session, an unknown nonce and an empty one', async () => {
    const a = await enter();
    const b = await enter();
    expect((await request(s, `/app/page?${P}=${a.nonce}`, { headers: { cookie: b.cookie } })).status).toBe(403);
    expect(
      (await request(s, `/app/page?${P}=0123456789ABCDEF0123456789ABCDEF`, { headers: { cookie: a.cookie } })).status,
    ).toBe(403);
    expect((await request(s, `/app/page?${P}=`, { headers: { cookie: a.cookie } })).status).toBe(403);
    expect((await request(s, `/app/page?${P}=${a.nonce}`)).status).toBe(403);
  });

  it('keeps only the last nonceCacheSize nonces: older ones are refused', async () => {
    const { cookie: c, nonce: first } = await enter();
    const second = JSON.parse((await request(s, '/app/index', { headers: { cookie: c } })).body).nonce;
    await request(s, '/app/index', { headers: { cookie: c } });
    // Cache of 2: the first nonce is gone, the second is still there.
    expect((await request(s, `/app/page?${P}=${first}`, { headers: { cookie: c } })).status).toBe(403);
    expect((await request(s, `/app/page?${P}=${second}`, { headers: { cookie: c } })).status).toBe(200);
  });

  it('reads the nonce from a form body', async () => {
    const { cookie: c, nonce } = await enter();
    const r = await request(s, '/app/save', {
      method: 'POST',
      headers: { cookie: c, 'content-type': 'application/x-www-form-urlencoded' },
      body: `a=1&${P}=${nonce}`,
    });
    expect(r.status).toBe(200);
  });

  it('checks every method but GET at entry points and no-nonce URLs', async () => {
    const { cookie: c } = await enter();
    expect((await request(s, '/app/index', { method: 'POST', headers: { cookie: c } })).status).toBe(403);
    expect((await request(s, '/app/index', { method: 'HEAD', headers: { cookie: c } })).status).toBe(403);
    expect((await request(s, '/app/site.css', { method: 'POST', headers: { cookie: c } })).status).toBe(403);
  });

  it('skips the check for GETs to the default no-nonce URLs (static resources)', async () => {
    for (const p of ['/app/site.css', '/app/js/app.js', '/app/img/logo.png', '/app/favicon.ico', '/app/m.mjs']) {
      expect((await request(s, p)).status, p).toBe(200);
    }
    expect((await request(s, '/app/site.css.html')).status).toBe(403);
  });

  it('refuses with the HTML error page of sendError', async () => {
    const r = await request(s, '/app/page');
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('403');
  });
});

describe('CsrfPreventionFilter: encodeURL and encodeRedirectURL', () => {
  let s: Served;
  beforeAll(async () => {
    s = await csrfServer({});
  });
  afterAll(() => s.close());

  async function encode(urls: string[]): Promise<{ nonce: string; url: string[]; redirect: string[] }> {
    const q = urls.map((u) => `u=${encodeURIComponent(u)}`).join('&');
    const r = await request(s, `/app/index?${q}`);
    return JSON.parse(r.body);
  }

  it('adds the nonce as the last query parameter, before any fragment, to URLs in this application', async () => {
    const { nonce, url, redirect } = await encode([
      '/app/page',
      'a?x=1',
      'a#frag',
      '/app',
      '?q',
      '',
      'sub/../b',
      `http://127.0.0.1:${s.port}/app/x`,
      `//127.0.0.1:${s.port}/app/z`,
    ]);
    const n = `${P}=${nonce}`;
    const want = [
      `/app/page?${n}`,
      `a?x=1&${n}`,
      `a?${n}#frag`,
      `/app?${n}`,
      `?q&${n}`,
      `?${n}`,
      `sub/../b?${n}`,
      `http://127.0.0.1:${s.port}/app/x?${n}`,
      `//127.0.0.1:${s.port}/app/z?${n}`,
    ];
    expect(url).toEqual(want);
    expect(redirect).toEqual(want);
  });

  it('replaces a nonce already in the URL instead of adding a second one', async () => {
    const { nonce, url } = await encode([`a?${P}=old&y=2`, `/app/x?${P}=old`]);
    expect(url).toEqual([`a?y=2&${P}=${nonce}`, `/app/x?${P}=${nonce}`]);
  });

  it('leaves URLs outside the application, static resources and invalid URIs alone (observed on Tomcat 10.1)', async () => {
    const urls = [
      '/other/x',
      '/application',
      'http://other/app/x',
      `http://localhost:${s.port}/app/x`,
      `https://127.0.0.1:${s.port}/app/x`,
      `http://127.0.0.1:1/app/x`,
      'a.css',
      'javascript:alert(1)',
      'mailto:x@y',
      'a b',
      '/app/../x',
      '../x',
      'http://127.0.0.1:abc/app',
      '/app/%zz',
    ];
    const { url } = await encode(urls);
    expect(url).toEqual(urls);
  });
});

describe('CsrfPreventionFilter: options', () => {
  it('lets everything through but still issues nonces when enforce is false', async () => {
    const s = await csrfServer({ enforce: 'false' });
    try {
      const r = await request(s, '/app/page');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).nonce).toMatch(/^[0-9A-F]{32}$/);
    } finally {
      await s.close();
    }
  });

  it('answers with denyStatus and reads the nonce from nonceRequestParameterName', async () => {
    const s = await csrfServer({ denyStatus: '404', nonceRequestParameterName: 'csrf' });
    try {
      expect((await request(s, '/app/page')).status).toBe(404);
      const entry = await request(s, '/app/index?u=/app/x');
      const { nonce, url } = JSON.parse(entry.body);
      expect(url).toEqual([`/app/x?csrf=${nonce}`]);
      expect((await request(s, `/app/x?csrf=${nonce}`, { headers: { cookie: cookie(entry) } })).status).toBe(200);
      expect((await request(s, `/app/x?${P}=${nonce}`, { headers: { cookie: cookie(entry) } })).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('supports the three pattern forms: *.ext, /prefix*, and a /regex/ matched against the whole path', async () => {
    const s = await csrfServer({ noNonceURLPatterns: '*.txt, /static/*, /.*/public/.*/' }, '');
    try {
      expect((await request(s, '/notes.txt')).status).toBe(200);
      expect((await request(s, '/static/app.js')).status).toBe(200);
      expect((await request(s, '/x/public/y')).status).toBe(200);
      expect((await request(s, '/x/publicity')).status).toBe(403);
      // The defaults are replaced, not extended.
      expect((await request(s, '/site.css')).status).toBe(403);
      const { url } = JSON.parse((await request(s, '/index?u=/static/a&u=/b.txt&u=/x/public/1&u=/page')).body);
      expect(url.slice(0, 3)).toEqual(['/static/a', '/b.txt', '/x/public/1']);
      expect(url[3]).toMatch(new RegExp(`^/page\\?${P}=[0-9A-F]{32}$`));
    } finally {
      await s.close();
    }
  });

  it("matches mime: patterns against the type the context's MIME table gives (Tomcat's by default), never for an unmapped extension", async () => {
    const mimeType = (name: string) =>
      name.endsWith('.png') ? 'image/png' : name.endsWith('.txt') ? 'text/plain' : null;
    const withMime = (d: FilterDeclaration<CsrfPreventionConfig>): FilterDeclaration<CsrfPreventionConfig> => ({
      ...d,
      factory: (c, ctx) => create(c, { ...ctx, settings: { ...ctx.settings, mimeType } as typeof ctx.settings }),
    });
    const s = await csrfServer({ noNonceURLPatterns: 'mime:image/*' }, '', withMime);
    try {
      expect((await request(s, '/logo.png')).status).toBe(200);
      expect((await request(s, '/notes.txt')).status).toBe(403);
      const { url } = JSON.parse((await request(s, '/index?u=/a.png&u=/a.txt')).body);
      expect(url[0]).toBe('/a.png');
      expect(url[1]).toMatch(/^\/a\.txt\?/);
    } finally {
      await s.close();
    }
    const t = await csrfServer({ noNonceURLPatterns: 'mime:image/*' }, '');
    try {
      // Without a MIME option the runtime answers with Tomcat's stock conf/web.xml table: png is image/png.
      expect((await request(t, '/logo.png')).status).toBe(200);
      expect((await request(t, '/logo.unmapped')).status).toBe(403);
    } finally {
      await t.close();
    }
    const none = (d: FilterDeclaration<CsrfPreventionConfig>): FilterDeclaration<CsrfPreventionConfig> => ({
      ...d,
      factory: (c, ctx) => create(c, { ...ctx, settings: { ...ctx.settings, mimeType: () => null } }),
    });
    const u = await csrfServer({ noNonceURLPatterns: 'mime:image/*' }, '', none);
    try {
      expect((await request(u, '/logo.png')).status).toBe(403);
    } finally {
      await u.close();
    }
  });
});

describe('CsrfPreventionFilter helpers', () => {
  it('adds the nonce to URLs with and without query and anchor (TestCsrfPreventionFilter)', () => {
    expect(addNonce('/test', 'N', 'X')).toBe('/test?N=X');
    expect(addNonce('/test?a=b', 'N', 'X')).toBe('/test?a=b&N=X');
    expect(addNonce('/test#c', 'N', 'X')).toBe('/test?N=X#c');
    expect(addNonce('/test?a=b#c', 'N', 'X')).toBe('/test?a=b&N=X#c');
  });

  it("cleanses URLs of the nonce parameter exactly as Tomcat's reference cleanser does", () => {
    const cases: [string, string][] = [
      ['/foo/bar', '/foo/bar'],
      ['/foo/bar?', '/foo/bar'],
      ['/foo/bar?csrf', '/foo/bar'],
      ['/foo/bar?csrf&', '/foo/bar'],
      ['/foo/bar?csrf=', '/foo/bar'],
      ['/foo/bar?csrf=&', '/foo/bar'],
      ['/foo/bar?csrf=abc', '/foo/bar'],
      ['/foo/bar?csrf=abc&bar=foo', '/foo/bar?bar=foo'],
      ['/foo/bar?bar=foo&csrf=abc', '/foo/bar?bar=foo'],
      ['/foo/bar?bar=foo&csrf=abc&foo=bar', '/foo/bar?bar=foo&foo=bar'],
      ['/foo/bar?csrfx=foil&bar=foo&csrf=abc&foo=bar', '/foo/bar?csrfx=foil&bar=foo&foo=bar'],
      ['/foo/bar?csrfx=foil&bar=foo&csrf=abc&foo=bar&csrf=def', '/foo/bar?csrfx=foil&bar=foo&foo=bar'],
      ['/foo/bar?csrf=&csrf&csrf&csrf&csrf=abc&csrf=', '/foo/bar'],
      ['/foo/bar?xcsrf=&xcsrf&xcsrf&xcsrf&xcsrf=abc&xcsrf=', '/foo/bar?xcsrf=&xcsrf&xcsrf&xcsrf&xcsrf=abc&xcsrf='],
      [
        '/foo/bar?xcsrf=&xcsrf&xcsrf&csrf=foo&xcsrf&xcsrf=abc&csrf=bar&xcsrf=&',
        '/foo/bar?xcsrf=&xcsrf&xcsrf&xcsrf&xcsrf=abc&xcsrf=&',
      ],
      ['/foo/bar?bar=fo?&csrf=abc', '/foo/bar?bar=fo?'],
      ['/foo/bar?bar=fo?&csrf=abc&baz=boh', '/foo/bar?bar=fo?&baz=boh'],
    ];
    for (const [url, want] of cases) expect(removeQueryParameters(url, 'csrf'), url).toBe(want);
  });

  it('cleanses a URL with a million parameters in linear time', () => {
    const url = `/x?${'csrf=1&'.repeat(1_000_000)}keep=1`;
    expect(removeQueryParameters(url, 'csrf')).toBe('/x?keep=1');
  });

  it('keeps the most recent nonces in insertion order, a lookup not refreshing one (LruCache), with the session', () => {
    const store = new MemorySessionStore({ sweepIntervalMs: 0 });
    store.create(newSessionRecord('S', 0, 60));
    const cache = (): string[] => store.peek('S')!.nonces ?? [];
    for (let i = 1; i <= 7; i++) store.addNonce('S', `key${i}`, 5);
    expect([1, 2, 3, 4, 5, 6, 7].map((i) => cache().includes(`key${i}`))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    store.addNonce('S', 'key8', 5);
    expect(cache().includes('key3')).toBe(false);
    store.create(newSessionRecord('Z', 0, 60));
    store.addNonce('Z', 'x', 0);
    expect(store.peek('Z')!.nonces).toEqual([]);
    // A session that is gone keeps no nonces: the cache goes with it.
    store.remove('S');
    store.addNonce('S', 'key9', 5);
    expect(store.peek('S')).toBeUndefined();
  });
});
