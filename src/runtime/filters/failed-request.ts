/**
 * FailedRequestFilter: parses the parameters (reading a form body if there
 * is one) and rejects the request when parsing skipped anything: 413 for a
 * body over maxPostSize, 500 for an I/O error, 400 for everything else.
 */
import type { FailedRequestConfig } from '../../filters/failed-request.js';
import type { Exchange } from '../exchange.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<FailedRequestConfig> = () => ({
  name: 'FailedRequestFilter',
  doFilter(ex, next) {
    const parsing = ex.request.parseParameters();
    // Without a form body parsing is synchronous: decide at once, without a promise.
    if (ex.request.parametersParsed) return decide(ex, next);
    return decideAfter(parsing, ex, next);
  },
});

async function decideAfter(parsing: Promise<void>, ex: Exchange, next: NextFilter): Promise<void> {
  await parsing;
  return decide(ex, next);
}

function decide(ex: Exchange, next: NextFilter): FilterResult {
  const reason = ex.request.parameterFailure;
  if (reason === null) return next();
  ex.response.sendError(reason === 'POST_TOO_LARGE' ? 413 : reason === 'IO_ERROR' ? 500 : 400);
  return undefined;
}
