/**
 * What real Tomcat 10.1 does with each rule's failing fixture (issue 17): the fixtures of
 * test/conformance/rule-fixtures.ts are deployed in runs of one `catalina.sh run` each, and each run
 * records whether the server started, whether each context started, the SEVERE and WARNING lines
 * Tomcat logged for it, and the answers to the probe requests of PROBES.
 *
 * - Fixtures made only of one application (webapps/app…) and the same conf/ files share a run: the
 *   application is renamed after the fixture (webapps/<rule>-<n>), one context each. Any other fixture
 *   (a server.xml mistake, a second application) has a run of its own.
 * - Every Connector is moved to its own free port on 127.0.0.1 and the shutdown port, when enabled, to a
 *   free one too (Server address 127.0.0.1). Missing conf/ files are Debian's stock ones; a fixture's
 *   catalina.properties is appended to the stock one (Tomcat cannot load its classes without the loaders).
 * - Host deploys one application after the other (startStopThreads 1), so the lines between
 *   "Deploying … [dir]" and "Deployment of … has finished" are that context's.
 *
 * scripts/observe-rules.ts writes the result to test/fixtures/tomcat-observed/rules.json; the
 * conformance test rules-observed.conformance.test.ts records again and compares.
 * Test tooling only: nothing here ships.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Files } from '../lint/rule-cases.js';
import { freePort, track } from './processes.js';
import { fixtureHash, type FailFixture } from './rule-fixtures.js';

export const CATALINA_HOME = process.env.CATALINA_HOME ?? '/usr/share/tomcat10';
const STOCK = join(CATALINA_HOME, 'etc');
const STARTUP_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------- what is recorded

export interface ProbeResult {
  request: string;
  status: number | null;
  /** The response headers the probe records (lower-cased names), absent ones left out. */
  headers: Record<string, string>;
  /** SEVERE / WARNING lines Tomcat logged while answering. */
  log: string[];
}
export interface ContextObservation {
  /** '' for ROOT. */
  path: string;
  started: boolean;
  log: string[];
}
export interface FixtureObservation {
  rule: string;
  n: number;
  source: string;
  /** fixtureHash of the files observed. */
  hash: string;
  server: 'started' | 'failed';
  /** SEVERE / WARNING lines of the server itself (not of a context's deployment). */
  serverLog: string[];
  contexts: ContextObservation[];
  probes: ProbeResult[];
}

// ---------------------------------------------------------------- probes

export interface Probe {
  method?: string;
  /** Relative to the fixture's context (default index.html). */
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Over the HTTP connector marked secure (HSTS is sent on secure requests only). */
  secure?: boolean;
  /** Response headers to record; `set-cookie`'s session id is masked. */
  record?: string[];
}

const ORIGIN = { Origin: 'https://a.example' };
const CORS_RECORD = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'vary',
];
const PREFLIGHT = (headers: Record<string, string> = {}): Probe => ({
  method: 'OPTIONS',
  headers: { ...ORIGIN, 'Access-Control-Request-Method': 'GET', ...headers },
  record: [
    'access-control-allow-origin',
    'access-control-allow-methods',
    'access-control-allow-headers',
    'access-control-max-age',
  ],
});
const POST = (path: string): Probe => ({
  method: 'POST',
  path,
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: 'a=b',
});
const SECURITY_HEADERS = ['strict-transport-security', 'x-frame-options', 'x-content-type-options'];

/**
 * The requests whose answers show what a rule is about, beyond "the context answers GET index.html"
 * (every context gets that one). A rule not listed here is about start-up, or about something a request
 * from 127.0.0.1 cannot show (a proxy's address, a second machine, time).
 */
export const PROBES: Record<string, Probe[]> = {
  'hsts-max-age-zero': [{ secure: true, record: SECURITY_HEADERS }],
  'hsts-disabled': [{ secure: true, record: SECURITY_HEADERS }],
  'hsts-missing': [{ secure: true, record: SECURITY_HEADERS }],
  'security-header-disabled': [{ secure: true, record: SECURITY_HEADERS }],
  'frame-options-allow-from': [{ record: ['x-frame-options'] }],
  'filter-param-boolean-spelling': [{ secure: true, record: SECURITY_HEADERS }],
  'filter-param-not-in-target': [{ secure: true, record: ['x-xss-protection', ...SECURITY_HEADERS] }],
  'header-filter-overridden': [{ secure: true, record: SECURITY_HEADERS }],
  'cors-any-origin': [{ headers: { Origin: 'https://evil.example' }, record: CORS_RECORD }],
  'cors-credentials-with-any-origin': [{ headers: { Origin: 'https://evil.example' }, record: CORS_RECORD }],
  'cors-no-allowed-origins': [{ headers: ORIGIN, record: CORS_RECORD }],
  'cors-http-origin': [{ headers: { Origin: 'http://localhost:8000' }, record: CORS_RECORD }],
  'cors-exposes-cors-headers': [{ headers: ORIGIN, record: CORS_RECORD }],
  'cors-preflight-maxage-negative': [PREFLIGHT()],
  'filter-param-no-effect': [PREFLIGHT({ 'Access-Control-Request-Method': 'POST' })],
  'filter-denies-everything': [{}],
  'address-regex-matches-nothing': [{}],
  'remote-ip-after-address-filter': [{ headers: { 'X-Forwarded-For': '10.0.0.1' } }],
  'remote-addr-deny-behind-proxy': [
    { headers: { 'X-Forwarded-For': '10.0.0.1' } },
    { headers: { 'X-Forwarded-For': '010.0.0.1' } },
  ],
  'expires-negative-duration': [{ record: ['cache-control'] }],
  'expires-rule-never-applies': [{ record: ['cache-control'] }],
  'global-filter-redefined': [{ record: ['cache-control', 'content-type'] }],
  'set-character-encoding-no-effect': [
    { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=b' },
  ],
  'csrf-not-covering-all': [
    { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=b' },
  ],
  'filter-never-mapped': [POST('index.html')],
  'filter-param-invalid': [POST('probe.jsp'), POST('reader.jsp')],
  'cors-allowed-headers-wildcard': [
    PREFLIGHT({ 'Access-Control-Request-Headers': 'X-Custom' }),
    { headers: ORIGIN, record: CORS_RECORD },
  ],
  'rest-csrf-not-covering': [POST('api/index.html'), POST('admin/index.html')],
  'rest-csrf-no-fetch-path': [{ headers: { 'X-CSRF-Token': 'Fetch' }, record: ['x-csrf-token'] }],
  'connector-allow-trace': [{ method: 'TRACE' }],
  'connector-x-powered-by': [{ path: 'probe.jsp', record: ['x-powered-by'] }],
  'connector-server-header': [{ record: ['server'] }],
  'default-servlet-writable': [{ method: 'PUT', path: 'written.txt', body: 'x' }],
  'default-servlet-listings': [{ path: '', record: ['content-type'] }],
  'session-cookie-http-only': [{ path: 'probe.jsp', record: ['set-cookie'] }],
  'cookie-same-site-none': [{ path: 'probe.jsp', record: ['set-cookie'] }],
  'session-cookie-not-secure': [{ path: 'probe.jsp', record: ['set-cookie'] }],
  'error-report-server-info': [{ path: 'no-such-page', record: ['content-type'] }],
};

// ---------------------------------------------------------------- runs

export interface Run {
  /** The fixtures deployed in it; for a shared run, each one's application is webapps/<rule>-<n>. */
  fixtures: FailFixture[];
  shared: boolean;
  /** Whether conf/ has files of the fixtures (else the harness's minimal server.xml and Debian's conf). */
  ownConf: boolean;
  /** The run's files, before ports are assigned. */
  files: Files;
}

const APP = /^webapps\/app(\/|\.war$)/;
export const appName = (f: Pick<FailFixture, 'rule' | 'n'>): string => `${f.rule}-${f.n}`;

/** Groups the fixtures into runs: single applications over the same conf/ share one. */
export function planRuns(fixtures: FailFixture[]): Run[] {
  const shared = new Map<string, Run>();
  const runs: Run[] = [];
  for (const f of fixtures) {
    const paths = Object.keys(f.files);
    const conf = paths.filter((p) => !APP.test(p));
    if (conf.some((p) => !p.startsWith('conf/') || p === 'conf/tomcat-users.xml' || p.startsWith('conf/Catalina/'))) {
      runs.push({ fixtures: [f], shared: false, ownConf: true, files: { ...f.files } });
      continue;
    }
    const key = JSON.stringify(conf.sort().map((p) => [p, f.files[p]]));
    let run = shared.get(key);
    if (!run) {
      run = {
        fixtures: [],
        shared: true,
        ownConf: conf.length > 0,
        files: Object.fromEntries(conf.map((p) => [p, f.files[p]!])),
      };
      shared.set(key, run);
      runs.push(run);
    }
    run.fixtures.push(f);
    for (const p of paths.filter((x) => APP.test(x)))
      run.files[p.replace(/^webapps\/app/, `webapps/${appName(f)}`)] = f.files[p]!;
  }
  return runs;
}

// ---------------------------------------------------------------- the base of a run

const MINIMAL_SERVER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"/>
    </Engine>
  </Service>
</Server>
`;
/** Tomcat's one-line layout for records, also where a fixture's logging.properties uses the JDK's SimpleFormatter. */
const ONE_LINE =
  'java.util.logging.SimpleFormatter.format = %1$td-%1$tb-%1$tY %1$tH:%1$tM:%1$tS.%1$tL %4$s [%2$s] %3$s %5$s%6$s%n\n';
const CONSOLE_LOGGING =
  'handlers = java.util.logging.ConsoleHandler\njava.util.logging.ConsoleHandler.level = ALL\njava.util.logging.ConsoleHandler.formatter = org.apache.juli.OneLineFormatter\n.level = INFO\n' +
  'org.apache.catalina.startup.VersionLoggerListener.level = WARNING\norg.apache.jasper.servlet.TldScanner.level = WARNING\n';
const PAGE = '<!doctype html><title>probe</title><p>probe</p>\n';
/** Creates a session, as an application page would (the session-cookie rules are about its cookie). */
const PROBE_JSP = '<%@ page contentType="text/plain" %><%= session.getId() != null ? "session" : "" %>\n';

export interface Ports {
  /** The first plain HTTP connector (probes go there), or null when the server has none. */
  http: number | null;
  /** A second plain connector with secure="true", added in shared runs. */
  secure: number | null;
}

/** Moves every Connector (and an enabled shutdown port) to a free port on 127.0.0.1. */
async function placeServerXml(xml: string, addSecure: boolean): Promise<{ xml: string; ports: Ports }> {
  let out = xml;
  const server = /<Server\b[^>]*>/.exec(out);
  if (server) {
    let tag = server[0];
    const port = /\sport\s*=\s*"([^"]*)"/.exec(tag)?.[1];
    if (port !== undefined && port.trim() !== '-1' && /^\s*\d+\s*$/.test(port))
      tag = tag.replace(/\sport\s*=\s*"[^"]*"/, ` port="${await freePort()}"`);
    if (!/\saddress\s*=/.test(tag)) tag = tag.replace(/^<Server\b/, '<Server address="127.0.0.1"');
    out = out.replace(server[0], tag);
  }
  let http: number | null = null;
  const tags = out.match(/<Connector\b[^>]*?\/?>/g) ?? [];
  for (const tag of tags) {
    const port = await freePort();
    let t = /\sport\s*=/.test(tag)
      ? tag.replace(/\sport\s*=\s*"[^"]*"/, ` port="${port}"`)
      : tag.replace(/^<Connector\b/, `<Connector port="${port}"`);
    t = /\saddress\s*=/.test(t)
      ? t.replace(/\saddress\s*=\s*"[^"]*"/, ' address="127.0.0.1"')
      : t.replace(/^<Connector\b/, '<Connector address="127.0.0.1"');
    const protocol = /\sprotocol\s*=\s*"([^"]*)"/.exec(t)?.[1] ?? 'HTTP/1.1';
    const tls =
      /\sSSLEnabled\s*=\s*"true"/i.test(t) || /<Connector\b[^>]*>\s*<SSLHostConfig/.test(out.slice(out.indexOf(tag)));
    if (http === null && !/AJP/i.test(protocol) && !tls) http = port;
    out = out.replace(tag, t);
  }
  let secure: number | null = null;
  if (addSecure && http !== null) {
    secure = await freePort();
    out = out.replace(
      /(<Connector\b)/,
      `<Connector address="127.0.0.1" port="${secure}" protocol="HTTP/1.1" secure="true" scheme="https"/>\n    $1`,
    );
  }
  return { xml: out, ports: { http, secure } };
}

function write(root: string, files: Files): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Writes the run's CATALINA_BASE into `dir`; the ports its connectors listen on. */
export async function writeRunBase(run: Run, dir: string): Promise<Ports> {
  const files: Files = { ...run.files };
  files['conf/server.xml'] ??= MINIMAL_SERVER_XML;
  if (!('conf/web.xml' in files)) files['conf/web.xml'] = readFileSync(join(STOCK, 'web.xml'), 'utf8');
  const stockProps =
    readFileSync(join(STOCK, 'catalina.properties'), 'utf8') +
    '\ntomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar\n';
  files['conf/catalina.properties'] =
    stockProps + (files['conf/catalina.properties'] ? `\n${files['conf/catalina.properties']}\n` : '');
  // The UserDatabase a server.xml's GlobalNamingResources may point at.
  files['conf/tomcat-users.xml'] ??= readFileSync(join(STOCK, 'tomcat-users.xml'), 'utf8');
  files['conf/logging.properties'] = files['conf/logging.properties']
    ? `${files['conf/logging.properties']}\n${ONE_LINE}`
    : CONSOLE_LOGGING;
  const placed = await placeServerXml(files['conf/server.xml'], run.shared);
  files['conf/server.xml'] = placed.xml;
  // Every application gets a page to ask for and a page that makes a session.
  const apps = new Set(
    Object.keys(files)
      .map((p) => /^webapps\/([^/]+)\//.exec(p)?.[1])
      .filter((a): a is string => a !== undefined),
  );
  for (const a of apps) {
    files[`webapps/${a}/index.html`] ??= PAGE;
    files[`webapps/${a}/probe.jsp`] ??= PROBE_JSP;
  }
  write(dir, files);
  for (const d of ['logs', 'temp', 'work', 'lib']) mkdirSync(join(dir, d), { recursive: true });
  // The keystores TLS connectors name, made here (a self-signed key) with the password they give: the
  // fixtures are about other things than a missing keystore. A `${name}` password is given as a property.
  for (const m of files['conf/server.xml'].matchAll(/<Certificate\b[^>]*>/g)) {
    const file = /certificateKeystoreFile\s*=\s*"([^"$]+)"/.exec(m[0])?.[1];
    if (!file || existsSync(join(dir, file))) continue;
    let password = /certificateKeystorePassword\s*=\s*"([^"]*)"/.exec(m[0])?.[1] ?? 'changeit';
    const property = /^\$\{([^}]+)\}$/.exec(password)?.[1];
    if (property) {
      password = 'changeit';
      writeFileSync(join(dir, 'conf', 'catalina.properties'), `\n${property}=${password}\n`, { flag: 'a' });
    }
    makeKeystore(join(dir, file), password);
  }
  return placed.ports;
}

function makeKeystore(file: string, password: string): void {
  const key = `${file}.key.pem`;
  const cert = `${file}.cert.pem`;
  const steps = [
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=localhost',
      '-days',
      '2',
    ],
    ['pkcs12', '-export', '-in', cert, '-inkey', key, '-out', file, '-name', 'tomcat', '-passout', `pass:${password}`],
  ];
  for (const args of steps) {
    const r = spawnSync('openssl', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
  }
  rmSync(key);
  rmSync(cert);
}

// ---------------------------------------------------------------- Tomcat

interface Running {
  started: boolean;
  log(): string;
  stop(): Promise<void>;
}

/** Everything Tomcat wrote: its console, and the files of logs/ (a fixture's logging.properties may log there only). */
function fullLog(console: string, base: string): string {
  const dir = join(base, 'logs');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.log') && !f.startsWith('localhost_access'))
        .sort()
    : [];
  return console + files.map((f) => '\n' + readFileSync(join(dir, f), 'utf8')).join('');
}

async function startTomcat(base: string, httpPort: number | null): Promise<Running> {
  let out = '';
  const child = spawn(join(CATALINA_HOME, 'bin', 'catalina.sh'), ['run'], {
    env: {
      ...process.env,
      CATALINA_HOME,
      CATALINA_BASE: base,
      CATALINA_PID: '',
      CATALINA_OPTS: '',
      JAVA_OPTS: '-Xshare:auto -XX:TieredStopAtLevel=1 -Duser.language=en -Duser.country=US',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = track(child);
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    const log = fullLog(out, base);
    if (/Server startup in/.test(log)) return { started: true, log: () => fullLog(out, base), stop };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      return { started: false, log: () => fullLog(out, base), stop };
    }
    // A fixture that turns logging off never says "Server startup in": the connector answering says it.
    if (
      httpPort !== null &&
      /\.level\s*=\s*OFF/.test(readFileSync(join(base, 'conf', 'logging.properties'), 'utf8')) &&
      (await answers(httpPort))
    ) {
      return { started: true, log: () => fullLog(out, base), stop };
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'HEAD', timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

// ---------------------------------------------------------------- the log

const RECORD =
  /^\d{2}-\w{3}-\d{4} \d{2}:\d{2}:\d{2}\.\d{3} (SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST) \[[^\]]*\] (\S+) ?(.*)$/;
const EXCEPTION = /^(?:Caused by: )?([a-z]\w*(?:\.\w+)+(?:Exception|Error)\b.*)$/;

interface LogRecord {
  level: string;
  text: string;
}

/** Lines whose presence depends on the machine's speed, not on the configuration. */
const TIMING = [
  /Creation of SecureRandom instance for session ID generation using \[[^\]]*\] took \[\d+\] milliseconds/,
];

/** The records of a log; a SEVERE or WARNING one with the exception line that follows it, if any. */
export function records(log: string, base: string): LogRecord[] {
  const out: LogRecord[] = [];
  let last: LogRecord | null = null;
  let exceptionAdded = false;
  for (const line of log.split('\n')) {
    const m = RECORD.exec(line);
    if (m) {
      last = { level: m[1]!, text: normalise(`${m[1]} ${m[2]} ${m[3]}`, base) };
      exceptionAdded = false;
      out.push(last);
      continue;
    }
    const e = EXCEPTION.exec(line.trim());
    if (last && e && !exceptionAdded && (last.level === 'SEVERE' || last.level === 'WARNING')) {
      last.text += ` | ${normalise(e[1]!, base)}`;
      exceptionAdded = true;
    }
  }
  return out.filter((r) => !TIMING.some((re) => re.test(r.text)));
}

/** Paths, ports, times and object ids masked, so two runs give the same text. */
export function normalise(text: string, base: string): string {
  return text
    .split(base)
    .join('$CATALINA_BASE')
    .split(CATALINA_HOME)
    .join('$CATALINA_HOME')
    .replace(/\b(port|Connector\[[\w/.-]+-|http-nio-|ajp-nio-|\[)(127\.0\.0\.1-)?\d{4,5}\b/gi, '$1$2$PORT')
    .replace(/-\d{4,5}\]/g, '-$PORT]')
    .replace(/-127\.0\.0\.1-\d{4,5}\b/g, '-127.0.0.1-$PORT')
    .replace(/:\d{4,5}\b/g, ':$PORT')
    .replace(/\[\d+\] ms/g, '[N] ms')
    .replace(/@[0-9a-f]{5,8}\b/g, '@ID')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);
}

const DEPLOY =
  /^INFO \S+ Deploying (?:web application directory|web application archive|deployment descriptor) \[([^\]]+)\]/;
const DEPLOYED =
  /^INFO \S+ Deployment of (?:web application directory|web application archive|deployment descriptor) \[([^\]]+)\] has finished/;
const loud = (r: LogRecord) => r.level === 'SEVERE' || r.level === 'WARNING';

/** The context path a deployed directory, archive or descriptor gets. */
function contextPathOf(deployed: string): string {
  const name = deployed
    .replace(/\/$/, '')
    .split('/')
    .pop()!
    .replace(/\.(war|xml)$/, '');
  return name === 'ROOT' ? '' : '/' + name.replace(/#/g, '/');
}

/** Splits the start-up log into the server's lines and each deployed context's. */
export function splitLog(recs: LogRecord[]): { server: string[]; contexts: Map<string, string[]> } {
  const server: string[] = [];
  const contexts = new Map<string, string[]>();
  let current: string | null = null;
  for (const r of recs) {
    const d = DEPLOY.exec(r.text);
    if (d) {
      current = contextPathOf(d[1]!);
      contexts.set(current, contexts.get(current) ?? []);
      continue;
    }
    if (DEPLOYED.test(r.text)) {
      current = null;
      continue;
    }
    if (!loud(r)) continue;
    if (current !== null) contexts.get(current)!.push(r.text);
    else server.push(r.text);
  }
  return { server, contexts };
}

const FAILED = [
  /startup failed due to previous errors/,
  /^SEVERE \S+ Error deploying/,
  /^SEVERE \S+ Error starting the context/,
];

// ---------------------------------------------------------------- probing

function send(port: number, path: string, p: Probe): Promise<{ status: number; headers: [string, string][] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: p.method ?? 'GET',
        headers: { Host: 'localhost', Connection: 'close', ...p.headers },
        timeout: 15_000,
      },
      (res) => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`no answer from ${path} in 15 s`)));
    req.end(p.body);
  });
}

/**
 * A header value as it is on every run: the session id masked, and ExpiresFilter's max-age (the
 * expiration minus the current time, truncated to seconds: 3600 or 3599 by the millisecond) rounded
 * to the minute.
 */
function masked(name: string, value: string): string {
  if (name === 'set-cookie') return value.replace(/=[0-9A-F]{32}/, '=<id>');
  if (name === 'cache-control')
    return value.replace(/max-age=(-?\d+)/, (_, n: string) => `max-age=${Math.round(Number(n) / 60) * 60}`);
  return value;
}

async function probe(running: Running, ports: Ports, base: string, context: string, p: Probe): Promise<ProbeResult> {
  const path = `${context}/${p.path ?? 'index.html'}`;
  const port = p.secure ? ports.secure : ports.http;
  const requestLine = `${p.method ?? 'GET'} ${path}${Object.entries(p.headers ?? {})
    .map(([k, v]) => ` ${k}: ${v}`)
    .join('')}${p.secure ? ' (secure connector)' : ''}`;
  if (port === null) return { request: requestLine, status: null, headers: {}, log: [] };
  const before = running.log().length;
  const r = await send(port, path, p);
  await new Promise((res) => setTimeout(res, 50));
  const headers: Record<string, string> = {};
  for (const name of p.record ?? []) {
    const values = r.headers.filter(([k]) => k === name).map(([, v]) => masked(name, v));
    if (values.length) headers[name] = values.join(', ');
  }
  return {
    request: requestLine,
    status: r.status,
    headers,
    log: records(running.log().slice(before), base)
      .filter(loud)
      .map((x) => x.text),
  };
}

// ---------------------------------------------------------------- observing

/** Deploys one run on Tomcat and records every fixture in it. */
export async function observeRun(run: Run): Promise<FixtureObservation[]> {
  const base = mkdtempSync(join(tmpdir(), 'tollgate-observe-'));
  try {
    const ports = await writeRunBase(run, base);
    const running = await startTomcat(base, ports.http);
    try {
      const recs = records(running.log(), base);
      const { server, contexts } = splitLog(recs);
      const failed = (lines: string[]) => lines.some((l) => FAILED.some((re) => re.test(l)));
      const out: FixtureObservation[] = [];
      for (const f of run.fixtures) {
        const own = Object.keys(f.files).some((p) => APP.test(p));
        const mine = run.shared ? (own ? [`/${appName(f)}`] : []) : [...contexts.keys()].sort();
        const obs: FixtureObservation = {
          rule: f.rule,
          n: f.n,
          source: f.source,
          hash: fixtureHash(f),
          server: running.started ? 'started' : 'failed',
          // The conf/ of a shared run is the fixtures' own (all the same) or the harness's: then only lines naming the application are its.
          serverLog: run.shared && !run.ownConf ? server.filter((l) => l.includes(appName(f))) : server,
          contexts: [],
          probes: [],
        };
        for (const path of mine) {
          const lines = contexts.get(path);
          const probes: ProbeResult[] = [];
          // One after the other: the lines logged while a probe is answered are that probe's.
          if (running.started)
            for (const p of [{}, ...(PROBES[f.rule] ?? [])]) probes.push(await probe(running, ports, base, path, p));
          // A fixture that turns logging off leaves no deployment lines: then the page answering says the context started.
          const started =
            running.started && (lines ? !failed(lines) : probes[0]?.status !== 404 && probes[0]?.status !== null);
          obs.contexts.push({ path, started, log: lines ?? [] });
          obs.probes.push(...probes);
        }
        out.push(obs);
      }
      return out;
    } finally {
      await running.stop();
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Observes every fixture, `parallel` runs at a time; the result in the fixtures' order. */
export async function observeAll(
  fixtures: FailFixture[],
  opts: { parallel?: number; progress?: (msg: string) => void } = {},
): Promise<FixtureObservation[]> {
  const runs = planRuns(fixtures);
  const results: FixtureObservation[][] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= runs.length) return;
      results[i] = await observeRun(runs[i]!);
      opts.progress?.(`${i + 1}/${runs.length}: ${runs[i]!.fixtures.map(appName).join(' ').slice(0, 120)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.parallel ?? 2) }, worker));
  const order = new Map(fixtures.map((f, i) => [appName(f), i]));
  return results.flat().sort((a, b) => order.get(appName(a))! - order.get(appName(b))!);
}

/** "Apache Tomcat/10.1.60 (Debian)". */
export function tomcatVersion(): string {
  const r = spawnSync(
    'java',
    ['-cp', join(CATALINA_HOME, 'lib', 'catalina.jar'), 'org.apache.catalina.util.ServerInfo'],
    { encoding: 'utf8' },
  );
  return /Server version:\s*(.*)/.exec(r.stdout)?.[1]?.trim() ?? 'unknown';
}
