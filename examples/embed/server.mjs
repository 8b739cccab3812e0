// A compiled chain (tollgate compile --base examples/embed/base --out chains) in front of your own routes,
// in Express 5 and in Fastify 5, with a forward dispatch and an exception error page.
//
//   node examples/embed/server.mjs   (after npm run build; it compiles the base itself into a temporary folder)
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import Fastify from 'fastify';
import { compile, writeModules } from 'tollgate/compile';
import { createConnectorServer, exchangeOf, fastifyOnRequest, forward, planCatalinaBase, sendException } from 'tollgate/embed';

const HERE = dirname(fileURLToPath(import.meta.url));
const BASE = join(HERE, 'base');

/** Your error: its class name is what `<exception-type>com.example.NotFoundError</exception-type>` matches. */
export class NotFoundError extends Error {}

const items = new Map([['42', { id: 42, name: 'towel' }]]);

/**
 * Compiles the base and imports the /api context's module (what `tollgate compile` writes). The folder is
 * inside this package, so the module's `import 'tollgate/runtime'` resolves, as it does in your project.
 */
export async function compiledApi() {
  const out = mkdtempSync(join(HERE, '.chains-'));
  try {
    writeModules(compile(BASE).modules, out);
    return await import(pathToFileURL(join(out, 'localhost', 'api.mjs')).href);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Express 5: the chain first (URLs carry /api, as on Tomcat), then your routes. */
export function expressApp(api) {
  const app = express();
  app.use(api.createChain({ servlet: app }));
  app.get('/api/items/:id', (req, res) => {
    const item = items.get(req.params.id);
    if (!item) throw new NotFoundError(`no item ${req.params.id}`);
    const ex = exchangeOf(req);
    res.json({ ...item, dispatcher: ex.request.dispatcherType, forwardedFrom: ex.request.getAttribute('jakarta.servlet.forward.request_uri') ?? null });
  });
  // forward runs the FORWARD chain /items/* maps (ExpiresFilter), then the app routes the new URL.
  app.get('/api/latest', (req, res, next) => forward(req, res, '/items/42', app).catch(next));
  app.get('/api/errors/not-found', (req, res) => res.status(exchangeOf(req).response.status).json({ error: exchangeOf(req).request.getAttribute('jakarta.servlet.error.message') }));
  // A thrown error reaches Express's error handler: hand it to the context, which dispatches to <error-page>.
  app.use((err, req, res, next) => (exchangeOf(req) ? sendException(req, res, err) : next(err)));
  return app;
}

/** Fastify 5: the chain in an onRequest hook, your routes after it. */
export async function fastifyApp(api) {
  const app = Fastify();
  app.addHook('onRequest', fastifyOnRequest(api.default));
  app.get('/api/items/:id', async (request, reply) => {
    const item = items.get(request.params.id);
    if (!item) return reply.code(404).send({ error: 'not found' });
    const ex = exchangeOf(request.raw);
    return { ...item, dispatcher: ex.request.dispatcherType, forwardedFrom: ex.request.getAttribute('jakarta.servlet.forward.request_uri') ?? null };
  });
  // The forward's servlet is Fastify's own router: it routes /api/items/42 (the hook passes the dispatch through).
  app.get('/api/latest', (request, reply) => {
    reply.hijack();
    return forward(request.raw, reply.raw, '/items/42', (req, res) => app.routing(req, res));
  });
  await app.ready();
  return app;
}

/** Both, on 127.0.0.1, with server.xml's connector limits on each server. */
export async function start(ports = { express: 0, fastify: 0 }) {
  const api = await compiledApi();
  const { connector } = planCatalinaBase(BASE);
  const fastify = await fastifyApp(api);
  const servers = [createConnectorServer(connector, expressApp(api)), createConnectorServer(connector, (req, res) => fastify.routing(req, res))];
  await Promise.all(servers.map((s, i) => new Promise((r) => s.listen(i === 0 ? ports.express : ports.fastify, '127.0.0.1', r))));
  return { servers, close: () => Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); }))).then(() => fastify.close()) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { servers } = await start({ express: 3000, fastify: 3001 });
  for (const s of servers) console.log(`listening on http://127.0.0.1:${s.address().port}/api/latest`);
}
