/**
 * Malformed and hostile requests against the served example (a copy of
 * examples/base plus a /forms application behind FailedRequestFilter), sent
 * over raw sockets. Every expected status was observed on Apache Tomcat
 * 10.1.60 running the same base (the Connector as in examples/base,
 * connectionTimeout shortened where the test says so); where tollgate
 * deliberately answers differently the comment says what Tomcat did and why.
 * After every case the server must still answer a normal request.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseServerXml } from '../../src/parser/index.js';
import { connectorLimits, httpConnector, serverOptions } from '../../src/server/connector.js';
import { startContainer, type Container } from '../../src/server/container.js';
import { exampleBase, get, rawRequest } from './traffic-harness.js';

const xffList = (n: number, sep = ', '): string =>
  Array.from({ length: n }, (_, i) => `10.0.${(i >> 8) & 255}.${i & 255}`).join(sep);
const params = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');
/** n parameters in 2n - 1 bytes (a name may repeat; each occurrence counts). */
const shortParams = (n: number): string => Array.from({ length: n }, () => 'a').join('&');
const post = (path: string, body: string, headers = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n${headers}Connection: close\r\n\r\n${body}`;
/** `GET / ` with one X-Big header: the whole head is exactly `total` bytes. */
const headOf = (total: number): string => {
  const fixed = 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: \r\nConnection: close\r\n\r\n'.length;
  return get('/', `X-Big: ${'a'.repeat(total - fixed)}\r\n`);
};

let c: Container;
let base: string;

async function healthy(): Promise<void> {
  const r = await rawRequest(c.port, get('/'));
  expect(r.status).toBe(200);
}

describe('malformed requests to the served example', () => {
  beforeAll(async () => {
    base = exampleBase({ connector: 'connectionTimeout="1000"', forms: true });
    c = await startContainer({ base, port: 0 });
  });
  afterAll(async () => {
    await c.stop();
    rmSync(base, { recursive: true, force: true });
  });
  afterEach(healthy);

  // [case, request, tollgate status, what Tomcat 10.1.60 answered]
  const cases: [string, string | Buffer, number, string][] = [
    [
      'an Origin that is not a URI (CORS on /api)',
      get('/api/index.json', 'Origin: not a uri\r\n'),
      403,
      '403 text/plain',
    ],
    ['Origin: null', get('/api/index.json', 'Origin: null\r\n'), 403, '403'],
    ['an Origin with a path', get('/api/index.json', 'Origin: https://app.example.com/x\r\n'), 403, '403'],
    [
      'a duplicate Origin header (the first one counts)',
      get('/api/index.json', 'Origin: https://app.example.com\r\nOrigin: https://admin.example.com\r\n'),
      200,
      '200, Access-Control-Allow-Origin: https://app.example.com',
    ],
    [
      'a pre-flight with two Origins',
      `OPTIONS /api/index.json HTTP/1.1\r\nHost: localhost\r\nOrigin: https://app.example.com\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: PUT\r\nConnection: close\r\n\r\n`,
      200,
      '200',
    ],
    ['a bare CR inside a header value', get('/', 'X-A: a\rb\r\n'), 400, '400 "does not conform to RFC 7230"'],
    ['NUL inside a header value', get('/', 'X-A: a\u0000b\r\n'), 400, '400 "does not conform to RFC 7230"'],
    ['NUL inside Origin', get('/api/index.json', 'Origin: https://app.example.com\u0000.evil\r\n'), 400, '400'],
    ['a space before the colon of a header', get('/', 'X-A : b\r\n'), 400, '400'],
    // Tomcat reads a bare LF as a line end (200) and unfolds obs-fold (200); node:http refuses both, which
    // closes the door to header injection and request smuggling through line-end disagreements.
    ['a bare LF inside a header value (Tomcat: 200)', get('/', 'X-A: a\nb: c\r\n'), 400, '200'],
    ['an obs-fold continuation line (Tomcat: 200)', get('/', 'X-A: a\r\n b\r\n'), 400, '200'],
    [
      'X-Forwarded-For with 500 entries to /intranet',
      get('/intranet/', `X-Forwarded-For: ${xffList(500, ',')}\r\n`),
      403,
      '403 (RemoteIpFilter then RemoteCIDRFilter)',
    ],
    [
      'X-Forwarded-For of garbage addresses',
      get('/intranet/', 'X-Forwarded-For: not-an-ip, 999.1.1.1, ::zz, 127.0.0.1\r\n'),
      403,
      '403',
    ],
    ['X-Forwarded-For: garbage', get('/intranet/', 'X-Forwarded-For: garbage\r\n'), 403, '403'],
    ['an empty X-Forwarded-For', get('/intranet/', 'X-Forwarded-For: \r\n'), 200, '200'],
    [
      '1000 query parameters (FailedRequestFilter, Connector default maxParameterCount 10000)',
      get(`/forms/?${params(1000)}`),
      200,
      '200',
    ],
    ['a form body of 10001 parameters', post('/forms/', params(10001)), 400, '400'],
    [
      'a form body declared at 3 MB (over maxPostSize 2 MB)',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3000000\r\nConnection: close\r\n\r\na=1',
      413,
      '413',
    ],
    [
      'a chunked form body of 2.1 MB',
      `POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${(2_100_002).toString(16)}\r\na=${'x'.repeat(2_100_000)}\r\n0\r\n\r\n`,
      413,
      '413',
    ],
    ['a malformed %-escape in the query (FailedRequestFilter)', get('/forms/?a=%zz'), 400, '400'],
    ['a malformed %-escape in the path', get('/%zz'), 400, '400 "Invalid URI: [The hexadecimal encoding is invalid]"'],
    ['a truncated %-escape in the path', get('/static/%4'), 400, '400 "Invalid URI: [End of file (EOF)]"'],
    ['%00 in the path', get('/index.html%00'), 400, '400 "Invalid URI"'],
    ['%-escapes that are not UTF-8 in the path', get('/%C3%28'), 400, '400'],
    [
      'an encoded slash in the path',
      get('/static%2Findex.html'),
      400,
      '400 "The encoded slash character is not allowed"',
    ],
    [
      'a control character in the request-target',
      get('/a\u0001b'),
      400,
      '400 "Invalid character found in the request target"',
    ],
    ['HTTP/1.1 without Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 400, '400'],
    ['two Host headers', get('/', 'Host: partners.localhost\r\n'), 400, '400'],
    ['HTTP/9.9', 'GET / HTTP/9.9\r\nHost: localhost\r\nConnection: close\r\n\r\n', 505, '505'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n', 400, '400 "Invalid character found in method name"'],
    [
      'Content-Length: abc',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\nConnection: close\r\n\r\n',
      400,
      '400',
    ],
    // Tomcat lets chunked framing win (200); node:http refuses the pair, the classic request-smuggling vector.
    [
      'Content-Length together with Transfer-Encoding (Tomcat: 200)',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n',
      400,
      '200',
    ],
  ];
  it.each(cases)('%s: %i', async (_name, request, status) => {
    const r = await rawRequest(c.port, request);
    expect(r.status).toBe(status);
  });

  // Host header values and what Tomcat 10.1.60 answered (the connector validates Host before routing).
  const hosts: [string, number][] = [
    ['', 200],
    ['LOCALHOST', 200],
    ['localhost.', 200],
    ['localhost:', 200],
    ['localhost:99999', 200],
    ['localhost:0080', 200],
    ['1.2.3.4', 200],
    ['999.1.1.1', 200],
    ['1.2.3', 200],
    ['[::1]', 200],
    ['[::1]:80', 200],
    ['xn--bcher-kva.example', 200],
    ['a.b-c.d', 200],
    ['a'.repeat(300), 200],
    ['a b', 400],
    ['my_host', 400],
    ['localhost/evil', 400],
    ['[::1', 400],
    ['[::1]x', 400],
    ['[zz::1]', 400],
    ['localhost:99999x', 400],
    [':80', 400],
    ['a..b', 400],
    ['-a.com', 400],
    ['a-.com', 400],
    ['.localhost', 400],
    ['localhost:80:80', 400],
    ['localhost:+80', 400],
    ['a*b', 400],
    ['a%41', 400],
    ["a'b", 400],
    ['a\u00c3\u00a9', 400],
  ];
  it.each(hosts)('Host: %j is %i, as from Tomcat', async (host, status) => {
    const r = await rawRequest(
      c.port,
      Buffer.from(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1'),
    );
    expect(r.status).toBe(status);
  });

  it("an absolute-form request-target must name the Host header's host (Tomcat: 400 otherwise); in HTTP/1.0 it picks the host", async () => {
    expect(
      (await rawRequest(c.port, 'GET http://localhost/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'))
        .status,
    ).toBe(200);
    expect(
      (
        await rawRequest(
          c.port,
          'GET http://partners.localhost/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        )
      ).status,
    ).toBe(400);
    // Tomcat 10.1.60 served the partners host's page for this request.
    const r = await rawRequest(c.port, 'GET http://partners.localhost/ HTTP/1.0\r\n\r\n');
    expect(r.status).toBe(200);
    expect(r.body).toContain('Partners portal');
  });

  it('CONNECT is answered 501, as from Tomcat (node:http would close silently)', async () => {
    const r = await rawRequest(c.port, 'CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n');
    expect(r.status).toBe(501);
    expect(r.body).toContain('HTTP requests using the CONNECT method are not supported');
    expect(r.closed).toBe(true);
  });

  // node:http's parser knows a fixed set of methods and transfer codings; Tomcat hands an unknown method to the
  // servlet (501 "Method [get] is not implemented"), answers an unknown transfer coding 501 and, for a static
  // resource, never reads a chunked body with a broken chunk size (200). tollgate refuses all three with 400.
  it.each([
    ['a lower-case method (Tomcat: 501)', 'get / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['an unknown method FOO (Tomcat: 501)', 'FOO / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    [
      'Transfer-Encoding: gzip alone (Tomcat: 501)',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n',
    ],
    [
      'a chunk size that is not hex (Tomcat: 200)',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
    ],
    [
      'two different Content-Lengths (Tomcat: 400)',
      'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab',
    ],
  ])('%s is 400', async (_name, request) => {
    expect((await rawRequest(c.port, request)).status).toBe(400);
  });

  it('200 pipelined requests in one write are all answered, in order', async () => {
    const r = await rawRequest(c.port, 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(199) + get('/'), {
      waitMs: 60_000,
    });
    expect(r.closed).toBe(true);
    expect(`${r.head}\r\n\r\n${r.body}`.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(200);
  });

  it('the duplicate Origin case answers for the first Origin only, as Tomcat did', async () => {
    const r = await rawRequest(
      c.port,
      get('/api/index.json', 'Origin: https://app.example.com\r\nOrigin: https://admin.example.com\r\n'),
    );
    expect(r.head).toMatch(/\r\nAccess-Control-Allow-Origin: https:\/\/app\.example\.com\r\n/i);
  });

  it('a header section of exactly 8192 bytes passes and one byte more is 400 "Request header is too large" (Tomcat: the same boundary)', async () => {
    expect((await rawRequest(c.port, headOf(8192))).status).toBe(200);
    const over = await rawRequest(c.port, headOf(8193));
    expect(over.status).toBe(400);
    expect(over.body).toContain('Request header is too large');
    expect(over.closed).toBe(true);
  });

  it("100 header lines pass; 101 are 400 with Tomcat's message (Connector maxHeaderCount, default 100)", async () => {
    // Tomcat 10.1.60: 100 lines 200; 101 and 150 lines 400 "More than the maximum allowed number of headers, [100], were detected."
    const lines = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `X-${i}: a\r\n`).join('');
    expect((await rawRequest(c.port, get('/', lines(100)))).status).toBe(200);
    const over = await rawRequest(c.port, get('/', lines(101)));
    expect(over.status).toBe(400);
    expect(over.body).toContain('More than the maximum allowed number of headers, [100], were detected.');
    expect((await rawRequest(c.port, get('/', lines(2000)))).status).toBe(400);
  });

  it('X-Forwarded-For with 10,000 entries is a header section over 8 KB: 400, as from Tomcat', async () => {
    const r = await rawRequest(c.port, get('/intranet/', `X-Forwarded-For: ${xffList(10_000)}\r\n`));
    expect(r.status).toBe(400);
    expect(r.body).toContain('Request header is too large');
  });

  it('a 9000-byte query string (the request line counts toward the 8 KB) and a 100 KB one are 400, as from Tomcat', async () => {
    expect((await rawRequest(c.port, get(`/forms/?q=${'a'.repeat(9000)}`))).status).toBe(400);
    expect((await rawRequest(c.port, get(`/?q=${'a'.repeat(100_000)}`))).status).toBe(400);
  });

  it('errors node:http detects while parsing get an HTML error report and Connection: close', async () => {
    const r = await rawRequest(c.port, 'GET / HTTP/9.9\r\nHost: localhost\r\n\r\n');
    expect(r.head).toMatch(/^HTTP\/1\.1 505 HTTP Version Not Supported\r\n/);
    expect(r.head).toContain('Content-Type: text/html;charset=utf-8');
    expect(r.head).toContain('Connection: close');
    expect(r.body).toContain('HTTP Status 505');
    expect(r.closed).toBe(true);
  });

  describe('slow clients (connectionTimeout="1000")', () => {
    // Tomcat 10.1.60 with connectionTimeout="3000": an idle connection and one with half its headers were
    // closed without a response after 3.0-3.2 s; an idle kept-alive connection after 3.0 s; a body that
    // stopped arriving got 408 after 6 s; a client sending one header line a second was still open after 15 s.
    it('a connection that sends nothing is closed without a response', async () => {
      const r = await rawRequest(c.port, [], { waitMs: 60_000 });
      expect(r.closed).toBe(true);
      expect(r.status).toBeNull();
      expect(r.ms).toBeGreaterThanOrEqual(900);
    });

    it('half a header section, then silence: closed without a response', async () => {
      const r = await rawRequest(c.port, 'GET / HTTP/1.1\r\nHost: localhost\r\n', { waitMs: 60_000 });
      expect(r.closed).toBe(true);
      expect(r.status).toBeNull();
      expect(r.ms).toBeGreaterThanOrEqual(900);
    });

    it('slowloris: header lines trickled every 200 ms are cut off once connectionTimeout has passed (Tomcat keeps such a client)', async () => {
      const lines = ['GET / HTTP/1.1\r\nHost: localhost\r\n', ...Array.from({ length: 40 }, (_, i) => `X-${i}: a\r\n`)];
      const r = await rawRequest(c.port, lines, { gapMs: 200, waitMs: 60_000 });
      expect(r.closed).toBe(true);
      expect(r.status).toBeNull();
      // Cut off while the client was still trickling (counted in lines, not in wall-clock time: the
      // client's timers and the server's run late together on a loaded machine).
      expect(r.written).toBeLessThan(lines.length);
    });

    it('an idle kept-alive connection is closed after keepAliveTimeout (default: connectionTimeout)', async () => {
      const r = await rawRequest(c.port, 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n', { waitMs: 60_000 });
      expect(r.status).toBe(200);
      expect(r.closed).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(900);
    });

    it('a form body that stops arriving gets 408 and the connection is closed', async () => {
      const r = await rawRequest(
        c.port,
        'POST /forms/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na=1',
        { waitMs: 60_000 },
      );
      expect(r.status).toBe(408);
      expect(r.closed).toBe(true);
    });
  });
});

describe('Connector limits from server.xml', () => {
  const connector = (attrs: string) =>
    httpConnector(
      parseServerXml(
        `<Server><Service name="S"><Connector port="8009" protocol="AJP/1.3"/><Connector port="8080" ${attrs}/><Engine name="E" defaultHost="h"/></Service></Server>`,
        'server.xml',
        {},
      ).serverXml,
    );

  it('Tomcat 10.1 defaults when the Connector sets nothing: 8 KB head, 60 s, 10000 parameters, 2 MB posts', () => {
    expect(connectorLimits(connector(''))).toEqual({
      maxHttpRequestHeaderSize: 8192,
      connectionTimeout: 60_000,
      keepAliveTimeout: 60_000,
      maxParameterCount: 10_000,
      maxPostSize: 2_097_152,
      maxHeaderCount: 100,
    });
    expect(connectorLimits(null).maxParameterCount).toBe(10_000);
  });

  it('maxHttpRequestHeaderSize falls back to maxHttpHeaderSize, keepAliveTimeout to connectionTimeout', () => {
    const l = connectorLimits(
      connector('maxHttpHeaderSize="4096" connectionTimeout="20000" maxParameterCount="1000" maxPostSize="-1"'),
    );
    expect(l).toEqual({
      maxHttpRequestHeaderSize: 4096,
      connectionTimeout: 20_000,
      keepAliveTimeout: 20_000,
      maxParameterCount: 1000,
      maxPostSize: -1,
      maxHeaderCount: 100,
    });
    expect(
      connectorLimits(connector('maxHttpHeaderSize="4096" maxHttpRequestHeaderSize="16384" keepAliveTimeout="5000"')),
    ).toMatchObject({ maxHttpRequestHeaderSize: 16384, keepAliveTimeout: 5000 });
  });

  it('connectionTimeout="-1" turns the node:http timeouts off; a short one is checked often enough', () => {
    expect(serverOptions(connectorLimits(connector('connectionTimeout="-1"')))).toMatchObject({
      headersTimeout: 0,
      requestTimeout: 0,
      keepAliveTimeout: 0,
    });
    expect(serverOptions(connectorLimits(connector('connectionTimeout="1000"')))).toMatchObject({
      headersTimeout: 1000,
      requestTimeout: 300_000,
      keepAliveTimeout: 1000,
      connectionsCheckingInterval: 250,
    });
  });
});

// Observed on Tomcat 10.1.60 with the same Connector: 1000 parameters 200, 1001 on /forms 400 (query or body),
// 1001 on / (no FailedRequestFilter) 200, a head of 4096 bytes 200 and of 4097 bytes 400.
describe('a Connector with maxParameterCount="1000" and maxHttpHeaderSize="4096"', () => {
  let d: Container;
  let dBase: string;
  beforeAll(async () => {
    dBase = exampleBase({
      connector: 'connectionTimeout="20000" maxParameterCount="1000" maxHttpHeaderSize="4096"',
      forms: true,
    });
    d = await startContainer({ base: dBase, port: 0 });
  });
  afterAll(async () => {
    await d.stop();
    rmSync(dBase, { recursive: true, force: true });
  });

  it('1000 parameters pass, the 1001st makes FailedRequestFilter answer 400; without the filter the request is served', async () => {
    expect((await rawRequest(d.port, get(`/forms/?${shortParams(1000)}`))).status).toBe(200);
    expect((await rawRequest(d.port, get(`/forms/?${shortParams(1001)}`))).status).toBe(400);
    expect((await rawRequest(d.port, post('/forms/', params(1001)))).status).toBe(400);
    expect((await rawRequest(d.port, get(`/?${shortParams(1001)}`))).status).toBe(200);
  });

  it('the head limit follows maxHttpHeaderSize', async () => {
    expect((await rawRequest(d.port, headOf(4096))).status).toBe(200);
    expect((await rawRequest(d.port, headOf(4097))).status).toBe(400);
  });
});
