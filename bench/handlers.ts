/** The downstream handlers every HTTP benchmark variant shares: GET /app/hello answers "hello" as text/plain. */
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Socket } from 'node:net';

/** The yardstick: bare node:http with the body and content type every variant sends, and nothing else. */
export function bareHello(_req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('content-type', 'text/plain; charset=UTF-8');
  res.end('hello');
}

/** Behind a chain: the chain adds the charset (AddDefaultCharsetFilter) and the other headers. */
export function hello(_req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('content-type', 'text/plain');
  res.end('hello');
}

/** The response the compiled chain sends, written by hand: what those headers alone cost node:http. */
export function helloWithChainHeaders(_req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', 'https://a.example');
  res.setHeader('access-control-expose-headers', 'X-Request-Id');
  res.setHeader('vary', 'Origin');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cache-control', 'max-age=3600');
  res.setHeader('expires', new Date(Date.now() + 3_600_000).toUTCString());
  res.setHeader('content-type', 'text/plain;charset=UTF-8');
  res.end('hello');
}

/**
 * The same response in one `writeHead` call with a flat header list and no
 * earlier setHeader: node:http's cheapest public path (no per-header store,
 * the block is validated and built once). The ceiling for any middleware
 * that must send these headers through node:http.
 */
export function helloWithChainHeadersInOneCall(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, [
    'access-control-allow-origin',
    'https://a.example',
    'access-control-expose-headers',
    'X-Request-Id',
    'vary',
    'Origin',
    'x-frame-options',
    'DENY',
    'x-content-type-options',
    'nosniff',
    'cache-control',
    'max-age=3600',
    'expires',
    new Date(Date.now() + 3_600_000).toUTCString(),
    'content-type',
    'text/plain;charset=UTF-8',
    'content-length',
    '5',
  ]);
  res.end('hello');
}

/** The request the HTTP benchmarks send, as the header lines node's parser hands over. */
const RAW_HEADERS = ['Host', '127.0.0.1:8080', 'Origin', 'https://a.example', 'X-Forwarded-For', '203.0.113.5'];

/**
 * GET /app/hello through `listener` in-process: node:http's IncomingMessage and
 * ServerResponse over a socket that only reports its addresses (nothing is
 * written anywhere). For the benchmarks that count CPU or instructions per
 * request without the kernel's share. Throws, naming `what`, unless the answer is a finished 200.
 */
export function inProcessRequester(listener: RequestListener, what = 'the listener'): () => void {
  const socket = new Socket();
  for (const [k, v] of Object.entries({
    remoteAddress: '127.0.0.1',
    remotePort: 40000,
    localAddress: '127.0.0.1',
    localPort: 8080,
  }))
    Object.defineProperty(socket, k, { value: v });
  return () => {
    const req = new IncomingMessage(socket);
    req.method = 'GET';
    req.url = '/app/hello';
    req.httpVersion = '1.1';
    // What node's parser does with the received header lines; there is no public equivalent.
    (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(
      RAW_HEADERS,
      RAW_HEADERS.length,
    );
    const res = new ServerResponse(req);
    listener(req, res);
    if (res.statusCode !== 200 || !res.writableEnded)
      throw new Error(`${what} answered ${res.statusCode} (ended: ${res.writableEnded})`);
  };
}

/** The handlers that run without tollgate, by the variant names bench/server.ts and bench/instructions.ts use. */
export const BARE_HANDLERS = {
  bare: bareHello,
  'bare-headers': helloWithChainHeaders,
  'bare-headers-one-call': helloWithChainHeadersInOneCall,
} as const;
