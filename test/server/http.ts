/**
 * Test plumbing: a node:http server on 127.0.0.1:0 and a client that sends
 * the request-target byte for byte (no URL normalisation, unlike fetch).
 */
import { createServer, request, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Running {
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function listen(listener: RequestListener): Promise<Running> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header names in the order they were received (lower case). */
  headerOrder: string[];
  body: Buffer;
  text: string;
}

export interface Ask {
  method?: string;
  headers?: Record<string, string | string[]>;
  /** Basic credentials `user:password`. */
  auth?: string;
}

export function ask(port: number, target: string, opts: Ask = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...(opts.headers ?? {}) };
    if (opts.auth !== undefined) headers['authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    const req = request(
      { host: '127.0.0.1', port, path: target, method: opts.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const headerOrder: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) headerOrder.push(res.rawHeaders[i]!.toLowerCase());
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            headerOrder,
            body,
            text: body.toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Polls `probe` every 25 ms until it gives a value (not undefined, null or false); after `ms`, fails with `why()`. */
export async function waitFor<T>(probe: () => T | undefined | null | false, ms: number, why: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 25));
  }
}
