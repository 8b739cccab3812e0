/**
 * One benchmark server in its own process, so the load generator and the
 * server each have a core. Started by bench/runtime.ts and bench/sessions.ts
 * with a JSON variant as the only argument; prints `{"port":N}` once
 * listening on 127.0.0.1, answers `{"type":"memory"}` IPC messages with
 * process.memoryUsage() (after a GC when --expose-gc is on) and exits when
 * its parent disconnects.
 *
 * Every variant answers GET /app/hello with "hello" as text/plain, UTF-8.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { BARE_HANDLERS, hello } from './handlers.js';

export type Variant =
  | { kind: 'bare' }
  | { kind: 'bare-headers' }
  | { kind: 'bare-headers-one-call' }
  | { kind: 'compiled'; module: string; session?: boolean }
  | {
      kind: 'filters';
      filters: { id: string; params: Record<string, string> }[];
      session?: boolean;
      sessionTimeoutMinutes?: number;
      maxActiveSessions?: number;
    }
  | { kind: 'express' }
  | { kind: 'fastify' };

/** The address ranges the IP filters of every stack allow (RemoteCIDRFilter's allow list in the fixture). */
const ALLOW = ['127.0.0.0/8', '::1/128', '203.0.113.0/24', '2001:db8::/32'];
const ORIGINS = ['https://a.example', 'https://b.example'];

/** The session store's size and evictions, for the session run. */
let sessionStats: () => { sessions: number; rejected: number } = () => ({ sessions: 0, rejected: 0 });

async function listener(v: Variant): Promise<http.RequestListener | 'fastify'> {
  const runtime = await import('../dist/runtime/index.js');
  switch (v.kind) {
    case 'bare':
    case 'bare-headers': // the response the compiled chain sends, written by hand: what the headers alone cost
    case 'bare-headers-one-call':
      return BARE_HANDLERS[v.kind];
    case 'compiled': {
      const mw = (await import(pathToFileURL(v.module).href)).default;
      return runtime.toNodeListener(mw, v.session ? withSession(runtime) : hello);
    }
    case 'filters': {
      const { filterSpecById, plannedFilter } = await import('../dist/filters/index.js');
      const filters = v.filters.map(({ id, params }) => {
        const spec = filterSpecById(id);
        if (!spec) throw new Error(`unknown filter ${id}`);
        return runtime.filterDeclaration(
          plannedFilter(spec.simpleName, spec.classNames[0]!, spec, spec.schema.parse(params)),
        );
      });
      const mw = runtime.createContextRuntime({
        contextPath: '/app',
        filters,
        sessionTimeoutMinutes: v.sessionTimeoutMinutes,
        maxActiveSessions: v.maxActiveSessions,
      });
      const store = mw.sessions.store as unknown as { size: number; rejected?: number };
      sessionStats = () => ({ sessions: store.size, rejected: store.rejected ?? 0 });
      return runtime.toNodeListener(mw, v.session ? withSession(runtime) : hello);
    }
    case 'express':
      return expressApp();
    case 'fastify':
      return 'fastify';
  }
}

/** The downstream handler of the session run: every request creates a session. */
function withSession(runtime: typeof import('../dist/runtime/index.js')): http.RequestListener {
  return (req, res) => {
    runtime.exchangeOf(req)!.request.getSession(true);
    hello(req, res);
  };
}

/** The equivalent Express 5 stack: proxy-addr, an IP allow list, cors, helmet, Cache-Control/Expires. */
async function expressApp(): Promise<http.RequestListener> {
  const express = (await import('express')).default;
  const cors = (await import('cors')).default;
  const helmet = (await import('helmet')).default;
  const proxyaddr = (await import('proxy-addr')).default;
  const allowed = proxyaddr.compile(ALLOW);
  const app = express();
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use((req, res, next) => {
    if (!allowed(req.ip ?? '', 0)) {
      res.status(403).end();
      return;
    }
    next();
  });
  app.use(cors({ origin: ORIGINS, exposedHeaders: ['X-Request-Id'] }));
  app.use(helmetLike(helmet));
  app.use((_req, res, next) => {
    res.setHeader('cache-control', 'max-age=3600');
    res.setHeader('expires', new Date(Date.now() + 3_600_000).toUTCString());
    next();
  });
  app.get('/app/hello', (_req, res) => {
    res.setHeader('content-type', 'text/plain; charset=UTF-8');
    res.end('hello');
  });
  return app as unknown as http.RequestListener;
}

/** helmet with the headers HttpHeaderSecurityFilter sends, and no others. */
function helmetLike(helmet: typeof import('helmet').default) {
  return helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: true,
  });
}

/** The equivalent Fastify 5 stack: trustProxy, an IP allow list hook, @fastify/cors, @fastify/helmet. */
async function fastifyServer(): Promise<{ port: number }> {
  const Fastify = (await import('fastify')).default;
  const cors = (await import('@fastify/cors')).default;
  const fhelmet = (await import('@fastify/helmet')).default;
  const proxyaddr = (await import('proxy-addr')).default;
  const allowed = proxyaddr.compile(ALLOW);
  const app = Fastify({ trustProxy: '127.0.0.1', logger: false });
  app.addHook('onRequest', async (req, reply) => {
    if (!allowed(req.ip, 0)) return reply.code(403).send();
  });
  await app.register(cors, { origin: ORIGINS, exposedHeaders: ['X-Request-Id'] });
  await app.register(fhelmet, {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: true,
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('cache-control', 'max-age=3600');
    reply.header('expires', new Date(Date.now() + 3_600_000).toUTCString());
    return payload;
  });
  app.get('/app/hello', async (_req, reply) => {
    reply.type('text/plain; charset=UTF-8');
    return 'hello';
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function main(): Promise<void> {
  const variant = JSON.parse(process.argv[2] ?? '{"kind":"bare"}') as Variant;
  const l = await listener(variant);
  let port: number;
  if (l === 'fastify') {
    ({ port } = await fastifyServer());
  } else {
    const server = http.createServer({ keepAliveTimeout: 60_000 }, l);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'memory') {
      gc?.();
      process.send!({ type: 'memory', usage: process.memoryUsage(), ...sessionStats() });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

await main();
