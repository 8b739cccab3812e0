/**
 * Runtime benchmark (issues 4 and 9): requests per second and latency on
 * loopback for
 *   - the compiled 8-filter chain of bench/fixtures/runtime against a bare
 *     node:http handler, an equivalent Express 5 stack, an equivalent Fastify 5
 *     stack and real Tomcat 10.1 running the same web.xml;
 *   - each filter alone against no filter;
 *   - static files through the chain (`tollgate serve`) against Tomcat's
 *     default servlet serving the same files behind the same chain;
 *   - session creation (section `sessions`, not in the default list): a
 *     request through SessionInitializerFilter alone, which creates a session
 *     per request (no cookie is sent back), against the same request with no
 *     filter, in tollgate and in Tomcat: the difference in server CPU per
 *     request is each one's cost of creating a session.
 * Every server runs in its own process; autocannon runs here. Runs are
 * interleaved (run 1 of every variant, then run 2, ...) so drift in the
 * machine's speed touches all variants alike.
 *
 *   npm run build && npx tsx bench/runtime.ts [--seconds 5] [--runs 3]
 *     [--connections 50] [--sections chain,filters,serve] [--no-tomcat] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileBase } from '../src/compile/index.js';
import { loadBase } from '../src/parser/index.js';
import { load, spread, startServer, type LoadRun, type ServerProcess, type Spread } from './load.js';
import type { Variant } from './server.js';
import {
  compileServlets,
  freePort,
  startTomcat,
  tomcatAvailable,
  tomcatGlobalWebXml,
  type RunningTomcat,
} from './tomcat.js';

const repo = join(import.meta.dirname, '..');
const work = join(repo, 'bench', 'out', 'runtime');

/** What the load generator sends: a browser behind a proxy on loopback, allowed by every filter. */
export const REQUEST_HEADERS = { origin: 'https://a.example', 'x-forwarded-for': '203.0.113.5' };

export interface LoadRow {
  section: 'chain' | 'filters' | 'serve' | 'workers' | 'sessions';
  name: string;
  yardstick: string;
  rps: Spread;
  p50: Spread;
  p99: Spread;
  /** Server CPU time per request (µs): the cost independent of the load generator. */
  cpuUs: Spread;
  /** Median req/s over the yardstick's median req/s, measured in the same run. */
  ratio: number;
  non2xx: number;
  errors: number;
}

export interface RuntimeResult {
  settings: { seconds: number; runs: number; connections: number; tomcat: string };
  rows: LoadRow[];
  /** One response of each chain variant, to show they do the same work. */
  samples: Record<string, { status: number; headers: string[] }>;
}

export interface Target {
  name: string;
  port: number;
  /** The server process, for its CPU time. */
  pid?: number;
  path: string;
  stop(): Promise<void>;
}

/** The fixture webapp plus static files, and the compiled module of its context. */
export function prepare(): { base: string; module: string } {
  rmSync(work, { recursive: true, force: true });
  const base = join(work, 'base');
  cpSync(join(repo, 'bench', 'fixtures', 'runtime', 'webapps'), join(base, 'webapps'), { recursive: true });
  const staticDir = join(base, 'webapps', 'app', 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'app.css'), `${'body { margin: 0; padding: 0; }\n'.repeat(32)}`);
  writeFileSync(join(staticDir, 'app.js'), `${'console.log("tollgate benchmark asset");\n'.repeat(1560)}`);
  // 1 MiB: above Tomcat's cacheObjectMaxSize (512 KB), so both stream it from the disk.
  writeFileSync(join(staticDir, 'app.wasm'), Buffer.alloc(1 << 20, 'tollgate benchmark asset\n'));
  mkdirSync(join(base, 'conf'), { recursive: true });
  // The global descriptor Tomcat's side runs with (startTomcat copies the same file), so both answer a file with its
  // Content-Type from the same mime-mappings and ExpiresFilter picks the same by-type rule. Without it tollgate fell
  // back to the stock servlets alone (src/chain/stock.ts, no mime-mappings), sent app.css with no Content-Type and the
  // 10-minute default expiry where Tomcat sent text/css and 7 days: one header fewer than Tomcat wrote.
  const globalWebXml = tomcatGlobalWebXml();
  if (globalWebXml !== null) cpSync(globalWebXml, join(base, 'conf', 'web.xml'));
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    `<Server port="-1"><Service name="Catalina"><Connector port="8080" address="127.0.0.1"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n`,
  );
  const compiled = compileBase(loadBase({ base }));
  const mod = compiled.modules.find((m) => m.contextPath === '/app');
  if (!mod) throw new Error(`the fixture context did not compile: ${compiled.skipped.map((s) => s.reason).join('; ')}`);
  // Inside the package, so the module's `import 'tollgate/runtime'` resolves to this package's dist/.
  const module = join(work, 'compiled', mod.fileName);
  mkdirSync(join(module, '..'), { recursive: true });
  writeFileSync(module, mod.code);
  return { base, module };
}

async function nodeTarget(
  name: string,
  variant: Variant,
  path = '/app/hello',
  env: Record<string, string> = {},
): Promise<Target> {
  // fork() copies the environment when it is called: the variable is set for that one child.
  const saved = Object.keys(env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  let s: ServerProcess;
  try {
    s = await startServer(variant);
  } finally {
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  return { name, port: s.port, pid: s.child.pid, path, stop: s.stop };
}

/** `tollgate serve` over the prepared base, in its own process (its workers' too, with `--workers`). */
export async function serveTarget(
  base: string,
  path: string,
  args: string[] = [],
  name = 'tollgate serve',
): Promise<Target> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(repo, 'bin', 'tollgate.js'),
      'serve',
      '--base',
      base,
      '--port',
      String(port),
      '--address',
      '127.0.0.1',
      ...args,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // Generous: on a loaded machine `--workers auto` took over 20 s to have every worker listening.
  const deadline = Date.now() + 90_000;
  // "listening on" comes once every worker listens; the port alone answers as soon as the first does.
  while (!out.includes('listening on') || !(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tollgate serve did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  process.on('exit', () => child.kill('SIGKILL'));
  return {
    name,
    port,
    pid: child.pid,
    path,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

export function sample(port: number, path: string): Promise<{ status: number; headers: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: REQUEST_HEADERS }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const n = res.rawHeaders[i]!.toLowerCase();
          if (n !== 'date' && n !== 'keep-alive' && n !== 'connection')
            headers.push(`${n}: ${n === 'expires' ? '<date>' : res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: headers.sort(), body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Warms each target, then measures them round-robin `runs` times. */
export async function measure(
  targets: Target[],
  o: { seconds: number; runs: number; connections: number; warmSeconds: number },
): Promise<Map<string, LoadRun[]>> {
  const got = new Map<string, LoadRun[]>(targets.map((t) => [t.name, []]));
  for (const t of targets)
    await load(t.port, { path: t.path, seconds: o.warmSeconds, connections: o.connections, headers: REQUEST_HEADERS });
  for (let r = 0; r < o.runs; r++) {
    for (const t of targets) {
      got
        .get(t.name)!
        .push(
          await load(
            t.port,
            { path: t.path, seconds: o.seconds, connections: o.connections, headers: REQUEST_HEADERS },
            t.pid,
          ),
        );
      process.stderr.write('.');
    }
  }
  process.stderr.write('\n');
  return got;
}

export function rowsOf(section: LoadRow['section'], got: Map<string, LoadRun[]>, yardstick: string): LoadRow[] {
  const base = spread(got.get(yardstick)!.map((r) => r.rps)).median;
  return [...got].map(([name, runs]) => {
    const rps = spread(runs.map((r) => r.rps));
    return {
      section,
      name,
      yardstick,
      rps,
      p50: spread(runs.map((r) => r.p50)),
      p99: spread(runs.map((r) => r.p99)),
      cpuUs: spread(runs.map((r) => r.cpuPerRequestUs)),
      ratio: rps.median / base,
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      errors: runs.reduce((n, r) => n + r.errors, 0),
    };
  });
}

/** The files of the serve section (prepare() writes them), and the status each must answer. */
const SERVED = [
  { file: 'app.css', label: '1 KB', status: 200 },
  { file: 'app.js', label: '64 KB', status: 200 },
  { file: 'app.wasm', label: '1 MB', status: 200 },
  { file: 'missing.css', label: '404', status: 404 },
];

/** Each filter alone, configured so the benchmark request passes it. */
export const SINGLE_FILTERS: { id: string; params: Record<string, string> }[] = [
  { id: 'add-default-charset', params: { encoding: 'UTF-8' } },
  { id: 'cors', params: { 'cors.allowed.origins': 'https://a.example' } },
  { id: 'csrf-prevention', params: { entryPoints: '/hello' } },
  { id: 'expires', params: { ExpiresDefault: 'access plus 1 hour' } },
  { id: 'failed-request', params: {} },
  { id: 'http-header-security', params: { hstsMaxAgeSeconds: '31536000' } },
  { id: 'rate-limit', params: { bucketRequests: '2000000000' } },
  { id: 'remote-addr', params: { allow: '127\\.\\d+\\.\\d+\\.\\d+' } },
  { id: 'remote-cidr', params: { allow: '127.0.0.0/8, ::1/128' } },
  { id: 'remote-host', params: { allow: '127\\.\\d+\\.\\d+\\.\\d+' } },
  { id: 'remote-ip', params: {} },
  { id: 'request-dumper', params: {} },
  { id: 'rest-csrf-prevention', params: {} },
  { id: 'session-initializer', params: {} },
  { id: 'set-character-encoding', params: { encoding: 'UTF-8' } },
  { id: 'webdav-fix', params: {} },
];

const SESSION_FILTER_XML = `
  <filter><filter-name>SessionInitializer</filter-name><filter-class>org.apache.catalina.filters.SessionInitializerFilter</filter-class></filter>
  <filter-mapping><filter-name>SessionInitializer</filter-name><url-pattern>/*</url-pattern></filter-mapping>`;

/** A web.xml with the benchmark's servlet at /hello and `filters` before it. */
function sessionWebXml(filters: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">${filters}
  <servlet><servlet-name>hello</servlet-name><servlet-class>bench.HelloServlet</servlet-class></servlet>
  <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/hello</url-pattern></servlet-mapping>
</web-app>
`;
}

export async function run(o: {
  seconds: number;
  runs: number;
  connections: number;
  sections: string[];
  tomcat: boolean;
}): Promise<RuntimeResult> {
  const { base, module } = prepare();
  const avail = o.tomcat ? tomcatAvailable() : { ok: false as const, why: 'disabled with --no-tomcat' };
  let tomcat: RunningTomcat | null = null;
  const result: RuntimeResult = {
    settings: {
      seconds: o.seconds,
      runs: o.runs,
      connections: o.connections,
      tomcat: avail.ok ? avail.version : `not measured: ${avail.why}`,
    },
    rows: [],
    samples: {},
  };
  const opened: Target[] = [];
  try {
    if (avail.ok && (o.sections.includes('chain') || o.sections.includes('serve'))) {
      compileServlets(join(repo, 'bench', 'tomcat-src'), join(base, 'webapps', 'app'));
      tomcat = await startTomcat(join(base, 'webapps'));
    }
    const tomcatTarget = (path: string): Target[] =>
      tomcat
        ? [
            {
              name: `Tomcat ${avail.ok ? avail.version.replace('Apache Tomcat/', '') : ''}`.trim(),
              port: tomcat.port,
              pid: tomcat.pid,
              path,
              stop: async () => {},
            },
          ]
        : [];

    if (o.sections.includes('chain')) {
      const targets: Target[] = [
        await nodeTarget('bare node:http', { kind: 'bare' }),
        await nodeTarget("bare node:http writing the chain's response headers", { kind: 'bare-headers' }),
        await nodeTarget('the same headers in one writeHead call', { kind: 'bare-headers-one-call' }),
        await nodeTarget('tollgate compiled chain (8 filters)', { kind: 'compiled', module }),
        // The fallback of src/runtime/response-headers.ts: node:http's own header table, no method replaced.
        await nodeTarget('the same chain on the public-API header path', { kind: 'compiled', module }, '/app/hello', {
          TOLLGATE_HEADER_PATH: 'node',
        }),
        await nodeTarget('Express 5 (cors, helmet, proxy-addr, IP filter)', { kind: 'express' }),
        await nodeTarget('Fastify 5 (@fastify/cors, @fastify/helmet, trustProxy, IP hook)', { kind: 'fastify' }),
        ...tomcatTarget('/app/hello'),
      ];
      opened.push(...targets);
      for (const t of targets) {
        const s = await sample(t.port, t.path);
        if (s.status !== 200 || s.body !== 'hello')
          throw new Error(`${t.name} answered ${s.status} ${JSON.stringify(s.body.slice(0, 200))}`);
        result.samples[t.name] = { status: s.status, headers: s.headers };
      }
      // The JVM compiles hot paths for a while: give Tomcat a longer warm-up than the others get.
      if (tomcat)
        await load(tomcat.port, {
          path: '/app/hello',
          seconds: 15,
          connections: o.connections,
          headers: REQUEST_HEADERS,
        });
      result.rows.push(...rowsOf('chain', await measure(targets, { ...o, warmSeconds: 3 }), 'bare node:http'));
      for (const t of targets.splice(0)) await t.stop();
    }

    if (o.sections.includes('filters')) {
      const targets: Target[] = [await nodeTarget('no filter', { kind: 'filters', filters: [] })];
      for (const f of SINGLE_FILTERS) targets.push(await nodeTarget(f.id, { kind: 'filters', filters: [f] }));
      opened.push(...targets);
      for (const t of targets) {
        const s = await sample(t.port, t.path);
        if (s.status !== 200) throw new Error(`${t.name} alone answered ${s.status}`);
      }
      const seconds = Math.max(2, Math.round(o.seconds * 0.6));
      result.rows.push(...rowsOf('filters', await measure(targets, { ...o, seconds, warmSeconds: 1 }), 'no filter'));
      for (const t of targets.splice(0)) await t.stop();
    }

    if (o.sections.includes('sessions')) {
      let sessionTomcat: RunningTomcat | null = null;
      const targets: Target[] = [
        await nodeTarget('tollgate, no filter', { kind: 'filters', filters: [] }),
        await nodeTarget('tollgate, SessionInitializerFilter', {
          kind: 'filters',
          filters: [{ id: 'session-initializer', params: {} }],
        }),
      ];
      opened.push(...targets);
      if (avail.ok) {
        // Two applications in one Tomcat: the same servlet, one behind SessionInitializerFilter. Tomcat's
        // manager keeps every session for its 30 minutes (maxActiveSessions is unlimited); tollgate's store
        // holds 10,000 and evicts the least recently used.
        const webapps = join(work, 'session-webapps');
        for (const [app, filter] of [
          ['plain', ''],
          ['sess', SESSION_FILTER_XML],
        ] as const) {
          const dir = join(webapps, app);
          mkdirSync(join(dir, 'WEB-INF'), { recursive: true });
          writeFileSync(join(dir, 'WEB-INF', 'web.xml'), sessionWebXml(filter));
          compileServlets(join(repo, 'bench', 'tomcat-src'), dir);
        }
        sessionTomcat = await startTomcat(webapps);
        const name = `Tomcat ${avail.version.replace('Apache Tomcat/', '')}`;
        const stop = async (): Promise<void> => {};
        targets.push({
          name: `${name}, no filter`,
          port: sessionTomcat.port,
          pid: sessionTomcat.pid,
          path: '/plain/hello',
          stop,
        });
        targets.push({
          name: `${name}, SessionInitializerFilter`,
          port: sessionTomcat.port,
          pid: sessionTomcat.pid,
          path: '/sess/hello',
          stop,
        });
        await load(sessionTomcat.port, {
          path: '/plain/hello',
          seconds: 15,
          connections: o.connections,
          headers: REQUEST_HEADERS,
        });
        await load(sessionTomcat.port, {
          path: '/sess/hello',
          seconds: 15,
          connections: o.connections,
          headers: REQUEST_HEADERS,
        });
      }
      try {
        for (const t of targets) {
          const s = await sample(t.port, t.path);
          const creates = t.name.endsWith('SessionInitializerFilter');
          if (s.status !== 200 || s.headers.some((h) => h.startsWith('set-cookie: JSESSIONID=')) !== creates)
            throw new Error(`${t.name} answered ${s.status} ${s.headers.join('; ')}`);
        }
        result.rows.push(
          ...rowsOf('sessions', await measure(targets, { ...o, warmSeconds: 2 }), 'tollgate, no filter'),
        );
      } finally {
        for (const t of targets.splice(0)) await t.stop();
        await sessionTomcat?.stop();
      }
    }

    if (o.sections.includes('serve')) {
      for (const { file, label, status } of SERVED) {
        const path = `/app/static/${file}`;
        const targets: Target[] = [await serveTarget(base, path), ...tomcatTarget(path)];
        opened.push(...targets);
        for (const t of targets) {
          const s = await sample(t.port, t.path);
          if (s.status !== status) throw new Error(`${t.name} answered ${s.status} for ${path}, not ${status}`);
        }
        const got = await measure(targets, { ...o, warmSeconds: tomcat ? 5 : 2 });
        for (const [name, runs] of [...got]) {
          got.delete(name);
          got.set(`${name}: ${file} (${label})`, runs);
        }
        result.rows.push(...rowsOf('serve', got, `tollgate serve: ${file} (${label})`));
        for (const t of targets.splice(0)) if (t.name === 'tollgate serve') await t.stop();
      }
    }
  } finally {
    for (const t of opened) await t.stop().catch(() => undefined);
    await tomcat?.stop();
  }
  return result;
}

export function formatRuntime(r: RuntimeResult): string {
  const lines: string[] = [];
  for (const section of ['chain', 'filters', 'serve', 'sessions'] as const) {
    const rows = r.rows.filter((x) => x.section === section);
    if (!rows.length) continue;
    lines.push(`\n${section}: yardstick ${rows[0]!.yardstick}`);
    for (const x of rows) lines.push(rowLine(x, 60));
  }
  return lines.join('\n');
}

/** One row as the benchmarks print it on the terminal, its name padded to `width`. */
export function rowLine(x: LoadRow, width: number): string {
  return `  ${x.name.padEnd(width)} ${Math.round(x.rps.median).toString().padStart(7)} req/s (${Math.round(x.rps.min)}-${Math.round(x.rps.max)})  ${(x.ratio * 100).toFixed(0).padStart(4)}%  p50 ${x.p50.median} ms  p99 ${x.p99.median} ms  cpu ${x.cpuUs.median.toFixed(1)} µs/req${x.non2xx || x.errors ? `  non-2xx ${x.non2xx} errors ${x.errors}` : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      sections: { type: 'string', default: 'chain,filters,serve' },
      'no-tomcat': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const result = await run({
    seconds: Number(values.seconds),
    runs: Number(values.runs),
    connections: Number(values.connections),
    sections: values.sections!.split(','),
    tomcat: !values['no-tomcat'],
  });
  // Flush before exiting: stdout is a pipe when bench/run.ts reads it.
  process.stdout.write(
    `${values.json ? JSON.stringify(result) : `Tomcat: ${result.settings.tomcat}${formatRuntime(result)}`}\n`,
    () => process.exit(0),
  );
}
