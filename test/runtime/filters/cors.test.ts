import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/cors.js';
import { create } from '../../../src/runtime/filters/cors.js';
import type { RuntimeFilter } from '../../../src/runtime/index.js';
import { request, serve, type Served } from '../serve.js';
import { asIf, declare, reportWith } from './helpers.js';

const ALLOWED = 'https://www.apache.org';

/** Downstream reports the cors.* attributes it sees. */
const report = reportWith((ex) => ({
  isCors: ex.request.getAttribute('cors.isCorsRequest') ?? null,
  origin: ex.request.getAttribute('cors.request.origin') ?? null,
  type: ex.request.getAttribute('cors.request.type') ?? null,
  headers: ex.request.getAttribute('cors.request.headers') ?? null,
}));

async function corsServer(params: Record<string, unknown>): Promise<Served> {
  return serve({ filters: [asIf, declare(spec, create, params)] }, report);
}

describe('CorsFilter with specific origins', () => {
  let s: Served;
  beforeAll(async () => {
    s = await corsServer({
      'cors.allowed.origins': `${ALLOWED}, http://tomcat.apache.org`,
      'cors.exposed.headers': 'X-Total, X-Page',
    });
  });
  afterAll(() => s.close());

  it('lets a simple GET from an allowed origin through with Access-Control-Allow-Origin echoing it, Vary: Origin and the exposed headers', async () => {
    const r = await request(s, '/x', { headers: { origin: ALLOWED } });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['vary']).toBe('Origin');
    expect(r.headers['access-control-expose-headers']).toBe('X-Total,X-Page');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    expect(r.headers['access-control-allow-methods']).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({ isCors: true, origin: ALLOWED, type: 'simple', headers: null });
  });

  it('classifies HEAD and POST with a form, multipart or text/plain body (parameters allowed) as simple', async () => {
    expect(
      (await request(s, '/x', { method: 'HEAD', headers: { origin: ALLOWED } })).headers['access-control-allow-origin'],
    ).toBe(ALLOWED);
    for (const ct of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain;charset=UTF-8',
      'TEXT/PLAIN',
    ]) {
      const r = await request(s, '/x', { method: 'POST', headers: { origin: ALLOWED, 'content-type': ct }, body: 'a' });
      expect(JSON.parse(r.body).type, ct).toBe('simple');
    }
  });

  it('classifies a POST without Content-Type, or with one Tomcat cannot parse, as simple', async () => {
    expect(JSON.parse((await request(s, '/x', { method: 'POST', headers: { origin: ALLOWED } })).body).type).toBe(
      'simple',
    );
    expect(
      JSON.parse(
        (
          await request(s, '/x', {
            method: 'POST',
            headers: { origin: ALLOWED, 'content-type': 'not a type' },
            body: 'a',
          })
        ).body,
      ).type,
    ).toBe('simple');
  });

  it('classifies a POST with a JSON body and an OPTIONS without Access-Control-Request-Method as actual requests', async () => {
    const post = await request(s, '/x', {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(JSON.parse(post.body).type).toBe('actual');
    const options = await request(s, '/x', { method: 'OPTIONS', headers: { origin: ALLOWED } });
    expect(JSON.parse(options.body).type).toBe('actual');
    // OPTIONS responses carry the pre-flight headers too, so one cached response serves both.
    expect(options.headers['access-control-allow-methods']).toBe('GET,POST,HEAD,OPTIONS');
    expect(options.headers['vary']).toBe('origin,access-control-request-method,Access-Control-Request-Headers');
  });

  it('answers a pre-flight itself: 200, no body, allowed methods and headers, max-age 1800 and the three Vary names as Tomcat writes them', async () => {
    const r = await request(s, '/x', {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'Content-Type, X-Requested-With',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-allow-methods']).toBe('GET,POST,HEAD,OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe(
      'origin,accept,x-requested-with,content-type,access-control-request-method,access-control-request-headers',
    );
    expect(r.headers['access-control-max-age']).toBe('1800');
    expect(r.headers['vary']).toBe('origin,access-control-request-method,Access-Control-Request-Headers');
  });

  it('refuses a pre-flight for a method that is not allowed, a header that is not allowed, or an empty header name in the list', async () => {
    const base = { origin: ALLOWED, 'access-control-request-method': 'PUT' };
    expect((await request(s, '/x', { method: 'OPTIONS', headers: base })).status).toBe(403);
    const badHeader = {
      origin: ALLOWED,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-custom',
    };
    expect((await request(s, '/x', { method: 'OPTIONS', headers: badHeader })).status).toBe(403);
    const emptyName = {
      origin: ALLOWED,
      'access-control-request-method': 'POST',
      'access-control-request-headers': ',content-type',
    };
    expect((await request(s, '/x', { method: 'OPTIONS', headers: emptyName })).status).toBe(403);
    const trailingComma = {
      origin: ALLOWED,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,',
    };
    expect((await request(s, '/x', { method: 'OPTIONS', headers: trailingComma })).status).toBe(200);
  });

  it('treats an empty Access-Control-Request-Method as an invalid CORS request (403)', async () => {
    const r = await request(s, '/x', {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': '' },
    });
    expect(r.status).toBe(403);
  });

  it('refuses an origin that is not in the list with an empty text/plain 403 and no CORS headers, without running downstream', async () => {
    for (const origin of [
      'https://evil.example',
      'http://commons.apache.org',
      'https://tomcat.apache.org',
      'http://tomcat.apache.org:8080',
      'null',
    ]) {
      const r = await request(s, '/x', { headers: { origin } });
      expect(r.status, origin).toBe(403);
      expect(r.headers['content-type']).toBe('text/plain');
      expect(r.headers['content-length']).toBe('0');
      expect(r.body).toBe('');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expect(r.headers['vary']).toBeUndefined();
    }
  });

  it('refuses a pre-flight from an origin that is not allowed', async () => {
    const r = await request(s, '/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(r.status).toBe(403);
  });

  it('refuses a method that is not allowed from an allowed origin', async () => {
    expect((await request(s, '/x', { method: 'PUT', headers: { origin: ALLOWED }, body: 'x' })).status).toBe(403);
    expect((await request(s, '/x', { method: 'DELETE', headers: { origin: ALLOWED } })).status).toBe(403);
  });

  it('lets a request without Origin through as not CORS, with Vary: Origin and cors.isCorsRequest false', async () => {
    const r = await request(s, '/x');
    expect(r.status).toBe(200);
    expect(r.headers['vary']).toBe('Origin');
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({ isCors: false, origin: null, type: null, headers: null });
  });

  it("treats an Origin equal to the request's own scheme://host:port as not CORS", async () => {
    const r = await request(s, '/x', { headers: { origin: `http://127.0.0.1:${s.port}` } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).isCors).toBe(false);
  });

  it('decides same-origin as RequestUtil.isSameOrigin does (the default port may be left out, scheme and host must match)', async () => {
    const cases: [origin: string, scheme: string, host: string, port: number, sameOrigin: boolean][] = [
      ['http://localhost:8080', 'http', 'localhost', 8080, true],
      ['http://localhost:8080', 'https', 'localhost', 8080, false],
      ['http://localhost:8080', 'http', 'localhost', 8081, false],
      ['http://localhost:8080', 'http', 'foo.dev.local', 8080, false],
      ['https://localhost:8443', 'https', 'localhost', 8443, true],
      ['https://localhost', 'https', 'localhost', 443, true],
      ['http://localhost', 'http', 'localhost', 80, true],
      ['http://localhost:80', 'http', 'localhost', 80, true],
      ['http://localhost', 'http', 'localhost', 8080, false],
      ['HTTP://localhost', 'http', 'localhost', 80, false],
    ];
    for (const [origin, scheme, host, port, same] of cases) {
      const r = await request(s, '/x', {
        method: 'POST',
        headers: {
          origin,
          'content-type': 'text/plain',
          'x-test-scheme': scheme,
          'x-test-host': host,
          'x-test-port': String(port),
        },
        body: 'b',
      });
      // Not same-origin means CORS from an origin that is not allowed: 403.
      expect(r.status, `${origin} vs ${scheme}://${host}:${port}`).toBe(same ? 200 : 403);
    }
  });

  it('uses the first of several Origin header lines, as getHeader does', async () => {
    const r = await request(s, '/x', { headers: { origin: [ALLOWED, 'https://evil.example'] } });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});

describe('CorsFilter refuses malformed Origin headers', () => {
  let s: Served;
  beforeAll(async () => {
    s = await corsServer({ 'cors.allowed.origins': '*' });
  });
  afterAll(() => s.close());

  it('refuses origins that are not URIs with a scheme, even when any origin is allowed', async () => {
    for (const origin of [
      'www.example.com',
      'http://exa mple.com',
      'http://[::1',
      'http://',
      'http://a.example/%zz',
      ':x',
      'http://a"b.example',
      'http://a.example#x#y',
      '1http://a.example',
    ]) {
      const r = await request(s, '/x', { headers: { origin } });
      expect(r.status, origin).toBe(403);
      expect(r.body).toBe('');
    }
  });

  it('refuses %-encoded CR/LF (response splitting) in Origin', async () => {
    for (const origin of [
      'http://www.w3.org%0d%0a',
      'http://www.w3.org%0D%0A',
      'http://www.w3.org%0%0d%0ad%0%0d%0aa',
    ]) {
      expect((await request(s, '/x', { headers: { origin } })).status, origin).toBe(403);
    }
  });

  it('refuses a raw CR/LF in Origin (set by a filter in front, since Node refuses it on the wire) and never echoes it', async () => {
    const r = await request(s, '/x', {
      headers: { 'x-test-set-header': `origin: ${encodeURIComponent('http://www.w3.org\r\nSet-Cookie: x=1')}` },
    });
    expect(r.status).toBe(403);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('treats an empty Origin as invalid', async () => {
    expect((await request(s, '/x', { headers: { origin: '' } })).status).toBe(403);
  });

  it('accepts the "null" origin, file:// origins, IPv6 literals and opaque URIs as valid', async () => {
    for (const origin of [
      'null',
      'file://',
      'http://[::1]:8080',
      'https://user@host.example:443',
      'urn:x',
      'http://host_name.example',
    ]) {
      const r = await request(s, '/x', { headers: { origin } });
      expect(r.status, origin).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['vary']).toBeUndefined();
    }
  });

  it('sends no Vary for requests without Origin when every origin is allowed', async () => {
    expect((await request(s, '/x')).headers['vary']).toBeUndefined();
  });
});

describe('CorsFilter options', () => {
  it('adds Access-Control-Allow-Credentials: true when credentials are supported, on actual requests and pre-flights', async () => {
    const s = await corsServer({ 'cors.allowed.origins': ALLOWED, 'cors.support.credentials': 'true' });
    try {
      expect(
        (await request(s, '/x', { headers: { origin: ALLOWED } })).headers['access-control-allow-credentials'],
      ).toBe('true');
      const pre = await request(s, '/x', {
        method: 'OPTIONS',
        headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
      });
      expect(pre.headers['access-control-allow-credentials']).toBe('true');
    } finally {
      await s.close();
    }
  });

  it('leaves Access-Control-Max-Age out when cors.preflight.maxage is negative or zero', async () => {
    for (const maxage of ['-1', '0', '']) {
      const s = await corsServer({ 'cors.allowed.origins': ALLOWED, 'cors.preflight.maxage': maxage });
      try {
        const r = await request(s, '/x', {
          method: 'OPTIONS',
          headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
        });
        expect(r.status).toBe(200);
        expect(r.headers['access-control-max-age'], maxage).toBeUndefined();
      } finally {
        await s.close();
      }
    }
  });

  it('puts the requested header list into cors.request.headers for a pre-flight that continues (decorate on)', async () => {
    // A pre-flight never reaches downstream, so a filter behind CORS cannot see it; read the attribute from a commit hook instead.
    let seen: unknown = 'unset';
    const spy: RuntimeFilter = {
      name: 'Spy',
      doFilter(ex, next) {
        ex.response.onBeforeCommit(
          () =>
            (seen = [ex.request.getAttribute('cors.request.type'), ex.request.getAttribute('cors.request.headers')]),
        );
        return next();
      },
    };
    const s = await serve({ filters: [spy, declare(spec, create, { 'cors.allowed.origins': ALLOWED })] }, report);
    try {
      await request(s, '/x', {
        method: 'OPTIONS',
        headers: {
          origin: ALLOWED,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'Accept',
        },
      });
      expect(seen).toEqual(['pre_flight', 'Accept']);
      await request(s, '/x', {
        method: 'OPTIONS',
        headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
      });
      expect(seen).toEqual(['pre_flight', '']);
    } finally {
      await s.close();
    }
  });

  it('sets no cors.* attribute when cors.request.decorate is false', async () => {
    const s = await corsServer({ 'cors.allowed.origins': '*', 'cors.request.decorate': 'false' });
    try {
      const r = await request(s, '/x', { headers: { origin: ALLOWED } });
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(r.body)).toEqual({ isCors: null, origin: null, type: null, headers: null });
    } finally {
      await s.close();
    }
  });

  it('allows no cross-origin request with the default (empty) origin list, while same-origin requests pass', async () => {
    const s = await corsServer({});
    try {
      expect((await request(s, '/x', { headers: { origin: ALLOWED } })).status).toBe(403);
      expect((await request(s, '/x')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('compares methods case-sensitively, as configured', async () => {
    const s = await corsServer({ 'cors.allowed.origins': ALLOWED, 'cors.allowed.methods': 'get,POST' });
    try {
      expect((await request(s, '/x', { headers: { origin: ALLOWED } })).status).toBe(403);
      expect(
        (
          await request(s, '/x', {
            method: 'POST',
            headers: { origin: ALLOWED, 'content-type': 'text/plain' },
            body: 'x',
          })
        ).status,
      ).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('merges Origin into a Vary header set in front as Tomcat does: lower-cased tokens, one line, "*" left alone', async () => {
    const front: RuntimeFilter = {
      name: 'VaryFirst',
      doFilter(ex, next) {
        for (const v of ex.request.getHeaders('x-vary')) ex.response.addHeader('vary', v);
        return next();
      },
    };
    const s = await serve({ filters: [front, declare(spec, create, { 'cors.allowed.origins': ALLOWED })] }, report);
    try {
      expect(
        (
          await request(s, '/x', {
            headers: { origin: ALLOWED, 'x-vary': ['Accept-Encoding', 'User-Agent, bad token'] },
          })
        ).headers['vary'],
      ).toBe('accept-encoding,user-agent,Origin');
      // Tomcat lower-cases the names already there but adds the new one as given, so the set keeps both spellings.
      expect((await request(s, '/x', { headers: { origin: ALLOWED, 'x-vary': 'origin' } })).headers['vary']).toBe(
        'origin,Origin',
      );
      expect((await request(s, '/x', { headers: { origin: ALLOWED, 'x-vary': '*' } })).headers['vary']).toBe('*');
      expect((await request(s, '/x', { headers: { origin: ALLOWED, 'x-vary': 'Accept, *' } })).headers['vary']).toBe(
        '*',
      );
    } finally {
      await s.close();
    }
  });
});
