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
