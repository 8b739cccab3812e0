import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createContextRuntime,
  exchangeOf,
  fastifyFormBodyParser,
  fastifyOnRequest,
  mountContexts,
  toNodeListener,
  type ContextMiddleware,
  type RuntimeFilter,
} from '../../src/runtime/index.js';
import { request, type Served } from './serve.js';

/** Denies /app/private, adds a header from a commit hook, parses parameters asynchronously. */
const guard: RuntimeFilter = {
  name: 'Guard',
  async doFilter(ex, next) {
    ex.response.onBeforeCommit((e) => e.response.setHeader('x-guard', 'seen'));
    if (ex.request.servletPath.startsWith('/private')) {
      ex.response.sendError(403);
      return;
    }
    await ex.request.parseParameters();
    await next();
  },
};

function served(port: number, mw: ContextMiddleware): Served {
  return { mw, port, host: '127.0.0.1', close: async () => undefined };
}

describe('Express 5', () => {
  let mw: ContextMiddleware;
  let mounted: ContextMiddleware;
  let server: import('node:http').Server;
  let s: Served;
  beforeAll(async () => {
    mw = createContextRuntime({ contextPath: '/app', filters: [guard] });
    mounted = createContextRuntime({ contextPath: '/mounted', filters: [guard] });
    const app = express();
    app.use(mw);
    app.use('/mounted', mounted);
    app.post('/app/form', (req, res) => {
      const ex = exchangeOf(req)!;
      res.json({ a: ex.request.getParameter('a'), addr: ex.request.remoteAddr, path: ex.request.servletPath });
    });
    app.get('/mounted/x', (req, res) => res.send(exchangeOf(req)!.request.servletPath));
    app.get('/other', (req, res) => res.send(exchangeOf(req) === undefined ? 'no exchange' : 'exchange'));
    await new Promise<void>((r) => {
      server = app.listen(0, '127.0.0.1', () => r());
    });
    s = served((server.address() as AddressInfo).port, mw);
  });
  afterAll(async () => {
    mw.destroy();
    mounted.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('runs the chain as app.use(mw): routes see the exchange and the parsed form body', async () => {
    const r = await request(s, '/app/form?a=1', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'b=2',
    });
    expect(r.status).toBe(200);
    expect(r.headers['x-guard']).toBe('seen');
    expect(JSON.parse(r.body)).toEqual({ a: '1', addr: '127.0.0.1', path: '/form' });
  });

  it('lets a filter answer for Express, and fires the commit hook for responses Express writes', async () => {
    const denied = await request(s, '/app/private/x');
    expect([denied.status, denied.headers['x-guard']]).toEqual([403, 'seen']);
    const notFound = await request(s, '/app/nothing');
    expect([notFound.status, notFound.headers['x-guard']]).toEqual([404, 'seen']);
  });

  it('works under a mount path (app.use("/mounted", mw)) and passes other paths through untouched', async () => {
    expect((await request(s, '/mounted/x')).body).toBe('/x');
    expect((await request(s, '/mounted/private')).status).toBe(403);
    expect((await request(s, '/other')).body).toBe('no exchange');
  });
});

describe('Fastify 5', () => {
  let mw: ContextMiddleware;
  let app: FastifyInstance;
  let s: Served;
  beforeAll(async () => {
    mw = createContextRuntime({ contextPath: '/app', filters: [guard] });
    app = Fastify();
    app.addHook('onRequest', fastifyOnRequest(mw));
    app.addContentTypeParser('application/x-www-form-urlencoded', fastifyFormBodyParser);
    app.post('/app/form', async (request: FastifyRequest) => request.body);
    app.post('/outside', async (request: FastifyRequest) => request.body);
    app.get('/app/hello', async (request: FastifyRequest) => {
      const ex = exchangeOf(request.raw)!;
      return { q: ex.request.getParameter('q'), addr: ex.request.remoteAddr };
    });
    app.get('/app/private', async () => 'should not run');
    await app.listen({ port: 0, host: '127.0.0.1' });
    s = served((app.server.address() as AddressInfo).port, mw);
  });
  afterAll(async () => {
    mw.destroy();
    await app.close();
  });

  it("runs the chain in an onRequest hook; routes see the exchange; the hook fires for Fastify's reply", async () => {
    const r = await request(s, '/app/hello?q=z');
    expect(r.status).toBe(200);
    expect(r.headers['x-guard']).toBe('seen');
    expect(JSON.parse(r.body)).toEqual({ q: 'z', addr: '127.0.0.1' });
  });

  it('lets a filter answer: Fastify does not run the route or send a second response', async () => {
    const r = await request(s, '/app/private');
    expect(r.status).toBe(403);
    expect(r.body).toContain('HTTP Status 403');
    // The server keeps serving after a hijacked reply.
    expect((await request(s, '/app/hello')).status).toBe(200);
  });

  it('hands the form body a filter consumed to Fastify routes through fastifyFormBodyParser', async () => {
    const r = await request(s, '/app/form?q=1', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&a=2',
    });
    expect([r.status, JSON.parse(r.body)]).toEqual([200, { q: ['1'], a: ['1', '2'] }]);
    const outside = await request(s, '/outside', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'b=%C3%A9',
    });
    expect([outside.status, JSON.parse(outside.body)]).toEqual([200, { b: ['é'] }]);
  });

  it('passes requests outside the context to Fastify untouched', async () => {
    expect((await request(s, '/elsewhere')).status).toBe(404);
  });
});

describe('several contexts', () => {
  function tagging(tag: string): RuntimeFilter {
    return {
      name: tag,
      doFilter(ex, next) {
        ex.response.onBeforeCommit((e) => e.response.addHeader('x-contexts', tag));
        return next();
      },
    };
  }

  it('mountContexts sends each request to the longest matching context only, as Tomcat maps one context per request', async () => {
    const root = createContextRuntime({ filters: [tagging('root')] });
    const shop = createContextRuntime({ contextPath: '/shop', filters: [tagging('shop')] });
    const http = await import('node:http');
    const server = http.createServer(
      toNodeListener(mountContexts([root, shop]), (req, res) => res.end(exchangeOf(req)!.request.contextPath)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const s = served((server.address() as AddressInfo).port, shop);
    try {
      const inShop = await request(s, '/shop/cart');
      expect([inShop.body, inShop.headers['x-contexts']]).toEqual(['/shop', 'shop']);
      const inRoot = await request(s, '/shopping');
      expect([inRoot.body, inRoot.headers['x-contexts']]).toEqual(['', 'root']);
      expect((await request(s, '/shop/%2e%2e/%2e%2e/x')).status).toBe(400);
    } finally {
      root.destroy();
      shop.destroy();
      server.close();
    }
  });

  it('a context skips a request another context already took (app.use of both, longest first)', async () => {
    const root = createContextRuntime({ filters: [tagging('root')] });
    const shop = createContextRuntime({ contextPath: '/shop', filters: [tagging('shop')] });
    const app = express();
    app.use(shop);
    app.use(root);
    app.get('/{*rest}', (req, res) => res.send(exchangeOf(req)!.request.contextPath));
    let server!: import('node:http').Server;
    await new Promise<void>((r) => {
      server = app.listen(0, '127.0.0.1', () => r());
    });
    const s = served((server.address() as AddressInfo).port, shop);
    try {
      const r = await request(s, '/shop/x');
      expect([r.body, r.headers['x-contexts']]).toEqual(['/shop', 'shop']);
      expect((await request(s, '/x')).headers['x-contexts']).toBe('root');
    } finally {
      root.destroy();
      shop.destroy();
      server.close();
    }
  });
});
