/**
 * Starts a base on Tomcat 9.0 (Debian's libtomcat9-java jars, run from the classpath) or Tomcat 10.1
 * (Debian's tomcat10, CATALINA_HOME /usr/share/tomcat10), and checks each connector (an HTTP or HTTPS
 * request, an AJP CPing) and each context (a request for its index.html) on 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { MigrateBase } from './migrate-bases.js';
import { freePort, track } from './processes.js';

export type TomcatVersion = '9.0' | '10.1';

const TOMCAT9_JARS = '/usr/share/java';
const TOMCAT10_HOME = '/usr/share/tomcat10';

/** Why a Tomcat version cannot run here (one line naming the Debian package), or null. */
export function tomcatVersionMissing(version: TomcatVersion): string | null {
  if (version === '9.0' && !tomcat9ClassPath())
    return 'Tomcat 9.0.70 is missing: install the Debian package libtomcat9-java';
  if (version === '10.1' && !existsSync(join(TOMCAT10_HOME, 'bin', 'bootstrap.jar')))
    return 'Tomcat 10.1 is missing: install the Debian package tomcat10';
  if (!hasTcnative())
    return 'tomcat-native (the APR connectors of Tomcat 9) is missing: install the Debian package libtcnative-1';
  if (spawnSync('keytool', ['-help']).status !== 0)
    return 'keytool is missing: install the Debian package default-jdk-headless';
  if (spawnSync('openssl', ['version']).status !== 0) return 'openssl is missing: install the Debian package openssl';
  return null;
}

function hasTcnative(): boolean {
  return ['/usr/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu/jni', '/usr/lib/jni', '/usr/lib'].some(
    (d) => existsSync(d) && readdirSync(d).some((f) => f.startsWith('libtcnative-1.so')),
  );
}

function tomcat9ClassPath(): string | null {
  if (!existsSync(TOMCAT9_JARS)) return null;
  const jars = readdirSync(TOMCAT9_JARS)
    .filter((f) => /^tomcat9-.*-9\.0\.70\.jar$/.test(f) && !f.includes('i18n'))
    .map((f) => join(TOMCAT9_JARS, f));
  return jars.length ? jars.join(':') : null;
}

/** The keys every base shares, made once per run. */
export interface Keys {
  dir: string;
}

export function makeKeys(dir: string): Keys {
  mkdirSync(dir, { recursive: true });
  const run = (cmd: string, args: string[]): void => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  };
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
    '-subj',
    '/CN=localhost',
    '-days',
    '2',
  ]);
  for (const [file, type] of [
    ['keystore.p12', 'PKCS12'],
    ['keystore.jks', 'JKS'],
  ] as const) {
    run('keytool', [
      '-genkeypair',
      '-noprompt',
      '-alias',
      'tomcat',
      '-keyalg',
      'RSA',
      '-keysize',
      '2048',
      '-dname',
      'CN=localhost',
      '-validity',
      '2',
      '-storetype',
      type,
      '-keystore',
      join(dir, file),
      '-storepass',
      'changeit',
      '-keypass',
      'changeit',
    ]);
  }
  // A truststore holds trusted certificates only (a keystore of key entries has no trust anchors).
  run('keytool', [
    '-importcert',
    '-noprompt',
    '-alias',
    'ca',
    '-file',
    join(dir, 'cert.pem'),
    '-storetype',
    'PKCS12',
    '-keystore',
    join(dir, 'truststore.p12'),
    '-storepass',
    'changeit',
  ]);
  return { dir };
}

const LOGGING = `handlers = java.util.logging.ConsoleHandler
.handlers = java.util.logging.ConsoleHandler
java.util.logging.ConsoleHandler.level = FINE
java.util.logging.ConsoleHandler.formatter = org.apache.juli.OneLineFormatter
`;

/** Tomcat 9's conf/web.xml, cut to what serves static files: the default servlet and welcome files. */
const GLOBAL_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://xmlns.jcp.org/xml/ns/javaee
                      http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd"
  version="4.0">
    <servlet>
        <servlet-name>default</servlet-name>
        <servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class>
        <load-on-startup>1</load-on-startup>
    </servlet>
    <servlet-mapping>
        <servlet-name>default</servlet-name>
        <url-pattern>/</url-pattern>
    </servlet-mapping>
    <welcome-file-list>
        <welcome-file>index.html</welcome-file>
    </welcome-file-list>
</web-app>
`;

const CONTEXT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Context>
    <WatchedResource>WEB-INF/web.xml</WatchedResource>
    <JarScanner scanClassPath="false" scanManifest="false" />
</Context>
`;

/** The directory of a context's files in the bases (`/legacy` is outside appBase, as server.xml says). */
function contextDir(path: string): string {
  if (path === '') return 'webapps/ROOT';
  if (path === '/legacy') return 'legacy';
  return 'webapps' + path;
}

/** Marker each context's index.html holds. */
export const marker = (path: string): string => `context [${path || '/'}] is up`;

/** Writes `def` into `dir` with these ports; returns the ports by connector name. */
export async function writeBase(def: MigrateBase, dir: string, keys: Keys): Promise<Record<string, number>> {
  const ports: Record<string, number> = {};
  for (const c of def.connectors) ports[c.name] = await freePort();
  const files: Record<string, string> = {
    'conf/server.xml': def.serverXml.replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(ports[n])),
    'conf/web.xml': GLOBAL_WEB_XML,
    'conf/logging.properties': LOGGING,
    // Tomcat 9 runs here from the classpath: without this every context start scanned its ~30 jars for TLDs.
    'conf/context.xml': CONTEXT_XML,
    ...def.files,
  };
  for (const ctx of def.contexts) files[`${contextDir(ctx)}/index.html`] = `<p>${marker(ctx)}</p>\n`;
  for (const d of ['logs', 'temp', 'work', 'conf']) mkdirSync(join(dir, d), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  for (const f of readdirSync(keys.dir)) copyFileSync(join(keys.dir, f), join(dir, 'conf', f));
  return ports;
}

/** What one start of a base did. */
export interface StartReport {
  version: string;
  /** Tomcat logged "Server startup in". */
  started: boolean;
  connectors: Record<string, boolean>;
  contexts: Record<string, boolean>;
  log: string;
}

const STARTED = /Server startup in/;
const GAVE_UP = /Server instance is not configured|Cannot start server/;

const BIND_FAILED = /BindException: Address already in use/;

/**
 * Starts the base on `version`, checks every connector and context, stops it. A start whose connector found
 * its port taken (by a process outside the tests, or a connection's local port: the kernel hands those out from
 * the same range) is started again on fresh ports, at most three times: the port is the test's, not the base's.
 */
export async function startAndCheck(
  version: TomcatVersion,
  base: string,
  def: MigrateBase,
  ports: Record<string, number>,
): Promise<StartReport> {
  let report = await startOnce(version, base, def, ports);
  for (let retry = 0; retry < 3 && BIND_FAILED.test(report.log); retry++) {
    const serverXml = join(base, 'conf', 'server.xml');
    let text = readFileSync(serverXml, 'utf8');
    for (const c of def.connectors) {
      const fresh = await freePort();
      text = text.replaceAll(`"${ports[c.name]}"`, `"${fresh}"`);
      ports[c.name] = fresh;
    }
    writeFileSync(serverXml, text);
    report = await startOnce(version, base, def, ports);
  }
  return report;
}

async function startOnce(
  version: TomcatVersion,
  base: string,
  def: MigrateBase,
  ports: Record<string, number>,
): Promise<StartReport> {
  const props = [
    `-Dcatalina.base=${base}`,
    `-Djava.io.tmpdir=${join(base, 'temp')}`,
    '-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager',
    `-Djava.util.logging.config.file=${join(base, 'conf', 'logging.properties')}`,
    // No jar holds a TLD these bases use: scanning Tomcat's own jars for them was most of each start.
    '-Dtomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar',
    '-XX:TieredStopAtLevel=1',
  ];
  const args =
    version === '9.0'
      ? ['-cp', tomcat9ClassPath()!, `-Dcatalina.home=${base}`, ...props]
      : [
          '-cp',
          `${TOMCAT10_HOME}/bin/bootstrap.jar:${TOMCAT10_HOME}/bin/tomcat-juli.jar`,
          `-Dcatalina.home=${TOMCAT10_HOME}`,
          ...props,
        ];
  const child = spawn('java', [...args, 'org.apache.catalina.startup.Bootstrap', 'start'], {
    cwd: base,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = track(child);
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const report: StartReport = { version: '', started: false, connectors: {}, contexts: {}, log: '' };
  try {
    // Bounded by what Tomcat says, not by a clock: it logs one of these, or exits. The 180 s cap only stops a hang.
    const cap = Date.now() + 180_000;
    while (!STARTED.test(log) && !GAVE_UP.test(log) && child.exitCode === null && Date.now() < cap) await sleep(100);
    report.started = STARTED.test(log);
    if (report.started) {
      for (const c of def.connectors) report.connectors[c.name] = await probeConnector(c.kind, ports[c.name]!);
      // Contexts through the first HTTP(S) connector that is up (AJP answers a CPing, not a page).
      const web = def.connectors.find((c) => c.kind !== 'ajp' && report.connectors[c.name]);
      const kind = web?.kind === 'https' ? 'https' : 'http';
      for (const ctx of def.contexts) {
        report.contexts[ctx || '/'] = web ? await contextUp(kind, ports[web.name]!, ctx) : false;
      }
    } else {
      for (const c of def.connectors) report.connectors[c.name] = false;
      for (const ctx of def.contexts) report.contexts[ctx || '/'] = false;
    }
  } finally {
    await stop();
  }
  report.log = log;
  report.version = /Server version number:\s*(\S+)/.exec(log)?.[1] ?? '?';
  return report;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function get(kind: 'http' | 'https', port: number, path: string): Promise<{ status: number; body: string } | null> {
  return new Promise((resolveGet) => {
    const lib = kind === 'https' ? https : http;
    const req = lib.get(
      { host: '127.0.0.1', port, path, rejectUnauthorized: false, timeout: 20_000, agent: false },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolveGet({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolveGet(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveGet(null));
  });
}

async function contextUp(kind: 'http' | 'https', port: number, ctx: string): Promise<boolean> {
  const r = await get(kind, port, `${ctx}/index.html`);
  return r !== null && r.status === 200 && r.body.includes(marker(ctx));
}

/** An AJP CPing (0x1234, length 1, type 10) answered by a CPong ("AB", length 1, type 9). */
function ajpPing(port: number): Promise<boolean> {
  return new Promise((resolvePing) => {
    const s = connect({ host: '127.0.0.1', port });
    let got = Buffer.alloc(0);
    const done = (ok: boolean): void => {
      s.destroy();
      resolvePing(ok);
    };
    s.setTimeout(20_000, () => done(false));
    s.on('connect', () => s.write(Buffer.from([0x12, 0x34, 0x00, 0x01, 0x0a])));
    s.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 5) done(got[0] === 0x41 && got[1] === 0x42 && got[4] === 0x09);
    });
    s.on('error', () => done(false));
    s.on('end', () => done(false));
  });
}

async function probeConnector(kind: 'http' | 'https' | 'ajp', port: number): Promise<boolean> {
  if (kind === 'ajp') return ajpPing(port);
  const r = await get(kind, port, '/');
  return r !== null && r.status > 0;
}
