/** The downstream handlers every HTTP benchmark variant shares: GET /app/hello answers "hello" as text/plain. */
import type { IncomingMessage, ServerResponse } from 'node:http';

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
    'access-control-allow-origin', 'https://a.example',
    'access-control-expose-headers', 'X-Request-Id',
    'vary', 'Origin',
    'x-frame-options', 'DENY',
    'x-content-type-options', 'nosniff',
    'cache-control', 'max-age=3600',
    'expires', new Date(Date.now() + 3_600_000).toUTCString(),
    'content-type', 'text/plain;charset=UTF-8',
    'content-length', '5',
  ]);
  res.end('hello');
}
