/**
 * Real Tomcat 10.1 for the benchmarks: a throwaway CATALINA_BASE holding the
 * benchmark's own webapps, a connector on 127.0.0.1 and a free port, started
 * with catalina.sh run and always stopped (process group killed on exit).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, track } from '../test/conformance/processes.js';

export { freePort };

export const CATALINA_HOME = process.env.CATALINA_HOME ?? '/usr/share/tomcat10';

/** Where Tomcat can be run from, or why not. */
export function tomcatAvailable(): { ok: true; version: string } | { ok: false; why: string } {
  if (!existsSync(join(CATALINA_HOME, 'bin', 'catalina.sh')))
    return { ok: false, why: `no Tomcat at ${CATALINA_HOME} (apt-get install tomcat10)` };
  const javac = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (javac.status !== 0) return { ok: false, why: 'javac is not on PATH' };
  const info = spawnSync(
    'java',
    ['-cp', join(CATALINA_HOME, 'lib', 'catalina.jar'), 'org.apache.catalina.util.ServerInfo'],
    { encoding: 'utf8' },
  );
  const version = /Server version:\s*(.*)/.exec(info.stdout ?? '')?.[1]?.trim();
  return version ? { ok: true, version } : { ok: false, why: 'catalina.jar did not report a version' };
}

/** Compiles the Java sources of `dir` against the servlet API into `<webapp>/WEB-INF/classes`. */
export function compileServlets(sourcesDir: string, webapp: string): void {
  const classes = join(webapp, 'WEB-INF', 'classes');
  mkdirSync(classes, { recursive: true });
  const sources = readdirSync(sourcesDir)
    .filter((f) => f.endsWith('.java'))
    .map((f) => join(sourcesDir, f));
  const r = spawnSync('javac', ['-cp', join(CATALINA_HOME, 'lib', 'servlet-api.jar'), '-d', classes, ...sources], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`javac failed:\n${r.stderr}`);
}

export interface RunningTomcat {
  port: number;
  /** The JVM's pid (catalina.sh run execs java). */
  pid: number | undefined;
  base: string;
  log(): string;
  stop(): Promise<void>;
}

/** The installed Tomcat's conf/web.xml (Debian keeps it in /etc/tomcat10), or null without one. */
export function tomcatGlobalWebXml(): string | null {
  return ['/etc/tomcat10/web.xml', join(CATALINA_HOME, 'conf', 'web.xml')].find((f) => existsSync(f)) ?? null;
}

/**
 * Starts Tomcat over a new base whose `webapps/` is a copy of `webapps`, with
 * Debian's conf/web.xml as the global descriptor. Resolves once the server
 * reports start-up.
 */
export async function startTomcat(webapps: string, options: { javaOpts?: string } = {}): Promise<RunningTomcat> {
  const base = mkdtempSync(join(tmpdir(), 'tollgate-bench-tomcat-'));
  for (const d of ['conf', 'lib', 'logs', 'temp', 'work']) mkdirSync(join(base, d), { recursive: true });
  cpSync(webapps, join(base, 'webapps'), { recursive: true });
  const globalWebXml = tomcatGlobalWebXml();
  if (!globalWebXml) throw new Error('no conf/web.xml to copy (looked in /etc/tomcat10 and CATALINA_HOME/conf)');
  cpSync(globalWebXml, join(base, 'conf', 'web.xml'));
  const port = await freePort();
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="${port}" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000" maxKeepAliveRequests="-1"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false"/>
    </Engine>
  </Service>
</Server>
`,
  );
  writeFileSync(
    join(base, 'conf', 'catalina.properties'),
    'common.loader="${catalina.base}/lib","${catalina.base}/lib/*.jar","${catalina.home}/lib","${catalina.home}/lib/*.jar"\ntomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar\n',
  );
  writeFileSync(
    join(base, 'conf', 'logging.properties'),
    'handlers = java.util.logging.ConsoleHandler\n.level = WARNING\norg.apache.catalina.startup.Catalina.level = INFO\n',
  );
  let log = '';
  const child = spawn(join(CATALINA_HOME, 'bin', 'catalina.sh'), ['run'], {
    env: { ...process.env, CATALINA_HOME, CATALINA_BASE: base, CATALINA_PID: '', JAVA_OPTS: options.javaOpts ?? '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopGroup = track(child);
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const stop = async (): Promise<void> => {
    await stopGroup();
    rmSync(base, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!/Server startup in/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Tomcat did not start:\n${log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, pid: child.pid, base, log: () => log, stop };
}
