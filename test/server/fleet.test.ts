/**
 * A fleet as an operator runs one: Debian's HAProxy in the foreground (round-robin, health-checking
 * each instance's /ready) in front of two `tollgate serve --workers 2` instances (each its own base,
 * as two machines would have) that share a real redis-server. Everything listens on 127.0.0.1; every
 * process is killed with its process group after the file.
 *
 * - The access log lines each instance wrote are the lines Tomcat 10.1 wrote for the same requests
 *   (recorded by scripts/record-fleet-access-log.ts into fixtures/tomcat-10.1.60-fleet-access-log.json).
 * - /metrics parses as Prometheus text and its request counters, summed over the four workers, are the
 *   requests sent.
 * - Redis killed: /ready answers 503 on every worker and HAProxy takes both instances out; Redis back:
 *   both are ready and back in.
 * - SIGHUP with a broken web.xml in one application: it keeps its previous configuration and the
 *   primary logs a SEVERE line with file:line:column.
 * - A host-manager `add` sent through the balancer reaches every instance (Redis pub/sub).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { register as promRegister } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../conformance/processes.js';
import { startRedis, type RedisProcess } from '../stores/redis-server.js';
import { needPackages } from '../system-packages.js';
import {
  ACCESS_LOG_PREFIX,
  bytesOf,
  FLEET_REQUESTS,
  normaliseLine,
  requestOf,
  writeFleetBase,
  type FleetRequest,
} from './fleet-base.js';
import { waitFor } from './http.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');
const ADMIN = 'Basic ' + Buffer.from('admin:s3cret').toString('base64');
const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'tomcat-10.1.60-fleet-access-log.json'), 'utf8'),
) as { requests: FleetRequest[]; lines: string[] };

/** Generous: two serve clusters, HAProxy and Redis on a machine other agents load too. */
const SLOW = 60_000;

interface Instance {
  name: string;
  base: string;
  port: number;
  opsPort: number;
  child: ChildProcess;
  out(): string;
  err(): string;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
let redis: RedisProcess;
let haproxy: { child: ChildProcess; port: number; socket: string; log(): string };
const fleet: Instance[] = [];

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function startServe(name: string): Promise<Instance> {
  const base = mkdtempSync(join(tmpdir(), `tg-fleet-${name}-`));
  dirs.push(base);
  writeFleetBase(base);
  const opsPort = await freePort();
  const child = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--base',
      base,
      '--port',
      '0',
      '--workers',
      '2',
      '--store',
      redis.url,
      '--ops-port',
      String(opsPort),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : undefined),
    SLOW,
    () => `serve ${name} did not start:\n${out}\n${err}`,
  );
  if (port === 'exited') throw new Error(`serve ${name} exited:\n${out}\n${err}`);
  return { name, base, port: Number(port), opsPort, child, out: () => out, err: () => err };
}

async function startHaproxy(servers: Instance[]): Promise<typeof haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-fleet-haproxy-'));
  dirs.push(dir);
  const port = await freePort();
  const socket = join(dir, 'admin.sock');
  const config = `global
  stats socket ${socket} mode 600 level admin
  maxconn 256
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  # Generous: a check that waits behind a loaded machine must not take a ready instance out.
  timeout check 10s
frontend www
  bind 127.0.0.1:${port}
  default_backend tollgate
backend tollgate
  balance roundrobin
  option httpchk
  http-check send meth GET uri /ready
  http-check expect status 200
  default-server inter 250ms fastinter 250ms downinter 250ms fall 3 rise 2
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check port ${s.opsPort}`).join('\n')}
`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  // -db: the foreground, no daemon; the system service is never involved.
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  return { child, port, socket, log: () => log };
}

/** A command on HAProxy's stats socket, and its answer. */
function haproxyCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(haproxy.socket);
    let answer = '';
    sock.on('connect', () => sock.write(`${command}\n`));
    sock.on('data', (d) => (answer += d));
    sock.on('end', () => resolve(answer));
    sock.on('error', reject);
  });
}

/** Each server of the backend and its status as HAProxy has it (UP, DOWN, or a transition such as "UP 1/2"). */
async function serverStates(): Promise<Record<string, string>> {
  const csv = (await haproxyCommand('show stat')).split('\n').filter(Boolean);
  const header = csv[0]!.replace(/^# /, '').split(',');
  const [px, sv, status] = ['pxname', 'svname', 'status'].map((h) => header.indexOf(h));
  const states: Record<string, string> = {};
  for (const row of csv.slice(1)) {
    const f = row.split(',');
    if (f[px!] === 'tollgate' && f[sv!] !== 'BACKEND') states[f[sv!]!] = f[status!]!;
  }
  return states;
}

/** Polls an asynchronous probe every 100 ms until it gives a value; after `ms`, fails with `why()`. */
async function until<T>(
  probe: () => Promise<T | undefined | null | false>,
  ms: number,
  why: () => string | Promise<string>,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${await why()}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function allStates(want: string): Promise<boolean> {
  const s = await serverStates();
  return fleet.every((i) => s[i.name] === want);
}

interface Answer {
  status: number;
  body: string;
  bytes: number;
}

/** One request on a connection of its own. */
function send(port: number, r: FleetRequest, host = 'localhost'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: r.path, method: r.method, agent: false, headers: { host, ...r.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: body.toString('utf8'), bytes: body.length });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

const get = (port: number, path: string, headers: Record<string, string> = {}, host?: string): Promise<Answer> =>
  send(port, { method: 'GET', path, headers }, host);

function accessLines(i: Instance): string[] {
  const dir = join(i.base, 'logs');
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${ACCESS_LOG_PREFIX}.`))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
}

/** Every request answered by an instance (not by HAProxy itself), by status: what /metrics must count. */
const answered = new Map<string, number>();
const counted = (status: number): void => void answered.set(String(status), (answered.get(String(status)) ?? 0) + 1);

beforeAll(async () => {
  needPackages('haproxy', 'redis-server');
  redis = await startRedis();
  fleet.push(...(await Promise.all([startServe('a'), startServe('b')])));
  haproxy = await startHaproxy(fleet);
  await until(
    () => allStates('UP'),
    SLOW,
    () => `HAProxy did not see both instances UP:\n${haproxy.log()}`,
  );
}, 4 * SLOW);

afterAll(async () => {
  for (const c of children) killGroup(c, 'SIGKILL');
  await Promise.all(
    children.map((c) =>
      c.exitCode !== null || c.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((r) => c.once('exit', () => r())),
    ),
  );
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, SLOW);

describe('HAProxy in front of two serve --workers 2 sharing Redis', () => {
  it(
    "writes, on each instance, Tomcat 10.1's access log lines for the requests it was given",
    async () => {
      expect(recorded.requests).toEqual(FLEET_REQUESTS);
      const ROUNDS = 2;
      // An odd number of requests per round: round-robin gives each instance every request over two rounds.
      const got: Answer[][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const [n, r] of FLEET_REQUESTS.entries()) {
          const a = await send(haproxy.port, r);
          (got[n] ??= []).push(a);
          counted(a.status);
        }
      }
      const total = FLEET_REQUESTS.length * ROUNDS;
      await until(
        async () => fleet.reduce((n, i) => n + accessLines(i).length, 0) >= total,
        SLOW,
        () => `the access logs hold fewer than ${total} lines`,
      );
      const perRequest = new Map<number, number>();
      for (const i of fleet) {
        const lines = accessLines(i);
        // Both instances took traffic: the balancer spread it.
        expect(lines.length, `instance ${i.name}`).toBeGreaterThan(0);
        for (const line of lines) {
          const n = requestOf(line);
          expect(n, `a line for no request sent: ${line}`).toBeGreaterThanOrEqual(0);
          expect(normaliseLine(line), `instance ${i.name}`).toBe(recorded.lines[n]);
          // An error report's length is tollgate's own (its footer): the count is what the client received.
          expect(bytesOf(line)).toBe(FLEET_REQUESTS[n]!.method === 'HEAD' ? 0 : got[n]![0]!.bytes);
          perRequest.set(n, (perRequest.get(n) ?? 0) + 1);
        }
      }
      expect([...perRequest.entries()].sort((x, y) => x[0] - y[0])).toEqual(FLEET_REQUESTS.map((_, n) => [n, ROUNDS]));
    },
    SLOW,
  );

  it(
    'serves /metrics as Prometheus text whose request counters, summed over the four workers, are the requests sent',
    async () => {
      const byStatus = new Map<string, number>();
      for (const i of fleet) {
        // Each scrape is answered by one worker (they share the operations port): scrape until both have.
        const scrapes = new Map<string, Map<string, number>>();
        await until(
          async () => {
            const r = await new Promise<{ type: string; text: string }>((resolve, reject) => {
              request({ host: '127.0.0.1', port: i.opsPort, path: '/metrics', agent: false }, (res) => {
                let text = '';
                res.setEncoding('utf8');
                res.on('data', (c: string) => (text += c));
                res.on('end', () => resolve({ type: String(res.headers['content-type']), text }));
              })
                .on('error', reject)
                .end();
            });
            expect(r.type).toBe(promRegister.contentType);
            const families = parsePrometheusTextFormat(r.text);
            const byName = new Map(families.map((f) => [f.name, f]));
            const pid = byName.get('tollgate_process_info')?.metrics[0]?.labels?.['pid'];
            expect(pid).toMatch(/^\d+$/);
            expect(byName.get('tollgate_requests_total')?.type).toBe('COUNTER');
            expect(byName.get('tollgate_request_duration_seconds')?.type).toBe('HISTOGRAM');
            expect(byName.get('tollgate_state_store_up')?.metrics[0]?.value).toBe('1');
            const counts = new Map<string, number>();
            for (const m of byName.get('tollgate_requests_total')?.metrics ?? []) {
              const status = m.labels!['status']!;
              counts.set(status, (counts.get(status) ?? 0) + Number(m.value));
            }
            scrapes.set(pid!, counts);
            return scrapes.size === 2;
          },
          SLOW,
          () => `instance ${i.name}: scrapes reached ${scrapes.size} worker(s) only`,
        );
        for (const counts of scrapes.values())
          for (const [status, n] of counts) byStatus.set(status, (byStatus.get(status) ?? 0) + n);
      }
      expect(new Map([...byStatus].filter(([, n]) => n > 0))).toEqual(answered);
    },
    2 * SLOW,
  );

  it(
    'is not ready while Redis is down, so HAProxy takes both instances out, and back in once Redis returns',
    async () => {
      const ready = async (i: Instance) => get(i.opsPort, '/ready');
      for (const i of fleet) expect(await ready(i)).toMatchObject({ status: 200, body: 'ready\n' });
      await redis.kill();
      // Each worker's connection closes: every scrape of /ready, whichever worker answers, says why.
      for (const i of fleet) {
        await until(
          async () => {
            const answers = await Promise.all([ready(i), ready(i), ready(i), ready(i)]);
            return answers.every(
              (a) =>
                a.status === 503 && a.body === 'not ready: the state store (Redis) does not answer or is refused\n',
            );
          },
          SLOW,
          () => `instance ${i.name} stayed ready with Redis down`,
        );
      }
      await until(
        () => allStates('DOWN'),
        SLOW,
        async () => `HAProxy kept an instance in: ${JSON.stringify(await serverStates())}`,
      );
      // The balancer answers itself now: no instance is in.
      expect((await get(haproxy.port, '/index.html')).status).toBe(503);
      // HealthCheckValve answers as Tomcat's: UP while every context runs (it does not look at the store).
      for (const i of fleet) expect((await get(i.port, '/health')).status).toBe(200);
      // A host change cannot reach the other instance now: refused, and applied nowhere.
      const refused = await get(fleet[0]!.port, '/host-manager/text/add?name=lone.example', { authorization: ADMIN });
      expect(refused.body).toBe(
        `FAIL - [add] was not applied: the instances sharing the state store [${redis.url}] cannot be told of it (Redis does not answer), and a change on this instance alone would make them serve different hosts. Try again once Redis answers\n`,
      );
      for (const i of fleet) {
        for (let n = 0; n < 2; n++) {
          const list = await get(i.port, '/host-manager/text/list', { authorization: ADMIN });
          expect(list.body).toBe('OK - Listed hosts\n[localhost]:[]\n');
        }
      }

      await redis.restart();
      for (const i of fleet)
        await until(
          async () => (await Promise.all([ready(i), ready(i), ready(i), ready(i)])).every((a) => a.status === 200),
          SLOW,
          () => `instance ${i.name} did not become ready again`,
        );
      await until(
        () => allStates('UP'),
        SLOW,
        async () => `HAProxy did not take the instances back: ${JSON.stringify(await serverStates())}`,
      );
      for (let n = 0; n < 4; n++) expect((await get(haproxy.port, '/index.html')).status).toBe(200);
    },
    4 * SLOW,
  );

  it(
    'keeps an application on its previous configuration after a SIGHUP with a broken web.xml, with a SEVERE line',
    async () => {
      const a = fleet[0]!;
      const webXml = join(a.base, 'webapps', 'app', 'WEB-INF', 'web.xml');
      // The welcome file goes, and the descriptor no longer parses (an element left open).
      writeFileSync(webXml, '<?xml version="1.0" encoding="UTF-8"?>\n<web-app version="6.0">\n  <filter>\n');
      process.kill(a.child.pid!, 'SIGHUP');
      const severe = await waitFor(
        () =>
          /SEVERE .*SIGHUP: context \[localhost\/app\] would not start with its configuration as it is now, so it keeps running its previous configuration: (\S+):(\d+):(\d+): .*/.exec(
            a.err() + a.out(),
          ),
        SLOW,
        () => `no SEVERE line:\n${a.out()}\n${a.err()}`,
      );
      expect(severe[1]).toBe(webXml);
      await waitFor(
        () => /SIGHUP: restarted: /.test(a.err() + a.out()),
        2 * SLOW,
        () => `the workers were not replaced:\n${a.out()}\n${a.err()}`,
      );
      await until(
        () => allStates('UP'),
        SLOW,
        async () => `HAProxy did not take instance a back: ${JSON.stringify(await serverStates())}`,
      );
      // Every request, whichever instance and worker: the welcome file of the previous configuration.
      for (let n = 0; n < 6; n++)
        expect(await get(haproxy.port, '/app/')).toMatchObject({ status: 200, body: 'twelve bytes' });
      for (let n = 0; n < 4; n++)
        expect(await get(a.port, '/app/')).toMatchObject({ status: 200, body: 'twelve bytes' });
    },
    4 * SLOW,
  );

  it(
    'applies a host-manager add and persist sent through the balancer on every instance and every worker',
    async () => {
      for (const i of fleet) {
        mkdirSync(join(i.base, 'newapps', 'ROOT'), { recursive: true });
        writeFileSync(join(i.base, 'newapps', 'ROOT', 'index.html'), 'the new host\n');
      }
      const added = await get(haproxy.port, '/host-manager/text/add?name=new.example&appBase=newapps', {
        authorization: ADMIN,
      });
      expect(added).toMatchObject({ status: 200, body: 'OK - Host [new.example] added\n' });
      // The instance that took it waited for the other's answer before it answered (the primaries' logs
      // arrive over their own pipes, so they are waited for).
      const took = await waitFor(
        () => {
          const t = fleet.filter((i) =>
            /host manager: add \[new\.example\] applied by 1 other instance\(s\) of the fleet/.test(i.err()),
          );
          return t.length > 0 ? t : undefined;
        },
        SLOW,
        () => fleet.map((i) => i.err()).join('\n'),
      );
      expect(took).toHaveLength(1);
      const other = fleet.find((i) => i !== took[0])!;
      await waitFor(
        () =>
          /host manager: add \[new\.example\] applied in 2 worker\(s\) \(announced by another instance/.test(
            other.err(),
          ),
        SLOW,
        () => other.err(),
      );
      // Every request, over several rounds of the balancer and on each instance directly (both workers).
      for (let n = 0; n < 8; n++)
        expect(await get(haproxy.port, '/index.html', {}, 'new.example')).toMatchObject({
          status: 200,
          body: 'the new host\n',
        });
      for (const i of fleet)
        for (let n = 0; n < 4; n++)
          expect(await get(i.port, '/index.html', {}, 'new.example')).toMatchObject({
            status: 200,
            body: 'the new host\n',
          });
      // persist through the balancer writes every instance's server.xml.
      const persisted = await get(haproxy.port, '/host-manager/text/persist', { authorization: ADMIN });
      expect(persisted.body).toBe('OK - Configuration persisted\n');
      for (const i of fleet)
        await waitFor(
          () =>
            /<Host appBase="newapps"[^>]* name="new\.example"/.test(
              readFileSync(join(i.base, 'conf', 'server.xml'), 'utf8'),
            ),
          SLOW,
          () =>
            `instance ${i.name}'s server.xml does not hold the host:\n${readFileSync(join(i.base, 'conf', 'server.xml'), 'utf8')}`,
        );
    },
    4 * SLOW,
  );
});
