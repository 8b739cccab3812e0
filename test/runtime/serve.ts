/** Test helpers: a context on a loopback server, and raw HTTP requests (fetch would normalise paths). */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createContextRuntime,
  toNodeListener,
  type ContextMiddleware,
  type ContextRuntimeOptions,
} from '../../src/runtime/index.js';

export interface Served {
  mw: ContextMiddleware;
  port: number;
  host: string;
  close(): Promise<void>;
}

/** Serves a context on 127.0.0.1 (or `host`) port 0 with `handler` downstream. */
export async function serve(
  options: ContextRuntimeOptions,
  handler?: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Served> {
  const mw = createContextRuntime(options);
  const server = http.createServer(toNodeListener(mw, handler ?? ((_req, res) => res.end('downstream'))));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    mw,
    port,
    host,
    close: () =>
      new Promise<void>((resolve) => {
        mw.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

/** Sends one request exactly as given (path not normalised) and collects the response. */
export function request(
  s: Served,
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string | Buffer;
    chunked?: boolean;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...init.headers };
    if (init.body !== undefined && !init.chunked) headers['content-length'] = String(Buffer.byteLength(init.body));
    const req = http.request(
      { host: s.host, port: s.port, method: init.method ?? 'GET', path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/** Collects what the downstream handler saw as JSON. */
export function jsonHandler(
  fn: (req: IncomingMessage) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let out: unknown;
    try {
      out = fn(req);
    } catch (err) {
      out = { thrown: String(err) };
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(out));
  };
}
