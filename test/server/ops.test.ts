/**
 * HealthCheckValve (Tomcat's bytes: test/conformance/access-log.conformance.test.ts), the operations
 * listener's /ready and /live, and /metrics in Prometheus text format.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startContainer, type Container } from '../../src/server/container.js';
import {
  HEALTH_DOWN,
  HEALTH_UP,
  Metrics,
  notReadyReason,
  startOpsServer,
  storeHealth,
  storeProbe,
} from '../../src/server/ops.js';
import { createRedisBackend } from '../../src/stores/redis.js';
import { setLogSink } from '../../src/runtime/index.js';
import { startRedis } from '../stores/redis-server.js';
import { makeBase } from './harness.js';
import { ask } from './http.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const xml = (engineValves: string, hostValves = ''): string => `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1"/>
    <Engine name="Catalina" defaultHost="localhost">
      ${engineValves}
      <Host name="localhost" appBase="webapps">${hostValves}</Host>
    </Engine>
  </Service>
</Server>
`;

const DENY_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter><filter-name>deny</filter-name><filter-class>org.apache.catalina.filters.RemoteAddrFilter</filter-class>
    <init-param><param-name>allow</param-name><param-value>10\\.9\\.9\\.9</param-value></init-param></filter>
  <filter-mapping><filter-name>deny</filter-name><url-pattern>/private/*</url-pattern></filter-mapping>
</web-app>
`;

async function start(engineValves: string, hostValves = '', broken = false, metrics?: Metrics): Promise<Container> {
  const base = makeBase(xml(engineValves, hostValves));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  mkdirSync(join(base, 'webapps', 'ROOT', 'WEB-INF'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'ROOT', 'WEB-INF', 'web.xml'), DENY_WEB_XML);
  if (broken) {
    // A context Tomcat refuses (a web.xml it cannot parse): HealthCheckValve reports DOWN.
    mkdirSync(join(base, 'webapps', 'bad', 'WEB-INF'), { recursive: true });
    writeFileSync(join(base, 'webapps', 'bad', 'WEB-INF', 'web.xml'), '<web-app><filter>');
  }
  const c = await startContainer({ base, port: 0, log: () => {}, ...(metrics ? { metrics } : {}) });
  cleanups.push(() => c.stop());
  return c;
}

describe('HealthCheckValve', () => {
  it('answers UP on /health from an Engine valve, and DOWN (503) while a context did not start', async () => {
    const up = await start('<Valve className="org.apache.catalina.valves.HealthCheckValve"/>');
    const r = await ask(up.port, '/health');
    expect([r.status, r.headers['content-type'], r.text]).toEqual([200, 'application/json', HEALTH_UP]);
    expect((await ask(up.port, '/health/x')).status).toBe(404);
    const down = await start('<Valve className="org.apache.catalina.valves.HealthCheckValve"/>', '', true);
    const d = await ask(down.port, '/health');
    expect([d.status, d.text]).toEqual([503, HEALTH_DOWN]);
  });

  it('takes a Host valve with its own path, and checkContainersAvailable="false" answers UP regardless', async () => {
    const c = await start(
      '',
      '<Valve className="org.apache.catalina.valves.HealthCheckValve" path="/hc" checkContainersAvailable="false"/>',
      true,
    );
    expect((await ask(c.port, '/hc')).text).toBe(HEALTH_UP);
    expect((await ask(c.port, '/health')).status).toBe(404);
  });
});

/** Reads Prometheus text exposition: every sample line `name{labels} value`, after its # HELP and # TYPE. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        typed.add(meta[2]!);
      }
      continue;
    }
    const m =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+]+|NaN|\+Inf|-Inf)$/.exec(
        line,
      );
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const family = m![1]!.replace(/_(bucket|sum|count)$/, '');
    expect(typed.has(m![1]!) || typed.has(family), `no # TYPE for ${m![1]}`).toBe(true);
    samples.set(`${m![1]}${m![2] ?? ''}`, Number(m![3]));
  }
  return samples;
}

describe('the operations listener', () => {
  it('counts requests by status, host and context, the latency, and filter refusals by filter', async () => {
    const metrics = new Metrics(() => null);
    const c = await start('<Valve className="org.apache.catalina.valves.HealthCheckValve"/>', '', false, metrics);
    for (let i = 0; i < 3; i++) await ask(c.port, '/index.html');
    await ask(c.port, '/missing');
    await ask(c.port, '/private/x');
    await ask(c.port, '/private/y');
    const ops: Server = await startOpsServer({ port: 0, address: '127.0.0.1', metrics, notReady: () => null });
    cleanups.push(() => void ops.close());
    const port = (ops.address() as { port: number }).port;
    const r = await ask(port, '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = parseExposition(r.text);
    expect(s.get('tollgate_requests_total{status="200",host="localhost",context=""}')).toBe(3);
    expect(s.get('tollgate_requests_total{status="404",host="localhost",context=""}')).toBe(1);
    expect(s.get('tollgate_requests_total{status="403",host="localhost",context=""}')).toBe(2);
    expect(s.get('tollgate_request_duration_seconds_count{host="localhost",context=""}')).toBe(6);
    expect(s.get('tollgate_filter_refusals_total{filter="RemoteAddrFilter",status="403"}')).toBe(2);
    // No store: no store gauge sample.
    expect([...s.keys()].some((k) => k.startsWith('tollgate_state_store_up'))).toBe(false);
    expect((await ask(port, '/live')).text).toBe('live\n');
    expect((await ask(port, '/nothing')).status).toBe(404);
  });

  it('is not ready while the instance drains', async () => {
    const c = await start('');
    expect(notReadyReason(c, undefined)).toBeNull();
    const ops = await startOpsServer({
      port: 0,
      address: '127.0.0.1',
      metrics: new Metrics(() => null),
      notReady: () => notReadyReason(c, undefined),
    });
    cleanups.push(() => void ops.close());
    const port = (ops.address() as { port: number }).port;
    expect((await ask(port, '/ready')).status).toBe(200);
    void c.drain(60_000);
    const r = await ask(port, '/ready');
    expect([r.status, r.text]).toEqual([503, 'not ready: draining (stopping or restarting)\n']);
  });

  it('is not ready while Redis does not answer, and ready again once it does', async () => {
    setLogSink(() => undefined);
    cleanups.push(() => setLogSink(null));
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const state = createRedisBackend({ url: redis.url, timeoutMs: 300 });
    cleanups.push(() => state.close());
    expect(await state.ready(5_000)).toBe(true);
    const draining = { draining: false };
    expect(notReadyReason(draining, state)).toBeNull();
    expect(storeHealth(state)).toBe(true);
    await redis.kill();
    // The connection notices the loss at once (the socket closes).
    const deadline = Date.now() + 120_000;
    while (storeHealth(state) !== false && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(notReadyReason(draining, state)).toBe('the state store (Redis) does not answer or is refused');
    await redis.restart();
    while (storeHealth(state) !== true && Date.now() < deadline + 120_000) await new Promise((r) => setTimeout(r, 50));
    expect(notReadyReason(draining, state)).toBeNull();
  });

  it('is not ready while Redis hangs (SIGSTOP) although no request touched it: /ready asks Redis itself', async () => {
    setLogSink(() => undefined);
    cleanups.push(() => setLogSink(null));
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    cleanups.push(() => redis.resume());
    const state = createRedisBackend({ url: redis.url, timeoutMs: 300 });
    cleanups.push(() => state.close());
    expect(await state.ready(5_000)).toBe(true);
    const draining = { draining: false };
    const ops = await startOpsServer({
      port: 0,
      address: '127.0.0.1',
      metrics: new Metrics(() => storeHealth(state)),
      notReady: () => notReadyReason(draining, state),
      probe: storeProbe(state),
    });
    cleanups.push(() => void ops.close());
    const port = (ops.address() as { port: number }).port;
    expect((await ask(port, '/ready')).status).toBe(200);
    redis.pause();
    // Past the second within which an answer spares the probe (time only grows: no race).
    await new Promise((r) => setTimeout(r, 1_100));
    // No command is under way: the PING of the probe is what finds the hang (its reply never comes).
    const hung = await ask(port, '/ready');
    expect([hung.status, hung.text]).toEqual([
      503,
      'not ready: the state store (Redis) does not answer or is refused\n',
    ]);
    redis.resume();
    let status = 0;
    for (let i = 0; i < 2_400 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await ask(port, '/ready')).status;
    }
    expect(status).toBe(200);
  });
});
