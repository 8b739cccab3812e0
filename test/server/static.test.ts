import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextRuntime, toNodeListener, type Exchange } from '../../src/runtime/index.js';
import { createStaticHandler, LAST_MODIFIED_ATTRIBUTE } from '../../src/server/static.js';
import { ask, listen, type Running } from './http.js';

let dir: string;
let viaContext: Running;
let plain: Running;
const MTIME = new Date('2026-01-02T03:04:05.678Z');
/** The millisecond time the file system actually stored (utimes may round). */
let millis: number;

function put(rel: string, content: string | Buffer): void {
  const file = join(dir, rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  utimesSync(file, MTIME, MTIME);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-static-'));
  put('index.html', '<h1>hi</h1>\n');
  put('a.txt', 'hello world\n');
  put('range.bin', 'ABCDEFGHIJKLMNOPQRSTUVWX');
  put('empty.txt', '');
  put('x.json', '{}');
  put('s.css', 'body{}');
  put('j.js', 'var a');
  put('data.unknownext', 'data');
  put('custom.tgx', 'custom');
  put('Upper.TXT', 'upper');
  put('page.jsp', '<%= 1 %>');
  put('WEB-INF/web.xml', '<web-app/>');
  put('META-INF/context.xml', '<Context/>');
  put('sub/index.htm', 'sub');
  put('jspwelcome/index.jsp', '<%= 2 %>');
  mkdirSync(join(dir, 'emptydir'));
  const outside = mkdtempSync(join(tmpdir(), 'tg-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
  millis = Math.floor(statSync(join(dir, 'a.txt')).mtimeMs);
  execFileSync('mkfifo', [join(dir, 'pipe.txt')]);

  const serveApp = createStaticHandler({ docBase: dir, mimeTypes: [['tgx', 'application/x-tollgate']] });
  // A filter reading the attribute when the response commits, as ExpiresFilter's modification base does.
  const attributeProbe = {
    name: 'Probe',
    doFilter: (ex: Exchange, next: () => void | Promise<void>) => {
      ex.response.onBeforeCommit((e) => {
        const at = e.request.getAttribute(LAST_MODIFIED_ATTRIBUTE);
        if (at !== undefined) e.response.setHeader('x-probe-last-modified', String(at));
      });
      return next();
    },
  };
  const mw = createContextRuntime({ contextPath: '/app', filters: [attributeProbe] });
  viaContext = await listen(toNodeListener(mw, (req, res) => void serveApp(req, res)));
  const servePlain = createStaticHandler({ docBase: dir, contextPath: '/app' });
  plain = await listen((req, res) => void servePlain(req, res));
});

afterAll(async () => {
  await viaContext.close();
  await plain.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['through a tollgate context', () => viaContext.port],
  ['on a bare node:http server', () => plain.port],
])('static files %s', (_name, port) => {
  it('serves a file with Tomcat headers: Accept-Ranges, weak ETag of length and millis, Last-Modified, type, length', async () => {
    const r = await ask(port(), '/app/a.txt');
    expect(r.status).toBe(200);
    expect(r.text).toBe('hello world\n');
    expect(r.headers['etag']).toBe(`W/"12-${millis}"`);
    expect(r.headers['last-modified']).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.headers['content-length']).toBe('12');
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headerOrder.slice(0, 5)).toEqual([
      'accept-ranges',
      'etag',
      'last-modified',
      'content-type',
      'content-length',
    ]);
  });

  it.each([
    ['/app/index.html', 'text/html'],
    ['/app/x.json', 'application/json'],
    ['/app/s.css', 'text/css'],
    ['/app/j.js', 'text/javascript'],
    ['/app/range.bin', 'application/octet-stream'],
    ['/app/Upper.TXT', 'text/plain'],
  ])('types %s by extension from the stock conf/web.xml table as %s', async (path, type) => {
    expect((await ask(port(), path)).headers['content-type']).toBe(type);
  });

  it('sends no Content-Type for an unmapped extension', async () => {
    const r = await ask(port(), '/app/data.unknownext');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBeUndefined();
  });

  it('serves an empty file with Content-Length 0', async () => {
    const r = await ask(port(), '/app/empty.txt');
    expect([r.status, r.headers['content-length'], r.body.length]).toEqual([200, '0', 0]);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const r = await ask(port(), '/app/a.txt', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('12');
    expect(r.headers['etag']).toBe(`W/"12-${millis}"`);
    expect(r.body.length).toBe(0);
  });

  it('serves POST like GET, as the default servlet does', async () => {
    expect((await ask(port(), '/app/a.txt', { method: 'POST' })).text).toBe('hello world\n');
  });

  it('refuses TRACE with 405 listing the servlet methods, and an unknown method with 501', async () => {
    const t = await ask(port(), '/app/a.txt', { method: 'TRACE' });
    expect([t.status, t.headers['allow']]).toEqual([405, 'HEAD, DELETE, POST, GET, OPTIONS, PUT']);
    expect(t.text).toContain('TRACE method is not allowed');
    const p = await ask(port(), '/app/a.txt', { method: 'PATCH' });
    expect([p.status, p.headers['connection']]).toEqual([501, 'close']);
    expect(p.text).toContain('Method [PATCH] is not implemented by this Servlet for this URI');
  });

  it('answers OPTIONS with the read-only Allow list and refuses PUT and DELETE with 405', async () => {
    const o = await ask(port(), '/app/a.txt', { method: 'OPTIONS' });
    expect([o.status, o.headers['allow']]).toEqual([200, 'OPTIONS, GET, HEAD, POST']);
    for (const method of ['PUT', 'DELETE']) {
      const r = await ask(port(), '/app/a.txt', { method });
      expect([r.status, r.headers['allow']]).toEqual([405, 'OPTIONS, GET, HEAD, POST']);
    }
  });

  describe('conditional requests', () => {
    let etag: string;
    beforeAll(() => {
      etag = `W/"24-${millis}"`;
    });
    it('If-None-Match with the current ETag gives 304 with the ETag and no body', async () => {
      const r = await ask(port(), '/app/range.bin', { headers: { 'if-none-match': etag } });
      expect(r.status).toBe(304);
      expect(r.headers['etag']).toBe(etag);
      expect(r.body.length).toBe(0);
    });
    it('If-None-Match compares weakly: the strong form of the tag also matches', async () => {
      expect(
        (await ask(port(), '/app/range.bin', { headers: { 'if-none-match': `"other", ${etag.slice(2)}` } })).status,
      ).toBe(304);
    });
    it('If-None-Match: * gives 304 for an existing file', async () => {
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    });
    it('If-None-Match with another tag serves the file', async () => {
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-none-match': '"foo"' } })).status).toBe(200);
    });
    it('a malformed If-None-Match is a 400', async () => {
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-none-match': 'foo' } })).status).toBe(400);
    });
    it('a matching If-None-Match on POST is a 412', async () => {
      expect((await ask(port(), '/app/range.bin', { method: 'POST', headers: { 'if-none-match': etag } })).status).toBe(
        412,
      );
    });
    it('If-Modified-Since at the modification second gives 304; an older date serves the file', async () => {
      expect(
        (await ask(port(), '/app/range.bin', { headers: { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' } }))
          .status,
      ).toBe(304);
      expect(
        (await ask(port(), '/app/range.bin', { headers: { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' } }))
          .status,
      ).toBe(200);
    });
    it('If-Match compares strongly, so the weak ETag never matches (412) but * does', async () => {
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-match': etag } })).status).toBe(412);
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-match': '"x"' } })).status).toBe(412);
      expect((await ask(port(), '/app/range.bin', { headers: { 'if-match': '*' } })).status).toBe(200);
    });
    it('If-Unmodified-Since before the modification is a 412, at it serves the file', async () => {
      expect(
        (await ask(port(), '/app/range.bin', { headers: { 'if-unmodified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' } }))
          .status,
      ).toBe(412);
      expect(
        (await ask(port(), '/app/range.bin', { headers: { 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' } }))
          .status,
      ).toBe(200);
    });
    it('If-Match on a missing file is a 412, not a 404', async () => {
      expect((await ask(port(), '/app/nope.txt', { headers: { 'if-match': '*' } })).status).toBe(412);
    });
  });

  describe('ranges', () => {
    it.each([
      ['bytes=0-4', 'bytes 0-4/24', 'ABCDE'],
      ['bytes=20-', 'bytes 20-23/24', 'UVWX'],
      ['bytes=-3', 'bytes 21-23/24', 'VWX'],
      ['bytes=10-100', 'bytes 10-23/24', 'KLMNOPQRSTUVWX'],
    ])('%s gives 206 with Content-Range %s', async (range, contentRange, body) => {
      const r = await ask(port(), '/app/range.bin', { headers: { range } });
      expect(r.status).toBe(206);
      expect(r.headers['content-range']).toBe(contentRange);
      expect(r.headers['content-length']).toBe(String(body.length));
      expect(r.headers['content-type']).toBe('application/octet-stream');
      expect(r.text).toBe(body);
    });
    it.each(['bytes=30-40', 'bytes=5-2', 'foo', 'bytes=-0'])(
      '%s is a 416 with Content-Range bytes */24',
      async (range) => {
        const r = await ask(port(), '/app/range.bin', { headers: { range } });
        expect(r.status).toBe(416);
        expect(r.headers['content-range']).toBe('bytes */24');
        expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
      },
    );
    it('ignores a Range in another unit, on HEAD, and on an empty file', async () => {
      expect((await ask(port(), '/app/range.bin', { headers: { range: 'items=0-1' } })).status).toBe(200);
      expect((await ask(port(), '/app/range.bin', { method: 'HEAD', headers: { range: 'bytes=0-1' } })).status).toBe(
        200,
      );
      expect((await ask(port(), '/app/empty.txt', { headers: { range: 'bytes=0-0' } })).status).toBe(200);
    });
    it('If-Range with the modification date applies the range, an older date or a weak ETag does not', async () => {
      const range = 'bytes=0-4';
      expect(
        (await ask(port(), '/app/range.bin', { headers: { range, 'if-range': 'Fri, 02 Jan 2026 03:04:05 GMT' } }))
          .status,
      ).toBe(206);
      expect(
        (await ask(port(), '/app/range.bin', { headers: { range, 'if-range': 'Sat, 01 Jan 2000 00:00:00 GMT' } }))
          .status,
      ).toBe(200);
      expect((await ask(port(), '/app/range.bin', { headers: { range, 'if-range': `W/"24-${millis}"` } })).status).toBe(
        200,
      );
      expect((await ask(port(), '/app/range.bin', { headers: { range, 'if-range': 'garbage' } })).status).toBe(400);
    });
    it('several ranges give multipart/byteranges framed exactly as Tomcat frames them', async () => {
      const r = await ask(port(), '/app/range.bin', { headers: { range: 'bytes=0-1,3-4' } });
      expect(r.status).toBe(206);
      expect(r.headers['content-type']).toBe('multipart/byteranges; boundary=CATALINA_MIME_BOUNDARY');
      const expected =
        '\r\n--CATALINA_MIME_BOUNDARY\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 0-1/24\r\n\r\nAB' +
        '\r\n--CATALINA_MIME_BOUNDARY\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 3-4/24\r\n\r\nDE' +
        '\r\n--CATALINA_MIME_BOUNDARY--';
      expect(r.text).toBe(expected);
      expect(r.headers['content-length']).toBe('230');
    });
  });

  describe('directories and welcome files', () => {
    it('serves index.html for the context root', async () => {
      const r = await ask(port(), '/app/');
      expect([r.status, r.text, r.headers['content-type']]).toEqual([200, '<h1>hi</h1>\n', 'text/html']);
    });
    it('falls through the welcome list to index.htm', async () => {
      expect((await ask(port(), '/app/sub/')).text).toBe('sub');
    });
    it('redirects a directory without its slash with 302, keeping the query', async () => {
      const r = await ask(port(), '/app/sub?x=1');
      expect([r.status, r.headers['location'], r.headers['content-length']]).toEqual([302, '/app/sub/?x=1', '0']);
    });
    it('redirects the context root /app to /app/', async () => {
      const r = await ask(port(), '/app');
      expect([r.status, r.headers['location']]).toEqual([302, '/app/']);
    });
    it('lists no directory: 404 with an HTML error page', async () => {
      const r = await ask(port(), '/app/emptydir/');
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
      expect(r.text).toContain('The requested resource [&#47;app&#47;emptydir&#47;] is not available');
    });
    it('a file requested with a trailing slash is a 404', async () => {
      expect((await ask(port(), '/app/a.txt/')).status).toBe(404);
    });
  });

  describe('what is never served', () => {
    it.each([
      '/app/WEB-INF/web.xml',
      '/app/web-inf/web.xml',
      '/app/WEB-INF',
      '/app/WEB-INF/',
      '/app/META-INF/context.xml',
      '/app/Meta-Inf/context.xml',
      '/app/./WEB-INF/web.xml',
      '/app//WEB-INF/web.xml',
      '/app/sub/../WEB-INF/web.xml',
      '/app/%57EB-INF/web.xml',
      '/app/WEB-INF;x=1/web.xml',
    ])('%s is a 404', async (path) => {
      const r = await ask(port(), path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
      expect(r.text).not.toContain('web-app');
    });

    it.each([
      ['/app/..%2fa.txt', 400],
      ['/app/%2fa.txt', 400],
      ['/app/sub%5c..%5ca.txt', 400],
      ['/app/sub\\..\\a.txt', 400],
      ['/app/a.txt%00', 400],
      ['/app/a.txt%00.html', 400],
      ['/app/%c0%ae%c0%ae/a.txt', 400],
      ['/app/%c0%afa.txt', 400],
      ['/app/%e0%80%ae/a.txt', 400],
      ['/app/%ff.txt', 400],
      ['/app/%zz', 400],
      ['/app/%2e%2e/%2e%2e/etc/passwd', 400],
      ['/app/WEB-INF%2fweb.xml', 400],
      ['/app/WEB-INF%5cweb.xml', 400],
      ['/app/...', 404],
      ['/app/a.txt.', 404],
      ['/app/a.txt%20', 404],
    ])('traversal or malformed path %s answers %i as Tomcat does', async (path, status) => {
      const r = await ask(port(), path);
      expect(r.status).toBe(status);
      expect(r.text).not.toContain('hello world');
    });

    it('resolves dot segments inside the context as Tomcat does', async () => {
      expect((await ask(port(), '/app/sub/%2e%2e/a.txt')).text).toBe('hello world\n');
      expect((await ask(port(), '/app/a%2etxt')).text).toBe('hello world\n');
    });

    it('a FIFO is not a file: 404 at once, nothing blocks', async () => {
      expect((await ask(port(), '/app/pipe.txt')).status).toBe(404);
    });

    it('does not follow a symbolic link out of the docBase (allowLinking off)', async () => {
      const r = await ask(port(), '/app/link.txt');
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('secret');
    });

    it('a JSP that exists is a 404 saying there is no JSP engine, and its source is never sent', async () => {
      const r = await ask(port(), '/app/page.jsp');
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
      expect(r.text).toContain('JSP file [&#47;page.jsp] cannot be run: tollgate has no JSP engine');
      expect(r.text).not.toContain('<%=');
      // Any case goes to the JSP refusal, so a case-insensitive file system never leaks the source.
      const upper = await ask(port(), '/app/page.JSP');
      expect(upper.status).toBe(404);
      expect(upper.text).not.toContain('<%=');
    });

    it('a missing JSP is a 404 with Tomcat\'s "JSP file [...] not found" message', async () => {
      const r = await ask(port(), '/app/nope.jsp');
      expect(r.status).toBe(404);
      expect(r.text).toContain('JSP file [&#47;nope.jsp] not found');
    });

    it('an index.jsp welcome file is not run: 404 saying there is no JSP engine', async () => {
      const r = await ask(port(), '/app/jspwelcome/');
      expect(r.status).toBe(404);
      expect(r.text).toContain('no JSP engine');
    });

    it('a missing file is a 404 naming the request URI', async () => {
      const r = await ask(port(), '/app/nope.txt');
      expect(r.status).toBe(404);
      expect(r.text).toContain('The requested resource [&#47;app&#47;nope.txt] is not available');
    });
  });
});

describe('static files with the context mime-mappings', () => {
  it('a context mime-mapping adds to the stock table', async () => {
    expect((await ask(viaContext.port, '/app/custom.tgx')).headers['content-type']).toBe('application/x-tollgate');
    expect((await ask(plain.port, '/app/custom.tgx')).headers['content-type']).toBeUndefined();
  });

  it('publishes the file modification time as a request attribute a commit hook can read', async () => {
    const r = await ask(viaContext.port, '/app/a.txt');
    expect(r.headers['x-probe-last-modified']).toBe(String(millis));
  });

  it('streams a large file without truncation', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 7, 'z');
    put('big.bin', big);
    const r = await ask(viaContext.port, '/app/big.bin');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(big.length);
    expect(r.body.equals(big)).toBe(true);
  });

  it('a filter that set a content type keeps it', async () => {
    const serve = createStaticHandler({ docBase: dir });
    const mw = createContextRuntime({
      filters: [
        {
          name: 'SetType',
          doFilter: (ex, next) => {
            ex.response.setContentType('text/x-custom');
            return next();
          },
        },
      ],
    });
    const s = await listen(toNodeListener(mw, (req, res) => void serve(req, res)));
    try {
      expect((await ask(s.port, '/a.txt')).headers['content-type']).toBe('text/x-custom');
    } finally {
      await s.close();
    }
  });
});
