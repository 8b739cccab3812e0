/**
 * AccessLogValve and HealthCheckValve against Tomcat 10.1: the same requests to both servers, then the same lines in the
 * Engine's, the Host's (the `common` pattern Tomcat's server.xml ships) and a context's (`combined`,
 * from its META-INF/context.xml) access logs, with the time of day and the port normalised. `%b`/`%B`
 * of an error report are compared with the body each side sent (its footer names the server).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, recordStep, send, sleep, startPair, type Pair, type Request, type Side } from './harness.js';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair(join(FIXTURES, 'access-log'));
});
afterAll(async () => {
  await pair?.stop();
});

const AREA = 'access log';

const REQUESTS: Request[] = [
  { path: '/app/a.txt?x=1&y', headers: { 'user-agent': 'probe/1.0', 'x-quote': 'say "hi" \\o/', cookie: 'k=v1; o=2' } },
  { path: '/app/a.txt', method: 'HEAD' },
  { path: '/app/a.txt', method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { path: '/app/a.txt', method: 'OPTIONS' },
  { path: '/app' },
  { path: '/app/missing.html' },
  { path: '/app/WEB-INF/web.xml' },
  { path: '/index.html', host: 'unknown.example' },
  { path: '/%7Eroot/../index.html?q=%20' },
  { path: '/health' },
  {
    path: '/fwd/a.txt',
    headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2', 'x-forwarded-proto': 'https', 'x-forwarded-by': '10.0.0.3' },
  },
  { path: '/fwd/a.txt', headers: { 'x-forwarded-for': '198.51.100.1' }, host: 'www.example.com:8443' },
];

function files(side: Side): Record<string, string[]> {
  const dir = join(side.base, 'logs');
  const out: Record<string, string[]> = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)) {
    // Tomcat's own logs (catalina, localhost) are not access logs.
    if (!/^(engine|localhost_access_log|app|remoteip)/.test(f)) continue;
    out[f] = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
  }
  return out;
}

/** The lines with the time of day and this side's port replaced, and the byte counts checked against what was sent. */
function normalised(side: Side, bodies: number[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, lines] of Object.entries(files(side))) {
    out[name] = lines.map((line) =>
      line.replace(/\[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]/, '[TIME]').replaceAll(String(side.port), 'PORT'),
    );
  }
  const engine = Object.entries(out).find(([n]) => n.startsWith('engine'))?.[1] ?? [];
  engine.forEach((line, i) => {
    const fields = line.split('|');
    const b = fields[fields.length - 2]!;
    const B = fields[fields.length - 1]!;
    // The body the client received is what the valve counted (none for HEAD).
    expect(Number(B), `${side.name}: ${line}`).toBe(bodies[i]);
    expect(b).toBe(bodies[i] === 0 ? '-' : String(bodies[i]));
  });
  const replaceBytes = (l: string) =>
    l.replace(/ (\d+|-)( "|$)/, ' BYTES$2').replace(/\|(\d+|-)\|(\d+)$/, '|BYTES|BYTES');
  for (const name of Object.keys(out)) out[name] = out[name]!.map(replaceBytes);
  return out;
}

describe("AccessLogValve writes Tomcat's lines", () => {
  it('the Engine, Host and context logs hold the same lines for the same requests', async () => {
    const bodies: Record<'tomcat' | 'tollgate', number[]> = { tomcat: [], tollgate: [] };
    for (const req of REQUESTS) {
      // One at a time, so both logs hold the lines in the same order.
      for (const side of [pair.tomcat, pair.tollgate]) {
        const res = await send(side, req);
        bodies[side.name].push(req.method === 'HEAD' ? 0 : Buffer.byteLength(res.body));
      }
      recordStep(AREA, `${req.method ?? 'GET'} ${req.path}: the same access log lines`);
    }
    // Lines are written once each response is complete: wait until both sides have them all.
    const deadline = Date.now() + 15_000;
    const count = (s: Side) => Object.values(files(s)).reduce((n, l) => n + l.length, 0);
    while ((count(pair.tomcat) < 42 || count(pair.tollgate) < 42) && Date.now() < deadline) await sleep(100);
    const tomcat = normalised(pair.tomcat, bodies.tomcat);
    const tollgate = normalised(pair.tollgate, bodies.tollgate);
    expect(Object.keys(tomcat).sort()).toEqual([
      'app',
      expect.stringMatching(/^engine\.\d{4}-\d\d-\d\d\.log$/),
      expect.stringMatching(/^localhost_access_log\.\d{4}-\d\d-\d\d\.txt$/),
      expect.stringMatching(/^remoteip\.\d{4}-\d\d-\d\d\.log$/),
    ]);
    expect(tollgate).toEqual(tomcat);
  });
  it("HealthCheckValve answers Tomcat's bytes", async () => {
    const [tomcat, tollgate] = await Promise.all([
      send(pair.tomcat, { path: '/health' }),
      send(pair.tollgate, { path: '/health' }),
    ]);
    recordStep('health check', 'GET /health: HealthCheckValve status, Content-Type and body');
    const seen = (r: typeof tomcat) => ({
      status: r.status,
      type: r.headers.find(([k]) => k === 'content-type')?.[1],
      body: r.body,
    });
    expect(seen(tomcat)).toEqual({
      status: 200,
      type: 'application/json',
      body: '{\n  "status": "UP",\n  "checks": []\n}',
    });
    expect(seen(tollgate)).toEqual(seen(tomcat));
  });
});
