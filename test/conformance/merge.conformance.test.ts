/**
 * The merge of conf/web.xml and the application descriptors, url-pattern
 * versus servlet-name mappings, and dispatchers, against real Tomcat 10.1
 * (fixtures/merge: Debian's conf/web.xml plus three global filters —
 * HttpHeaderSecurityFilter on /*, ExpiresFilter on *.css, AddDefaultCharsetFilter
 * on the default servlet — and five applications).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, sameStep, startPair, type Adjust, type BodyMode, type Pair, type Request } from './harness.js';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair(join(FIXTURES, 'merge'));
});
afterAll(async () => {
  await pair?.stop();
});
const same = (area: string, description: string, req: Request, body?: BodyMode, adjust?: Adjust) =>
  sameStep(pair, area, description, req, body, adjust);

describe('global and application descriptors', () => {
  const paths = [
    '/index.html',
    '/style.css',
    '/page.txt',
    '/data.json',
    '/probe.jsp',
    '/sub/inner.txt',
    '/missing.css',
    '/',
  ];
  for (const app of ['plain', 'override']) {
    for (const p of paths) {
      it(`${app}${p}`, async () => {
        await same('merge', `${app}${p}`, { path: `/${app}${p}` });
      });
    }
  }
  it('ROOT has no application descriptor', async () => {
    await same('merge', 'ROOT: no webapps/ROOT, default-host 404', { path: '/style.css' });
  });
});

describe('url-pattern and servlet-name mappings', () => {
  const cases: [string, Record<string, string>][] = [
    ['/exact.txt', {}],
    ['/exact.txt/', {}],
    ['/page.txt', {}],
    ['/sub/inner.txt', {}],
    ['/sub/', {}],
    ['/sub', {}],
    ['/data.json', {}],
    ['/data.json?x=1', {}],
    ['/probe.jsp', { origin: 'https://a.example' }],
    ['/probe.jsp', { origin: 'https://evil.example' }],
    ['/index.html', { origin: 'https://evil.example' }],
    ['/style.css', { 'x-forwarded-proto': 'https' }],
    ['/sub/missing.json', {}],
    ['/SUB/inner.txt', {}],
  ];
  for (const [p, h] of cases) {
    it(`mappings${p} ${JSON.stringify(h)}`, async () => {
      await same('mappings', `mappings${p} ${JSON.stringify(h)}`, { path: `/mappings${p}`, headers: h });
    });
  }
  it('SetCharacterEncodingFilter mapped to the jsp servlet by name', async () => {
    await same('mappings', 'mappings/probe.jsp POST (servlet-name jsp: encoding forced)', {
      method: 'POST',
      path: '/mappings/probe.jsp',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      body: 'n=%C3%A9',
    });
  });
  it('a context with a lint error Tomcat starts with is started by tollgate too (the plan decides, not lint severities)', async () => {
    // RemoteIpFilter after the global header filter: remote-ip-after-address-filter is a lint error, and Tomcat starts the context.
    await same(
      'merge',
      'refused/index.html: RemoteIpFilter after the global header filter',
      { path: '/refused/index.html' },
      'exact',
      (views) => {
        expect(views.tomcat.status).toBe(200);
        expect(views.tollgate.status).toBe(200);
      },
    );
  });
  for (const p of ['/index.html', '/probe.jsp', '/page.txt', '/nothing/x.txt', '/']) {
    it(`wildcard${p}`, async () => {
      await same('mappings', `wildcard${p}`, { path: `/wildcard${p}` });
    });
  }
});

describe('dispatchers', () => {
  for (const p of ['/index.html', '/style.css', '/', '/sub/', '/probe.jsp']) {
    it(`dispatch${p}`, async () => {
      await same('dispatchers', `dispatch${p}`, { path: `/dispatch${p}` });
    });
  }
  it('an error page for 404 (ERROR dispatch)', async () => {
    // Tomcat serves /errors/404.html with status 404 through the ERROR-only filter (X-Frame-Options: DENY over the
    // global REQUEST one's SAMEORIGIN) and not through the REQUEST-only ExpiresFilter; so does tollgate
    // (test/conformance/error-page.conformance.test.ts covers the dispatch in depth).
    for (const p of ['/missing.html', '/sub/missing.css']) {
      const c = await same('dispatchers', `dispatch${p}: error page`, { path: `/dispatch${p}` }, 'exact');
      expect(c.views.tomcat.status).toBe(404);
      expect(c.views.tomcat.body).toBe('<p>custom not found</p>\n');
      expect(c.views.tomcat.headers['x-frame-options']).toBe('DENY');
      expect(c.views.tomcat.headers['expires']).toBeNull();
    }
  });
});
