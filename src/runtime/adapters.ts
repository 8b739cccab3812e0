/**
 * Putting a context in front of an application: plain node:http, Express 5
 * (the middleware is Connect-style already: `app.use(mw)`), and Fastify 5
 * (an onRequest hook on the raw request and response).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { charsetDecoder } from '../protocol/charset.js';
import type { ContextMiddleware } from './context.js';
import { exchangeOf } from './exchange.js';
import { decodeRequestPath, splitRequestTarget } from './request-path.js';

/** Something that runs requests through context chains: one context, or several mounted together. */
export interface ChainRunner {
  (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  run(req: IncomingMessage, res: ServerResponse, next: () => void, onStopped?: () => void): void;
}

/**
 * Several contexts as one middleware: each request goes to the context whose
 * path matches longest, as Tomcat's mapper picks one context per request;
 * requests no context owns go to `next`.
 */
export function mountContexts(contexts: readonly ContextMiddleware[]): ChainRunner {
  for (const c of contexts) assertMiddleware(c, 'mountContexts');
  const byLength = [...contexts].sort((a, b) => b.contextPath.length - a.contextPath.length);
  const utf8 = charsetDecoder('UTF-8')!;
  const run = (req: IncomingMessage, res: ServerResponse, next: () => void, onStopped?: () => void): void => {
    const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const decoded = decodeRequestPath(splitRequestTarget(target).path, utf8);
    // An undecodable path is answered (400) by whichever context runs it.
    const ctx = decoded === null ? byLength[0] : byLength.find((c) => c.owns(decoded));
    if (ctx === undefined) next();
    else ctx.run(req, res, next, onStopped);
  };
  const mw = ((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
    run(req, res, next as () => void)) as ChainRunner;
  mw.run = run;
  return mw;
}

/**
 * A node:http listener running the context's filters, then `handler` (by
 * default a bare 404). Requests outside the context path get a 404.
 */
export function toNodeListener(
  mw: ChainRunner,
  handler?: (req: IncomingMessage, res: ServerResponse) => void,
): RequestListener {
  assertMiddleware(mw, 'toNodeListener');
  const downstream = handler ?? notFound;
  // Bound, not a closure over req and res: a per-request closure the exchange holds was allocated in V8's old
  // generation and kept each request's objects alive until a full collection (most on Node 24; see Exchange.next).
  return (req, res) => mw.run(req, res, callDownstream.bind(undefined, downstream, req, res));
}

/**
 * What toNodeListener hands the context as `next`: `handler`, or a 404 when the request was outside the context
 * (the exchange exists only when the request was inside it).
 * What the handler returns is returned (a promise is watched for rejection).
 */
function callDownstream(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  req: IncomingMessage,
  res: ServerResponse,
): unknown {
  return (exchangeOf(req) === undefined ? notFound : handler)(req, res);
}

function notFound(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 404;
  res.end();
}

/** The parts of Fastify's request this adapter uses. */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
}

/** The parts of Fastify's reply this adapter uses. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/**
 * A Fastify `onRequest` hook: `fastify.addHook('onRequest', fastifyOnRequest(mw))`.
 * When a filter answers the request itself, the reply is hijacked so Fastify
 * does not try to send a second response.
 */
export function fastifyOnRequest(
  mw: ChainRunner,
): (request: FastifyRequestLike, reply: FastifyReplyLike, done: (err?: Error) => void) => void {
  assertMiddleware(mw, 'fastifyOnRequest');
  return function tollgateOnRequest(request, reply, done) {
    mw.run(request.raw, reply.raw, done as () => void, () => reply.hijack());
  };
}

/**
 * A Fastify content-type parser for `application/x-www-form-urlencoded`:
 * `fastify.addContentTypeParser('application/x-www-form-urlencoded', fastifyFormBodyParser)`.
 * A chain that parsed parameters has already consumed the body, so Fastify
 * could not read it again; this parser answers from the exchange instead
 * (parsing it now with Tomcat's rules when no filter did). `request.body`
 * becomes the request's parameters (query and body), every value an array.
 */
export function fastifyFormBodyParser(
  request: FastifyRequestLike,
  _payload: unknown,
  done: (err: Error | null, body?: Record<string, string[]>) => void,
): void {
  const ex = exchangeOf(request.raw);
  if (ex === undefined) {
    readUtf8Form(request.raw, done);
    return;
  }
  void ex.request.parseParameters().then(() => done(null, Object.fromEntries(ex.request.getParameterMap())));
}

/** Outside any context: a plain UTF-8 form parse, so the parser still works for every route. */
function readUtf8Form(req: IncomingMessage, done: (err: Error | null, body?: Record<string, string[]>) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('error', (err) => done(err));
  req.on('end', () => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) (out[k] ??= []).push(v);
    done(null, out);
  });
}

function assertMiddleware(mw: ChainRunner, fn: string): void {
  if (typeof mw !== 'function' || typeof mw.run !== 'function')
    throw new TypeError(`${fn} expects a middleware from createContextRuntime or mountContexts`);
}
