/**
 * What an operator's balancer and monitoring ask `tollgate serve`:
 *
 * - Tomcat 10.1's HealthCheckValve (server.xml, Engine or Host): `GET /health`
 *   answers `{"status": "UP", "checks": []}` (multi-line, as Tomcat writes it),
 *   or 503 DOWN when a context of its container did not start.
 * - A separate operations listener (`--ops-port`): `/ready` (200, or 503 with the
 *   reason while the state store is unreachable or the instance drains), `/live`,
 *   and `/metrics` in Prometheus text format (prom-client).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConfigElement } from '../model/index.js';
import { exchangeOf } from '../runtime/exchange.js';
import type { LoggedRequest } from './access-log.js';

export const HEALTH_CHECK_VALVE = 'org.apache.catalina.valves.HealthCheckValve';

/** HealthCheckValve's bodies, byte for byte (Tomcat 10.1's UP and DOWN constants). */
export const HEALTH_UP = '{\n  "status": "UP",\n  "checks": []\n}';
export const HEALTH_DOWN = '{\n  "status": "DOWN",\n  "checks": []\n}';

export interface HealthCheck {
  path: string;
  checkContainersAvailable: boolean;
}

/** The HealthCheckValve among `valves` (the last one wins, as only one answers), or null. */
export function healthCheckOf(valves: readonly ConfigElement[]): HealthCheck | null {
  let found: HealthCheck | null = null;
  for (const v of valves) {
    if (v.className?.value.trim() !== HEALTH_CHECK_VALVE) continue;
    const check = v.attributes['checkContainersAvailable']?.value.trim().toLowerCase();
    found ??= { path: v.attributes['path']?.value ?? '/health', checkContainersAvailable: check !== 'false' };
  }
  return found;
}

/** Answers as HealthCheckValve.invoke does: application/json, UP, or 503 DOWN when a child container is not available. */
export function answerHealth(res: ServerResponse, check: HealthCheck, available: boolean): void {
  const up = !check.checkContainersAvailable || available;
  res.statusCode = up ? 200 : 503;
  const body = up ? HEALTH_UP : HEALTH_DOWN;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}

/** The metrics one serve process keeps. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'status' | 'host' | 'context'>;
  private readonly latency: Histogram<'host' | 'context'>;
  private readonly refusals: Counter<'filter' | 'status'>;
  readonly reloads: Counter<'result'>;
  readonly storeUp: Gauge | null;

  constructor(storeHealthy: () => boolean | null) {
    this.requests = new Counter({
      name: 'tollgate_requests_total',
      help: 'Requests answered, by status, virtual host and context path',
      labelNames: ['status', 'host', 'context'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'tollgate_request_duration_seconds',
      help: 'Time from the request to the end of its response',
      labelNames: ['host', 'context'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.refusals = new Counter({
      name: 'tollgate_filter_refusals_total',
      help: 'Requests a filter answered itself with an error status (the servlet never ran), by filter',
      labelNames: ['filter', 'status'],
      registers: [this.registry],
    });
    this.reloads = new Counter({
      name: 'tollgate_reloads_total',
      help: 'SIGHUP reloads, by result',
      labelNames: ['result'],
      registers: [this.registry],
    });
    // Which process answered: under --workers the workers share the operations port, one scrape each.
    new Gauge({
      name: 'tollgate_process_info',
      help: 'The process that answered this scrape (under --workers, one of the workers sharing the port): 1, labelled with its pid',
      labelNames: ['pid'],
      registers: [this.registry],
    }).set({ pid: String(process.pid) }, 1);
    // Only with a store that can fail (Redis): the memory store has nothing to report.
    this.storeUp =
      storeHealthy() === null
        ? null
        : new Gauge({
            name: 'tollgate_state_store_up',
            help: 'Whether the shared state store (Redis) answers and is accepted: 1 yes, 0 no',
            registers: [this.registry],
            collect() {
              this.set(storeHealthy() === true ? 1 : 0);
            },
          });
  }

  /** Counts one finished request (the container calls it when the response closes). */
  observe(r: LoggedRequest, endNs: bigint): void {
    const host = r.host ?? '';
    const context = r.context ?? '';
    const status = String(r.res.statusCode);
    this.requests.inc({ status, host, context });
    this.latency.observe({ host, context }, Number(endNs - r.startNs) / 1e9);
    const ex = exchangeOf(r.req);
    if (ex !== undefined && !ex.reachedDownstream && r.res.statusCode >= 400) {
      const filter = ex.context.filters[ex.chain[ex.pos - 1] ?? -1];
      if (filter !== undefined) this.refusals.inc({ filter: filter.name, status });
    }
  }
}

export interface OpsOptions {
  port: number;
  address: string;
  metrics: Metrics;
  /** Why the instance is not ready (store unreachable, draining), or null when it is. */
  notReady: () => string | null;
  /** Asks the state store whether it answers before /ready is decided (Redis: a bounded PING); never rejects. */
  probe?: () => Promise<void>;
}

/** The operations listener: /ready, /live, /metrics; anything else 404. */
export async function startOpsServer(options: OpsOptions): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return;
    }
    if (path === '/live') {
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('live\n');
    } else if (path === '/ready') {
      const decide = (): void => {
        const why = options.notReady();
        res.statusCode = why === null ? 200 : 503;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(why === null ? 'ready\n' : `not ready: ${why}\n`);
      };
      if (options.probe) void options.probe().then(decide, decide);
      else decide();
    } else if (path === '/metrics') {
      options.metrics.registry.metrics().then(
        (text) => {
          res.setHeader('Content-Type', options.metrics.registry.contentType);
          res.end(text);
        },
        (err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        },
      );
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Whether a state backend answers (Redis exposes `healthy`); null for one that cannot fail (memory). */
export function storeHealth(state: unknown): boolean | null {
  const h = (state as { healthy?: unknown } | null | undefined)?.healthy;
  return typeof h === 'boolean' ? h : null;
}

/** The store's readiness probe (Redis has one: a PING bounded by its timeout), or undefined. */
export function storeProbe(state: unknown): (() => Promise<void>) | undefined {
  const s = state as { probe?: unknown } | null | undefined;
  return typeof s?.probe === 'function' ? () => (s.probe as () => Promise<void>).call(s) : undefined;
}

/** Why an instance with this container and store is not ready, or null. */
export function notReadyReason(container: { readonly draining: boolean }, state: unknown): string | null {
  if (container.draining) return 'draining (stopping or restarting)';
  if (storeHealth(state) === false) return 'the state store (Redis) does not answer or is refused';
  return null;
}
