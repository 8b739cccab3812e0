/**
 * examples/embed/server.mjs, run as a user runs it (it imports the built
 * package by name: tollgate/compile and tollgate/embed): a compiled chain in
 * front of Express 5 and Fastify 5 routes, a forward dispatch that runs the
 * FORWARD chain, an exception sent to its <exception-type> page, and
 * server.xml's connector limits on both servers.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
let running: { servers: import('node:http').Server[]; close(): Promise<unknown> };
const port = (i: number) => (running.servers[i]!.address() as { port: number }).port;

function get(
  p: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: p, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const example = (await import(pathToFileURL(join(repo, 'examples', 'embed', 'server.mjs')).href)) as {
    start(): Promise<typeof running>;
  };
  running = await example.start();
});
afterAll(async () => {
  await running?.close();
});

describe.each([
  ['Express 5', 0],
  ['Fastify 5', 1],
])('%s behind the compiled /api chain', (_name, i) => {
  it('the REQUEST chain runs before the route (HttpHeaderSecurityFilter), the FORWARD-only filter does not', async () => {
    const r = await get(port(i), '/api/items/42');
    expect(r.status).toBe(200);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['cache-control']).toBeUndefined();
    expect(JSON.parse(r.body)).toMatchObject({ id: 42, dispatcher: 'REQUEST', forwardedFrom: null });
  });

  it('forward from a route runs the FORWARD chain of the target (ExpiresFilter on /items/*), then the framework routes it', async () => {
    const r = await get(port(i), '/api/latest');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('max-age=600');
    expect(r.headers['expires']).toBeDefined();
    expect(JSON.parse(r.body)).toMatchObject({ id: 42, dispatcher: 'FORWARD', forwardedFrom: '/api/latest' });
  });

  it("the connector limits of server.xml hold: a request head over maxHttpHeaderSize gets Tomcat's 400", async () => {
    const r = await get(port(i), '/api/items/42', { 'x-big': 'a'.repeat(9000) });
    expect(r.status).toBe(400);
  });
});

describe('exceptions (Express)', () => {
  it('a thrown NotFoundError goes to <exception-type>com.example.NotFoundError</exception-type> with status 500', async () => {
    const r = await get(port(0), '/api/items/7');
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ error: 'no item 7' });
  });
});
