/** Shared by the filter tests: real configs from the zod schemas, a test-only "as if" filter, and log capture. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FilterSpec } from '../../../src/filters/spec.js';
import {
  exchangeOf,
  setLogLevel,
  setLogSink,
  type Exchange,
  type FilterDeclaration,
  type LogRecord,
  type RuntimeFilter,
  type RuntimeFilterFactory,
} from '../../../src/runtime/index.js';

/** A declaration whose config is the schema's output for these init-params (as the compiler would produce it). */
export function declare<C>(
  spec: FilterSpec<C>,
  factory: RuntimeFilterFactory<C>,
  params: Record<string, unknown> = {},
  filterName = spec.simpleName,
): FilterDeclaration<C> {
  return { filterName, className: spec.classNames[0]!, factory, config: spec.schema.parse(params) };
}

/**
 * Test-only stand-in for a proxy or another filter in front: X-Test-Addr sets
 * remoteAddr, X-Test-Scheme sets scheme (and secure for https), X-Test-Host
 * sets serverName and X-Test-Port serverPort, X-Test-Set-Header "name: value"
 * replaces a request header (so values Node's parser refuses, such as CR/LF,
 * can reach the filter under test).
 */
export const asIf: RuntimeFilter = {
  name: 'AsIf',
  doFilter(ex, next) {
    const r = ex.request;
    const addr = r.getHeader('x-test-addr');
    if (addr !== null) r.remoteAddr = addr;
    const scheme = r.getHeader('x-test-scheme');
    if (scheme !== null) {
      r.scheme = scheme;
      r.secure = scheme === 'https';
    }
    const host = r.getHeader('x-test-host');
    if (host !== null) r.serverName = host;
    const port = r.getHeader('x-test-port');
    if (port !== null) r.serverPort = Number(port);
    const set = r.getHeader('x-test-set-header');
    if (set !== null) {
      const colon = set.indexOf(':');
      r.setHeader(set.slice(0, colon), decodeURIComponent(set.slice(colon + 1).trim()));
    }
    return next();
  },
};

/** Downstream handler that reports what it saw of the exchange (fn's result as JSON). */
export function reportWith(fn: (ex: Exchange) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const ex = exchangeOf(req)!;
    let out: unknown;
    try {
      out = fn(ex);
    } catch (err) {
      out = { thrown: String(err) };
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(out ?? null));
  };
}

/** Captures log records from now on, at `level` for `logger`; call the returned stop function in afterEach. */
export function captureLogs(
  logger: string,
  level: 'FINE' | 'FINEST' | 'INFO' = 'FINE',
): { records: LogRecord[]; stop: () => void } {
  const records: LogRecord[] = [];
  setLogSink((r) => records.push(r));
  setLogLevel(logger, level);
  return {
    records,
    stop: () => {
      setLogSink(null);
      setLogLevel(logger, null);
    },
  };
}
