import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  exchangeOf,
  parseContentType,
  setLogSink,
  type Exchange,
  type LogRecord,
  type RuntimeFilter,
} from '../../src/runtime/index.js';
import { request, serve, type Served } from './serve.js';

/** Counts commits and adds a header from the hook; the hook also records the status and content type it saw. */
const counting: RuntimeFilter = {
  name: 'Counting',
  doFilter(ex, next) {
    ex.response.onBeforeCommit(countCommit, ex.request.getHeader('x-tag') ?? 'none');
    return next();
  },
};

function countCommit(ex: Exchange, tag: string): void {
  const n = Number(ex.response.getHeader('x-commits') ?? '0') + 1;
  ex.response.setHeader('x-commits', String(n));
  ex.response.setHeader('x-tag', tag);
  ex.response.setHeader('x-seen', `${ex.response.status} ${ex.response.getContentType() ?? '-'}`);
}

const styles: Record<string, (ex: Exchange, res: ServerResponse) => void> = {
  end: (_ex, res) => res.end('body'),
  write: (_ex, res) => {
    res.write('a');
    res.write('b');
    res.end();
  },
  writeHead: (_ex, res) => {
    res.writeHead(201, { 'content-type': 'text/plain', 'x-own': '1' });
    res.end('created');
  },
  writeHeadReason: (_ex, res) => {
    res.writeHead(202, 'Fine', { 'x-own': '2' });
    res.end();
  },
  writeHeadArray: (_ex, res) => {
    res.writeHead(200, ['x-own', '3', 'x-own', '4']);
    res.end();
  },
  notModified: (_ex, res) => {
    res.writeHead(304);
    res.end();
  },
  sendError: (ex) => ex.response.sendError(404, 'nothing <here>'),
  flush: (_ex, res) => {
    res.flushHeaders();
    res.end('x');
  },
  twice: (_ex, res) => {
    res.writeHead(200);
    try {
      res.writeHead(500);
    } catch {
      // Node refuses a second writeHead once headers are sent.
    }
    res.end();
  },
};

describe('onBeforeCommit', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ filters: [counting] }, (req, res) => styles[(req.url ?? '/').slice(1)]!(exchangeOf(req)!, res));
  });
  afterAll(() => s.close());

  for (const style of Object.keys(styles)) {
    it(`fires exactly once, and its headers are sent, for a response written with ${style}`, async () => {
      const r = await request(s, `/${style}`, { headers: { 'x-tag': style } });
      expect(r.headers['x-commits']).toBe('1');
      expect(r.headers['x-tag']).toBe(style);
    });
  }

  it('sees the status and headers passed to writeHead, and sends both its own headers and those', async () => {
    const r = await request(s, '/writeHead');
    expect(r.status).toBe(201);
    expect(r.headers['x-seen']).toBe('201 text/plain');
    expect(r.headers['x-own']).toBe('1');
    expect(r.body).toBe('created');
    const reason = await request(s, '/writeHeadReason');
    expect(reason.status).toBe(202);
    expect(reason.headers['x-own']).toBe('2');
    expect((await request(s, '/writeHeadArray')).headers['x-own']).toBe('3, 4');
  });

  it('fires for a 304 and for an error page', async () => {
    expect((await request(s, '/notModified')).headers['x-seen']).toBe('304 -');
    const err = await request(s, '/sendError');
    expect(err.status).toBe(404);
    expect(err.headers['x-seen']).toBe('404 text/html;charset=utf-8');
    expect(err.body).toContain('HTTP Status 404 \u2013 Not Found');
    expect(err.body).toContain('nothing &lt;here&gt;');
  });
});

describe('commit hook failures and late registration', () => {
  const logs: LogRecord[] = [];
  afterEach(() => setLogSink(null));

  it('runs hooks innermost filter first, as nested response wrappers see the servlet first', async () => {
    const tagger = (tag: string) => ({
      name: `Tag${tag}`,
      doFilter(ex: Exchange, next: () => unknown) {
        ex.response.onBeforeCommit((e) =>
          e.response.setHeader('x-order', `${e.response.getHeader('x-order') ?? ''}${tag}`),
        );
        return next() as undefined;
      },
    });
    const s = await serve({ filters: [tagger('outer'), tagger('-inner')] }, (_req, res) => res.end('ok'));
    try {
      expect((await request(s, '/')).headers['x-order']).toBe('-innerouter');
    } finally {
      await s.close();
    }
  });

  it('logs a failing hook, runs the others, and still sends the response', async () => {
    setLogSink((r) => logs.push(r));
    const s = await serve(
      {
        filters: [
          {
            name: 'Hooks',
            doFilter(ex, next) {
              ex.response.onBeforeCommit(() => {
                throw new Error('hook broke');
              });
              ex.response.onBeforeCommit((e) => e.response.setHeader('x-second', 'ran'));
              return next();
            },
          },
        ],
      },
      (_req, res) => res.end('ok'),
    );
    try {
      const r = await request(s, '/');
      expect(r.status).toBe(200);
      expect(r.headers['x-second']).toBe('ran');
      expect(logs.some((l) => l.level === 'SEVERE' && String(l.error).includes('hook broke'))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('refuses a hook once the response is committed', async () => {
    const s = await serve({}, (req, res) => {
      res.write('x');
      res.end(String(exchangeOf(req)!.response.onBeforeCommit(() => undefined)));
    });
    try {
      expect((await request(s, '/')).body).toBe('xfalse');
    } finally {
      await s.close();
    }
  });
});

/** Each case calls servlet-style methods and reports getContentType/getCharacterEncoding and the header sent. */
const ctCases: Record<string, (ex: Exchange, res: ServerResponse) => void> = {
  withCharset: (ex) => ex.response.setContentType('text/html; charset=UTF-8'),
  charsetThenType: (ex) => {
    ex.response.setCharacterEncoding('UTF-8');
    ex.response.setContentType('text/plain');
  },
  typeThenCharset: (ex) => {
    ex.response.setContentType('text/plain');
    ex.response.setCharacterEncoding('windows-1252');
  },
  typeOnly: (ex) => ex.response.setContentType('text/plain'),
  keepsEarlierCharset: (ex) => {
    ex.response.setContentType('text/html;charset=UTF-8');
    ex.response.setContentType('text/xml');
  },
  params: (ex) => ex.response.setContentType('text/html; level=1; charset="utf-8"'),
  unsupported: (ex) => ex.response.setContentType('text/html;charset=no-such'),
  viaSetHeader: (ex) => ex.response.setHeader('Content-Type', 'application/json;charset=utf-8'),
  nodeDirect: (_ex, res) => res.setHeader('Content-Type', 'application/json; charset=utf-8'),
  cleared: (ex) => {
    ex.response.setContentType('text/html;charset=UTF-8');
    ex.response.setContentType(null);
  },
  none: () => undefined,
};

describe('content type and charset (servlet semantics)', () => {
  let s: Served;
  let withDefault: Served;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const ex = exchangeOf(req)!;
    ctCases[(req.url ?? '/').slice(1)]!(ex, res);
    res.setHeader('x-ct', ex.response.getContentType() ?? '-');
    res.setHeader('x-enc', ex.response.getCharacterEncoding());
    res.end();
    ex.response.setContentType('text/late');
  };
  const warnings: LogRecord[] = [];
  beforeAll(async () => {
    setLogSink((r) => warnings.push(r));
    s = await serve({}, handler);
    withDefault = await serve({ responseCharacterEncoding: 'UTF-8' }, handler);
  });
  afterAll(async () => {
    setLogSink(null);
    await s.close();
    await withDefault.close();
  });

  const expected: Record<string, [string, string, string | undefined]> = {
    withCharset: ['text/html;charset=UTF-8', 'UTF-8', 'text/html;charset=UTF-8'],
    charsetThenType: ['text/plain;charset=UTF-8', 'UTF-8', 'text/plain;charset=UTF-8'],
    typeThenCharset: ['text/plain;charset=windows-1252', 'windows-1252', 'text/plain;charset=windows-1252'],
    typeOnly: ['text/plain', 'ISO-8859-1', 'text/plain'],
    keepsEarlierCharset: ['text/xml;charset=UTF-8', 'UTF-8', 'text/xml;charset=UTF-8'],
    params: ['text/html;level=1;charset=utf-8', 'utf-8', 'text/html;level=1;charset=utf-8'],
    unsupported: ['text/html', 'ISO-8859-1', 'text/html'],
    viaSetHeader: ['application/json;charset=utf-8', 'utf-8', 'application/json;charset=utf-8'],
    nodeDirect: ['application/json;charset=utf-8', 'utf-8', 'application/json; charset=utf-8'],
    cleared: ['-', 'ISO-8859-1', undefined],
    none: ['-', 'ISO-8859-1', undefined],
  };
  for (const [name, [ct, enc, sent]] of Object.entries(expected)) {
    it(`${name}: getContentType ${ct}, getCharacterEncoding ${enc}`, async () => {
      const r = await request(s, `/${name}`);
      expect([r.headers['x-ct'], r.headers['x-enc'], r.headers['content-type']]).toEqual([ct, enc, sent]);
    });
  }

  it('logs a warning for the unsupported charset, as Tomcat does', () => {
    expect(warnings.map((w) => [w.level, w.message])).toEqual([
      ['WARNING', 'Unable to set the response charset [no-such]: the encoding is not supported'],
    ]);
  });

  it('falls back to the context response-character-encoding before ISO-8859-1', async () => {
    const r = await request(withDefault, '/typeOnly');
    expect([r.headers['x-ct'], r.headers['x-enc']]).toEqual(['text/plain', 'UTF-8']);
  });

  it("parses content types like Tomcat's MediaType", () => {
    expect(parseContentType('text/html ; Charset = "UTF-8" ; a=b')).toEqual({
      withoutCharset: 'text/html;a=b',
      charset: 'UTF-8',
    });
    expect(parseContentType('text/html')).toEqual({ withoutCharset: 'text/html', charset: null });
    expect(parseContentType('text')).toBeNull();
    expect(parseContentType('text/html; a="open')).toBeNull();
  });
});

describe('encodeURL and encodeRedirectURL', () => {
  it("apply the encoders filters registered, the first filter's innermost", async () => {
    const add = (label: string): RuntimeFilter => ({
      name: label,
      doFilter(ex, next) {
        ex.response.addUrlEncoder(
          (url, kind, _ex, tag: string) => `${url}${url.includes('?') ? '&' : '?'}${tag}=${kind}`,
          label,
        );
        return next();
      },
    });
    const s = await serve({ filters: [add('a'), add('b')] }, (req, res) => {
      const r = exchangeOf(req)!.response;
      res.end(JSON.stringify([r.encodeURL('/x'), r.encodeRedirectURL('/y?z=1')]));
    });
    const plain = await serve({}, (req, res) => res.end(exchangeOf(req)!.response.encodeURL('/x;y?z')));
    try {
      expect(JSON.parse((await request(s, '/')).body)).toEqual(['/x?a=url&b=url', '/y?z=1&a=redirect&b=redirect']);
      expect((await request(plain, '/')).body).toBe('/x;y?z');
    } finally {
      await s.close();
      await plain.close();
    }
  });
});

describe('response headers through the exchange', () => {
  it('set, add, read, test and remove headers on the Node response, ignoring changes after commit', async () => {
    const s = await serve({}, (req, res) => {
      const r = exchangeOf(req)!.response;
      r.setHeader('X-A', '1');
      r.addHeader('X-A', '2');
      r.addHeader('X-B', 'b');
      r.removeHeader('X-B');
      r.status = 418;
      const seen = {
        a: r.getHeader('x-a'),
        all: r.getHeaders('X-A'),
        hasB: r.containsHeader('x-b'),
        names: r.getHeaderNames(),
      };
      res.end(JSON.stringify(seen));
      r.setHeader('X-Late', '1');
      r.status = 200;
    });
    try {
      const resp = await request(s, '/');
      expect(resp.status).toBe(418);
      expect(JSON.parse(resp.body)).toEqual({ a: '1', all: ['1', '2'], hasB: false, names: ['x-a'] });
      expect(resp.headers['x-late']).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('sendError keeps headers set earlier, and is refused once committed', async () => {
    const s = await serve({}, (req, res) => {
      const r = exchangeOf(req)!.response;
      if (req.url === '/late') {
        res.write('x');
        res.end(String(r.sendError(500)));
        return;
      }
      r.setHeader('X-CSRF-Token', 'Required');
      r.sendError(403);
    });
    try {
      const denied = await request(s, '/');
      expect(denied.status).toBe(403);
      expect(denied.headers['x-csrf-token']).toBe('Required');
      expect(denied.headers['content-type']).toBe('text/html;charset=utf-8');
      expect(denied.headers['content-language']).toBe('en');
      expect(Number(denied.headers['content-length'])).toBe(Buffer.byteLength(denied.body));
      const late = await request(s, '/late');
      expect([late.status, late.body]).toEqual([200, 'xfalse']);
      const head = await request(s, '/', { method: 'HEAD' });
      expect([head.status, head.body]).toEqual([403, '']);
    } finally {
      await s.close();
    }
  });
});
