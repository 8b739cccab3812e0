/**
 * Compiled chain modules are real ES modules that import tollgate/runtime
 * (the built package, resolved by name as a user's code would): the same
 * module runs under node:http, Express 5 and Fastify 5.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBase } from '../../src/compile/index.js';
import { loadBase } from '../../src/parser/index.js';

// The built package's types: what a user of a compiled module gets.
type Middleware = import('tollgate/runtime').ContextMiddleware;
const repo = join(import.meta.dirname, '..', '..');
let out: string;
let api: Middleware;

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

async function expectChainRuns(port: number): Promise<void> {
  const cors = await get(port, '/api/items', { Origin: 'https://app.example.com' });
  expect(cors.status).toBe(200);
  expect(cors.body).toBe('downstream');
  expect(cors.headers['access-control-allow-origin']).toBe('https://app.example.com');
  expect(cors.headers['x-frame-options']).toBe('DENY');
  const refused = await get(port, '/api/items', { Origin: 'https://evil.example' });
  expect(refused.status).toBe(403);
  const noToken = await get(port, '/api/items', {}, 'POST');
  expect(noToken.status).toBe(403);
  expect(noToken.headers['x-csrf-token']).toBe('Required');
}

beforeAll(async () => {
  // Inside the package, so `import 'tollgate/runtime'` resolves to this package's dist/ by name.
  out = mkdtempSync(join(repo, 'test', '.compiled-'));
  for (const m of compileBase(loadBase({ base: join(repo, 'examples', 'base') })).modules) {
    mkdirSync(dirname(join(out, m.fileName)), { recursive: true });
    writeFileSync(join(out, m.fileName), m.code);
  }
  api = (await import(pathToFileURL(join(out, 'localhost', 'api.mjs')).href)).default as Middleware;
});

afterAll(() => {
  api?.destroy();
  rmSync(out, { recursive: true, force: true });
});

describe('a compiled chain module', () => {
  it('runs under node:http', async () => {
    const server = createServer((req, res) => api(req, res, () => res.end('downstream')));
    try {
      await expectChainRuns(await listen(server));
    } finally {
      server.close();
    }
  });

  it('runs under Express 5', async () => {
    const app = express();
    app.use(api);
    app.use((_req, res) => {
      res.send('downstream');
    });
    const server = createServer(app);
    try {
      await expectChainRuns(await listen(server));
    } finally {
      server.close();
    }
  });

  it('runs under Fastify 5', async () => {
    const { fastifyOnRequest } = await import('tollgate/runtime');
    const app = Fastify();
    app.addHook('onRequest', fastifyOnRequest(api));
    app.all('/api/*', async () => 'downstream');
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await expectChainRuns((app.server.address() as { port: number }).port);
    } finally {
      await app.close();
    }
  });
});
