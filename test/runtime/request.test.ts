import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeOf, type RuntimeFilter } from '../../src/runtime/index.js';
import { jsonHandler, request, serve, type Served } from './serve.js';

function view(req: IncomingMessage) {
  const r = exchangeOf(req)!.request;
  return {
    method: r.method,
    requestURI: r.requestURI,
    queryString: r.queryString,
    contextPath: r.contextPath,
    servletPath: r.servletPath,
    pathInfo: r.pathInfo,
    protocol: r.protocol,
    remoteAddr: r.remoteAddr,
    remoteHost: r.remoteHost,
    remotePort: r.remotePort,
    scheme: r.scheme,
    secure: r.secure,
    serverName: r.serverName,
    serverPort: r.serverPort,
    localAddr: r.localAddr,
    localName: r.localName,
    localPort: r.localPort,
    dispatcherType: r.dispatcherType,
    dispatcherAttr: r.getAttribute('org.apache.catalina.core.DISPATCHER_TYPE'),
    xff: r.getHeader('x-forwarded-for'),
    xffLines: r.getHeaders('X-Forwarded-For'),
    nodeXff: req.headers['x-forwarded-for'] ?? null,
    attr: r.getAttribute('seen'),
    requestURL: r.requestURL,
    cookies: r.getCookies(),
  };
}

describe('the request view over IPv4 loopback', () => {
  let s: Served;
  const rewrite: RuntimeFilter = {
    name: 'Rewrite',
    doFilter(ex, next) {
      const r = ex.request;
      if (r.getHeader('x-rewrite') !== null) {
        r.setHeader('x-forwarded-for', null);
        r.remoteAddr = '203.0.113.9';
        r.scheme = 'https';
        r.secure = true;
        r.serverPort = 443;
        r.localName = 'proxy.example';
      }
      r.setAttribute('seen', r.remoteAddr);
      return next();
    },
  };
  beforeAll(async () => {
    s = await serve({ contextPath: '/app', filters: [rewrite] }, jsonHandler(view));
  });
  afterAll(() => s.close());

  it('reports the connection as Tomcat does: address, port, scheme, host and protocol', async () => {
    const r = await request(s, '/app/a%20b/c.txt?x=1&y', {
      headers: { host: 'example.test:8080', cookie: 'a=1; b="two"; junk' },
    });
    const v = JSON.parse(r.body);
    expect(v).toMatchObject({
      method: 'GET',
      requestURI: '/app/a%20b/c.txt',
      queryString: 'x=1&y',
      contextPath: '/app',
      servletPath: '/a b/c.txt',
      pathInfo: null,
      protocol: 'HTTP/1.1',
      remoteAddr: '127.0.0.1',
      remoteHost: '127.0.0.1',
      scheme: 'http',
      secure: false,
      serverName: 'example.test',
      serverPort: 8080,
      localAddr: '127.0.0.1',
      localName: '127.0.0.1',
      localPort: s.port,
      dispatcherType: 'REQUEST',
      dispatcherAttr: 'REQUEST',
      attr: '127.0.0.1',
      requestURL: 'http://example.test:8080/app/a%20b/c.txt',
      cookies: [
        { name: 'a', value: '1' },
        { name: 'b', value: 'two' },
      ],
    });
    expect(v.remotePort).toBeGreaterThan(0);
  });

  it('defaults the server port to 80 when the Host header has none, and keeps IPv6 brackets in the name', async () => {
    expect(JSON.parse((await request(s, '/app/', { headers: { host: 'example.test' } })).body)).toMatchObject({
      serverName: 'example.test',
      serverPort: 80,
      requestURL: 'http://example.test/app/',
    });
    expect(JSON.parse((await request(s, '/app/', { headers: { host: '[::1]:9000' } })).body)).toMatchObject({
      serverName: '[::1]',
      serverPort: 9000,
    });
  });

  it('takes the Host port only when it is all digits after the last colon outside brackets', async () => {
    const at = async (host: string) =>
      JSON.parse((await request(s, '/app/', { headers: { host } })).body) as { serverName: string; serverPort: number };
    expect(await at('example.test:')).toMatchObject({ serverName: 'example.test', serverPort: 80 });
    expect(await at('example.test:80x')).toMatchObject({ serverName: 'example.test', serverPort: 80 });
    expect(await at('example.test:08080')).toMatchObject({ serverName: 'example.test', serverPort: 8080 });
    expect(await at('[::1]')).toMatchObject({ serverName: '[::1]', serverPort: 80 });
  });

  it('lists every line of a repeated header, whatever its case, in the order received', async () => {
    const v = JSON.parse(
      (await request(s, '/app/', { headers: { 'X-Forwarded-For': ['198.51.100.1', '198.51.100.2, 198.51.100.3'] } }))
        .body,
    );
    expect(v.xffLines).toEqual(['198.51.100.1', '198.51.100.2, 198.51.100.3']);
    expect(v.xff).toBe('198.51.100.1, 198.51.100.2, 198.51.100.3');
  });

  it('has no query string when the target has no "?"', async () => {
    expect(JSON.parse((await request(s, '/app/x')).body).queryString).toBeNull();
    expect(JSON.parse((await request(s, '/app/x?')).body).queryString).toBe('');
  });

  it('gives every header line and lets a filter remove a header for everything downstream, including req.headers', async () => {
    const plain = JSON.parse(
      (await request(s, '/app/x', { headers: { 'x-forwarded-for': ['10.0.0.1', '10.0.0.2'] } })).body,
    );
    expect(plain.xffLines).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(plain.nodeXff).toBe('10.0.0.1, 10.0.0.2');
    const rewritten = JSON.parse(
      (await request(s, '/app/x', { headers: { 'x-forwarded-for': '10.0.0.1', 'x-rewrite': '1' } })).body,
    );
    expect(rewritten).toMatchObject({
      xff: null,
      xffLines: [],
      nodeXff: null,
      remoteAddr: '203.0.113.9',
      scheme: 'https',
      secure: true,
      serverPort: 443,
      localName: 'proxy.example',
    });
  });

  it('decodes and normalises the path like Tomcat: path parameters dropped, dot segments resolved', async () => {
    const v = JSON.parse((await request(s, '/app/a;jsessionid=X/./b//c/../d;v=1')).body);
    expect(v.servletPath).toBe('/a/b/d');
    expect(v.requestURI).toBe('/app/a;jsessionid=X/./b//c/../d;v=1');
  });

  it('answers 400 before any filter for paths Tomcat rejects: encoded slash, backslash, escaping the root, bad escapes', async () => {
    for (const p of ['/app/a%2Fb', '/app/a%5Cb', '/app/../../etc', '/app/%zz', '/app/%4']) {
      expect((await request(s, p)).status, p).toBe(400);
    }
  });

  it('redirects the bare context path to the path with a slash, keeping the query', async () => {
    const r = await request(s, '/app?x=1');
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('/app/?x=1');
  });

  it('leaves requests outside the context alone (prefix must end at a segment boundary)', async () => {
    expect((await request(s, '/application/x')).status).toBe(404);
    expect((await request(s, '/other')).status).toBe(404);
  });
});

describe('the request view over IPv6 loopback', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({}, jsonHandler(view), '::1');
  });
  afterAll(() => s.close());

  it('reports ::1 in the uncompressed Java form 0:0:0:0:0:0:0:1 for remote and local address', async () => {
    const v = JSON.parse((await request(s, '/x', { headers: { host: '[::1]' } })).body);
    expect(v.remoteAddr).toBe('0:0:0:0:0:0:0:1');
    expect(v.remoteHost).toBe('0:0:0:0:0:0:0:1');
    expect(v.localAddr).toBe('0:0:0:0:0:0:0:1');
    expect(v.contextPath).toBe('');
    expect(v.servletPath).toBe('/x');
  });
});

describe('remote host lookups', () => {
  it('returns the address without DNS when lookups are disabled (the default)', async () => {
    const s = await serve({}, (req, res) => {
      void exchangeOf(req)!
        .request.lookupRemoteHost()
        .then((h) => res.end(h));
    });
    try {
      expect((await request(s, '/')).body).toBe('127.0.0.1');
    } finally {
      await s.close();
    }
  });
});

describe('request attributes', () => {
  type Op = ['set', string, number | null] | ['remove', string];
  let ops: Op[] = [];
  let outcome: { names: string[]; values: unknown[]; want: string[]; wantValues: unknown[] } | null = null;
  let s: Served;
  beforeAll(async () => {
    const recorder: RuntimeFilter = {
      name: 'Attributes',
      doFilter(ex, next) {
        // The reference: a Map has exactly the servlet attribute semantics (insertion order; a replaced value keeps its place).
        const want = new Map<string, unknown>();
        const r = ex.request;
        for (const op of ops) {
          if (op[0] === 'remove') {
            r.removeAttribute(op[1]);
            want.delete(op[1]);
          } else {
            r.setAttribute(op[1], op[2]);
            if (op[2] === null) want.delete(op[1]);
            else want.set(op[1], op[2]);
          }
        }
        const names = r.getAttributeNames();
        outcome = {
          names,
          values: names.map((n) => r.getAttribute(n)),
          want: [...want.keys()],
          wantValues: [...want.values()],
        };
        return next();
      },
    };
    s = await serve({ contextPath: '/app', filters: [recorder] });
  });
  afterAll(() => s.close());

  it('keeps insertion order through replacements, removals and growth past the small-store size', async () => {
    const name = fc.oneof(
      fc.constantFrom('a', 'b', 'cors.request.origin', '1', '0'),
      fc.integer({ min: 0, max: 60 }).map((i) => `attr${i}`),
    );
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.tuple(fc.constant('set' as const), name, fc.option(fc.integer(), { nil: null, freq: 6 })),
      fc.tuple(fc.constant('remove' as const), name),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 120 }), async (seq) => {
        ops = seq;
        outcome = null;
        expect((await request(s, '/app/x')).status).toBe(200);
        expect(outcome!.names).toEqual(outcome!.want);
        expect(outcome!.values).toEqual(outcome!.wantValues);
      }),
      { numRuns: 150 },
    );
  });
});
