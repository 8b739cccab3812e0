import http, { ServerResponse, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createContextRuntime, exchangeOf, toNodeListener, type RuntimeFilter } from '../../src/runtime/index.js';
import { headerPath, setHeaderPath, writeRoutesThroughWriteHead } from '../../src/runtime/response-headers.js';
import { request, type Served } from './serve.js';

/** Sets headers from a filter and from a commit hook, through the exchange. */
const filter: RuntimeFilter = {
  name: 'Headers',
  doFilter(ex, next) {
    ex.response.setHeaderNamed('X-Filter', 'x-filter', 'before');
    ex.response.addHeader('X-Multi', 'one');
    ex.response.onBeforeCommit((e) =>
      e.response.setHeader('X-Hook', `saw ${e.response.getHeader('x-late') ?? 'nothing'}`),
    );
    return next();
  },
};

let open: Served[] = [];
afterEach(async () => {
  for (const s of open) await s.close();
  open = [];
});

/** A context with the filter, downstream `handler`, on a server whose `before` runs ahead of the runtime (a framework setting headers first). */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  before?: (res: ServerResponse) => void,
): Promise<Served> {
  const mw = createContextRuntime({ contextPath: '/app', filters: [filter] });
  const listener = toNodeListener(mw, handler);
  const server = http.createServer((req, res) => {
    before?.(res);
    listener(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const s: Served = {
    mw,
    port: (server.address() as AddressInfo).port,
    host: '127.0.0.1',
    close: () =>
      new Promise<void>((r) => {
        mw.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  open.push(s);
  return s;
}

function lines(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (
      raw[i]!.toLowerCase() !== 'date' &&
      raw[i]!.toLowerCase() !== 'connection' &&
      raw[i]!.toLowerCase() !== 'keep-alive'
    )
      out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

describe('response headers kept by the runtime until commit', () => {
  it('answers node:http header calls from the one store the filters write, and sends it in one writeHead with a flat list', async () => {
    let seen: unknown;
    const nodeHeld: string[][] = [];
    const s = await serve((_req, res) => {
      res.setHeader('X-Late', 'downstream');
      res.appendHeader('x-multi', ['two', 'three']);
      seen = {
        filter: res.getHeader('x-filter'),
        multi: res.getHeader('X-MULTI'),
        has: [res.hasHeader('x-filter'), res.hasHeader('x-none')],
        names: res.getHeaderNames(),
        raw: (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames(),
        all: { ...res.getHeaders() },
      };
      // node's own table stays empty before and after commit: nothing went through it, the list went to writeHead.
      nodeHeld.push(ServerResponse.prototype.getHeaderNames.call(res));
      res.end('ok');
      nodeHeld.push(ServerResponse.prototype.getHeaderNames.call(res));
    });
    const r = await request(s, '/app/x');
    expect(seen).toEqual({
      filter: 'before',
      multi: ['one', 'two', 'three'],
      has: [true, false],
      names: ['x-filter', 'x-multi', 'x-late'],
      raw: ['X-Filter', 'X-Multi', 'X-Late'],
      all: { 'x-filter': 'before', 'x-multi': ['one', 'two', 'three'], 'x-late': 'downstream' },
    });
    expect(nodeHeld).toEqual([[], []]);
    expect(lines(r.rawHeaders)).toEqual([
      ['X-Filter', 'before'],
      ['X-Multi', 'one'],
      ['X-Multi', 'two'],
      ['X-Multi', 'three'],
      ['X-Late', 'downstream'],
      ['X-Hook', 'saw downstream'],
      ['Content-Length', '2'],
    ]);
  });

  it('keeps node:http errors: an invalid name or value throws where it is set, a change after commit throws ERR_HTTP_HEADERS_SENT', async () => {
    const codes: string[] = [];
    const s = await serve((_req, res) => {
      for (const f of [
        () => res.setHeader('bad name', 'x'),
        () => res.setHeader('x-bad', 'a\r\nb'),
        () => res.appendHeader('x-bad', 'a\nb'),
      ]) {
        try {
          f();
        } catch (err) {
          codes.push((err as { code: string }).code);
        }
      }
      res.end('ok');
      for (const f of [() => res.setHeader('x-after', '1'), () => res.removeHeader('x-filter')]) {
        try {
          f();
        } catch (err) {
          codes.push((err as { code: string }).code);
        }
      }
      // Sent headers can still be read, as node:http allows.
      codes.push(String(res.getHeader('x-filter')));
    });
    const r = await request(s, '/app/x');
    expect(r.body).toBe('ok');
    expect(codes).toEqual([
      'ERR_INVALID_HTTP_TOKEN',
      'ERR_INVALID_CHAR',
      'ERR_INVALID_CHAR',
      'ERR_HTTP_HEADERS_SENT',
      'ERR_HTTP_HEADERS_SENT',
      'before',
    ]);
  });

  it('takes over headers set before the runtime saw the response (a framework), which the chain can read and remove', async () => {
    const s = await serve(
      (_req, res) => {
        const ex = exchangeOf(res)!;
        res.setHeader('x-seen', String(ex.response.getHeader('x-powered-by')));
        res.removeHeader('x-remove-me');
        res.end('ok');
      },
      (res) => {
        res.setHeader('X-Powered-By', 'Framework');
        res.setHeader('X-Remove-Me', 'yes');
      },
    );
    const r = await request(s, '/app/x');
    expect(r.headers['x-powered-by']).toBe('Framework');
    expect(r.headers['x-seen']).toBe('Framework');
    expect(r.headers['x-remove-me']).toBeUndefined();
    expect(r.headers['x-filter']).toBe('before');
    expect(r.headers['x-hook']).toBe('saw nothing');
    expect(r.headers.date).toBeDefined();
  });

  it('removing Date or Content-Length still tells node:http not to add its own', async () => {
    const s = await serve((_req, res) => {
      res.removeHeader('date');
      res.setHeader('content-length', '2');
      res.removeHeader('Content-Length');
      res.end('ok');
    });
    const r = await request(s, '/app/x');
    expect(r.headers.date).toBeUndefined();
    expect(r.headers['content-length']).toBeUndefined();
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.body).toBe('ok');
  });

  it('applies writeHead headers over the store as node:http does: an object replaces, a list replaces each name and keeps its repeats, pairs too', async () => {
    const s = await serve((req, res) => {
      res.setHeader('x-a', 'old');
      res.setHeader('x-b', 'kept');
      if (req.url!.endsWith('object')) res.writeHead(201, { 'X-A': 'new' });
      else if (req.url!.endsWith('list')) res.writeHead(202, 'Fine', ['x-a', '1', 'x-a', '2']);
      else res.writeHead(203, [['x-a', '3'] as unknown as string]);
      res.end();
    });
    const object = await request(s, '/app/object');
    expect([object.status, object.headers['x-a'], object.headers['x-b'], object.headers['x-hook']]).toEqual([
      201,
      'new',
      'kept',
      'saw nothing',
    ]);
    const list = await request(s, '/app/list');
    expect([list.status, list.headers['x-a'], list.headers['x-b']]).toEqual([202, '1, 2', 'kept']);
    const pairs = await request(s, '/app/pairs');
    expect([pairs.status, pairs.headers['x-a']]).toEqual([203, '3']);
  });

  it('setHeaders takes a Headers (Set-Cookie as separate lines) or a Map', async () => {
    const s = await serve((req, res) => {
      if (req.url!.endsWith('map')) res.setHeaders(new Map([['x-m', 'map']]));
      else {
        const h = new Headers([['x-h', 'headers']]);
        h.append('set-cookie', 'a=1');
        h.append('set-cookie', 'b=2');
        res.setHeaders(h);
      }
      res.end();
    });
    const h = await request(s, '/app/headers');
    expect([h.headers['x-h'], h.headers['set-cookie']]).toEqual(['headers', ['a=1', 'b=2']]);
    expect((await request(s, '/app/map')).headers['x-m']).toBe('map');
  });
});

/** The whole response to one raw request, as bytes off the socket, with the Date header's value blanked. */
function rawExchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/^Date: .*$/m, 'Date: -'),
      ),
    );
    socket.end(head);
  });
}

let bypassWriteHead = false;

describe('the commit path on this Node', () => {
  it("node:http sends implicit headers (write, end, flushHeaders) through the response's own writeHead", () => {
    // The runtime relies on this to run commit hooks; .ci/run runs this file on every supported Node line.
    expect(writeRoutesThroughWriteHead()).toBe(true);
  });

  it('takes the store path here (the load-time feature test passes)', () => {
    expect(headerPath()).toBe('store');
  });

  it("the public-API path (node:http's own table, no header method replaced) sends the same bytes as the store path, also where write/end/flushHeaders bypass writeHead", async () => {
    const s = await serve(
      (req, res) => {
        const url = req.url!;
        // A Node whose write/end/flushHeaders do not call the instance's writeHead: node's own is called instead.
        if (bypassWriteHead && !url.endsWith('/writehead')) delete (res as { writeHead?: unknown }).writeHead;
        if (url.endsWith('/write')) {
          res.write('a');
          res.end('b');
        } else if (url.endsWith('/flush')) {
          res.flushHeaders();
          res.end('x');
        } else if (url.endsWith('/writehead')) {
          res.writeHead(201, { 'X-A': '1' });
          res.end('made');
        } else if (url.endsWith('/no-date')) {
          res.removeHeader('date');
          res.end('x');
        } else if (url.endsWith('/no-content')) {
          res.statusCode = 204;
          res.end();
        } else if (url.endsWith('/error')) {
          exchangeOf(res)!.response.sendError(404, 'gone');
        } else if (url.endsWith('/pre-removed')) {
          res.removeHeader('content-length');
          res.end('hello');
        } else res.end('hello');
      },
      (res) => {
        if (res.req.url!.includes('/pre')) {
          res.setHeader('X-Pre', '1');
          res.setHeader('Content-Length', '5');
        }
      },
    );
    const heads: string[] = [];
    for (const path of [
      '/end',
      '/write',
      '/flush',
      '/writehead',
      '/no-date',
      '/no-content',
      '/error',
      '/pre',
      '/pre-removed',
    ])
      heads.push(`GET /app${path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    heads.push('HEAD /app/end HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    heads.push('GET /app/end HTTP/1.0\r\n\r\n', 'GET /app/write HTTP/1.0\r\n\r\n');
    const answers = async (): Promise<string[]> => {
      const out: string[] = [];
      for (const head of heads) out.push(await rawExchange(s.port, head));
      return out;
    };
    const throughWriteHead = await answers();
    let publicApi: string[];
    let explicit: string[];
    let bypassed: string[];
    try {
      setHeaderPath('node', false);
      publicApi = await answers();
      setHeaderPath('node', true);
      explicit = await answers();
      bypassWriteHead = true;
      bypassed = await answers();
    } finally {
      setHeaderPath('store');
      bypassWriteHead = false;
    }
    expect(publicApi).toEqual(throughWriteHead);
    expect(explicit).toEqual(throughWriteHead);
    expect(bypassed).toEqual(throughWriteHead);
    // The filter's and the hook's headers went out on both paths.
    for (const answer of throughWriteHead.slice(0, 9)) expect(answer).toContain('X-Hook: saw nothing');
    expect(throughWriteHead[4]).not.toContain('Date:');
    expect(throughWriteHead[7]).toMatch(/X-Pre: 1\r\nContent-Length: 5\r\n/);
    expect(throughWriteHead[8]).toContain('Transfer-Encoding: chunked');
  });
});
