/**
 * RequestDispatcher for Node handlers behind a context: forward and include
 * to another path of the same context (the FORWARD/INCLUDE filter chains
 * that path maps run, then the servlet), and errors sent the servlet way
 * (`sendError`, a thrown exception) so the context's `<error-page>`s and
 * the ERROR chain apply.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exchangeOf, sendThrowable, type Exchange, type Servlet } from './exchange.js';

export type { Servlet };

function exchangeFor(req: IncomingMessage, fn: string): Exchange {
  const ex = exchangeOf(req);
  if (ex === undefined) throw new TypeError(`${fn}: the request did not pass through a tollgate context`);
  return ex;
}

/**
 * `request.getRequestDispatcher(location).forward(request, response)`:
 * `location` is context-relative (`/items/1?x=2`). `servlet` handles the
 * target (default: the context's `servlet` option); a framework's router
 * works too (Express: the app; Fastify: `fastify.routing`), since `req.url`
 * is the target's while it runs. Rejects when the response is committed, and
 * with what the servlet threw.
 */
export function forward(
  req: IncomingMessage,
  _res: ServerResponse,
  location: string,
  servlet?: Servlet,
): Promise<void> {
  const ex = exchangeFor(req, 'forward');
  return ex.context.dispatch(ex, 'FORWARD', location, servlet ?? null);
}

/** `getRequestDispatcher(location).include(request, response)`: the target writes into the same, still open, response. */
export function include(
  req: IncomingMessage,
  _res: ServerResponse,
  location: string,
  servlet?: Servlet,
): Promise<void> {
  const ex = exchangeFor(req, 'include');
  return ex.context.dispatch(ex, 'INCLUDE', location, servlet ?? null);
}

/** `response.sendError(status, message)`: the context's error page for the status (ERROR chain), else the report. */
export function sendError(req: IncomingMessage, _res: ServerResponse, status: number, message?: string): boolean {
  return exchangeFor(req, 'sendError').response.sendError(status, message);
}

/**
 * What the container does with an exception a servlet throws: the
 * `<exception-type>` page matching it (status 500, the
 * jakarta.servlet.error.exception attributes set), else the 500 page, else
 * the report. Does nothing once the response is committed.
 */
export function sendException(req: IncomingMessage, _res: ServerResponse, error: unknown): void {
  sendThrowable(exchangeFor(req, 'sendException'), error);
}
