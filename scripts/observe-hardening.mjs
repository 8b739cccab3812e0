#!/usr/bin/env node
/**
 * Observes on real Apache Tomcat 10.1 what the hardening rules (docs/rules/connector-*.md,
 * ajp-*.md, manager-*.md, error-report-*.md) say Tomcat does, and prints one line per fact:
 *
 *   node scripts/observe-hardening.mjs
 *
 * Two bases, each in a temporary directory on free 127.0.0.1 ports, run in turn:
 * 1. "exposed": an HTTP connector with allowTrace, xpoweredBy and server="Apache Tomcat/10.1",
 *    an AJP connector with secretRequired="false" and one with no secret at all, no ErrorReportValve.
 * 2. "debian": /etc/tomcat10 as Debian ships it (ports and addresses moved to 127.0.0.1), with
 *    conf/Catalina/localhost/manager.xml pointing at a copy of /usr/share/tomcat10-admin/manager
 *    whose META-INF/context.xml RemoteCIDRValve allows only 127.0.0.2: a 403 from 127.0.0.1 would
 *    mean the valve applies, a 401 that it does not.
 * Tomcat is always stopped, also on errors and Ctrl-C. Test tooling only: nothing here ships.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CATALINA_HOME = process.env.CATALINA_HOME ?? '/usr/share/tomcat10';
const running = new Set();
const temporary = new Set();
function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });

const freePort = () =>
  new Promise((ok, ko) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', ko);
  });

function tempBase() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-harden-'));
  temporary.add(dir);
  for (const d of ['conf', 'logs', 'temp', 'work', 'webapps/ROOT']) mkdirSync(join(dir, d), { recursive: true });
  cpSync('/etc/tomcat10/web.xml', join(dir, 'conf', 'web.xml'));
  writeFileSync(join(dir, 'webapps', 'ROOT', 'index.html'), '<p>root</p>\n');
  return dir;
}

async function start(base) {
  const child = spawn(join(CATALINA_HOME, 'bin', 'catalina.sh'), ['run'], {
    env: { ...process.env, CATALINA_HOME, CATALINA_BASE: base, CATALINA_PID: '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  const deadline = Date.now() + 90_000;
  while (!/Server startup in/.test(log)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Tomcat did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    log: () => log,
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      running.delete(child);
    },
  };
}

function http1(port, method, path, headers = {}) {
  return new Promise((ok, ko) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { Host: 'localhost', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
      },
    );
    req.on('error', ko);
    req.end();
  });
}

/** One AJP13 FORWARD_REQUEST for GET `path` with no secret; resolves with the status of SEND_HEADERS, or the error. */
function ajpGet(port, path) {
  const str = (s) => {
    const b = Buffer.from(s, 'latin1');
    const out = Buffer.alloc(3 + b.length);
    out.writeUInt16BE(b.length, 0);
    b.copy(out, 2);
    out[2 + b.length] = 0;
    return out;
  };
  const parts = [
    Buffer.from([2, 2]),
    str('HTTP/1.1'),
    str(path),
    str('127.0.0.1'),
    str('localhost'),
    str('localhost'),
    Buffer.from([0, 80, 0]),
    Buffer.from([0, 1]),
    Buffer.from([0xa0, 0x0b]),
    str('localhost'),
    Buffer.from([0xff]),
  ];
  const body = Buffer.concat(parts);
  const head = Buffer.from([0x12, 0x34, 0, 0]);
  head.writeUInt16BE(body.length, 2);
  return new Promise((ok) => {
    const sock = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    const done = (v) => {
      sock.destroy();
      ok(v);
    };
    sock.on('connect', () => sock.write(Buffer.concat([head, body])));
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      // 'AB' length, then prefix code 4 = SEND_HEADERS with a 2-byte status.
      if (got.length >= 7 && got[4] === 4) done(`status ${got.readUInt16BE(5)}`);
    });
    sock.on('error', (e) => done(`error ${e.code}`));
    sock.on('close', () => done('closed without answer'));
    setTimeout(() => done('timeout'), 5000);
  });
}

async function exposed() {
  const base = tempBase();
  const [http, ajpOpen, ajpNoSecret] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="${http}" address="127.0.0.1" protocol="HTTP/1.1" allowTrace="true" xpoweredBy="true" server="Apache Tomcat/10.1"/>
    <Connector port="${ajpOpen}" address="127.0.0.1" protocol="AJP/1.3" secretRequired="false"/>
    <Connector port="${ajpNoSecret}" address="127.0.0.1" protocol="AJP/1.3"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"/>
    </Engine>
  </Service>
</Server>
`,
  );
  const t = await start(base);
  try {
    const trace = await http1(http, 'TRACE', '/', { 'X-Probe': 'echoed' });
    console.log(
      `allowTrace="true": TRACE / -> ${trace.status}, body echoes the request: ${/X-Probe: echoed/i.test(trace.body)}`,
    );
    const ok = await http1(http, 'GET', '/index.html');
    console.log(`xpoweredBy="true": X-Powered-By: ${ok.headers['x-powered-by'] ?? '(none)'}`);
    console.log(`server="Apache Tomcat/10.1": Server: ${ok.headers['server'] ?? '(none)'}`);
    const missing = await http1(http, 'GET', '/no-such-page');
    console.log(
      `no ErrorReportValve configured: 404 page names the version: ${(/Apache Tomcat\/[\d.]+/.exec(missing.body) ?? ['no'])[0]}`,
    );
    console.log(
      `AJP secretRequired="false": GET /index.html without a secret -> ${await ajpGet(ajpOpen, '/index.html')}`,
    );
    console.log(
      `AJP without secret (secretRequired default): ${await ajpGet(ajpNoSecret, '/index.html')}; log: ${(/The AJP Connector is configured with secretRequired[^\n]*/.exec(t.log()) ?? ['(nothing)'])[0]}`,
    );
    console.log(`server went on starting: ${/Server startup in/.test(t.log())}`);
  } finally {
    t.stop();
  }
}

async function debian() {
  const base = tempBase();
  cpSync('/etc/tomcat10', join(base, 'conf'), { recursive: true });
  const manager = join(base, 'manager-copy');
  cpSync('/usr/share/tomcat10-admin/manager', manager, { recursive: true });
  const meta = join(manager, 'META-INF', 'context.xml');
  writeFileSync(meta, readFileSync(meta, 'utf8').replace(/allow="[^"]*"/, 'allow="127.0.0.2/32"'));
  const xml = join(base, 'conf', 'Catalina', 'localhost', 'manager.xml');
  writeFileSync(xml, readFileSync(xml, 'utf8').replace('/usr/share/tomcat10-admin/manager', manager));
  rmSync(join(base, 'conf', 'Catalina', 'localhost', 'docs.xml'), { force: true });
  const port = await freePort();
  const server = join(base, 'conf', 'server.xml');
  writeFileSync(
    server,
    readFileSync(server, 'utf8').replace('<Connector port="8080"', `<Connector port="${port}" address="127.0.0.1"`),
  );
  const t = await start(base);
  try {
    const r = await http1(port, 'GET', '/manager/html');
    console.log(
      `Debian manager.xml context file, META-INF RemoteCIDRValve allowing only 127.0.0.2: GET /manager/html from 127.0.0.1 -> ${r.status} (403 = valve applies, 401 = it does not)`,
    );
    const missing = await http1(port, 'GET', '/no-such-page');
    console.log(
      `Debian stock 404 page names the version: ${(/Apache Tomcat\/[\d.]+/.exec(missing.body) ?? ['no'])[0]}`,
    );
  } finally {
    t.stop();
  }
}

await exposed();
await debian();
