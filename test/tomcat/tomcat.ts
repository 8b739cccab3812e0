/**
 * Boots real Apache Tomcat (Debian's tomcat10) on a copy of a fixture
 * CATALINA_BASE, bound to 127.0.0.1 on a free port, and always stops it.
 * Test tooling only: used to observe what Tomcat does, never shipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CATALINA_HOME = process.env['TOLLGATE_CATALINA_HOME'] ?? '/usr/share/tomcat10';

export function tomcatAvailable(): boolean {
  return existsSync(join(CATALINA_HOME, 'bin', 'catalina.sh')) && spawnSync('java', ['-version']).status === 0;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Compiles test/tomcat/*.java against Tomcat's servlet API into a jar (test code only). */
export function buildProbeJar(outDir: string): string {
  const classes = join(outDir, 'classes');
  mkdirSync(classes, { recursive: true });
  const src = join(import.meta.dirname, 'ProbeFilter.java');
  const javac = spawnSync('javac', ['-cp', join(CATALINA_HOME, 'lib', 'servlet-api.jar'), '-d', classes, src], { encoding: 'utf8' });
  if (javac.status !== 0) throw new Error(`javac failed: ${javac.stderr}`);
  const jar = join(outDir, 'probe.jar');
  const r = spawnSync('jar', ['cf', jar, '-C', classes, '.'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`jar failed: ${r.stderr}`);
  return jar;
}

export interface RunningTomcat {
  port: number;
  base: string;
  log: () => string;
  stop: () => Promise<void>;
}

/** Copies `fixture` to a temp CATALINA_BASE, points its HTTP connector at a free loopback port and starts Tomcat. */
export async function startTomcat(fixture: string, opts: { jars?: string[]; timeoutMs?: number } = {}): Promise<RunningTomcat> {
  const base = mkdtempSync(join(tmpdir(), 'tollgate-tomcat-'));
  cpSync(fixture, base, { recursive: true });
  mkdirSync(join(base, 'lib'), { recursive: true });
  mkdirSync(join(base, 'logs'), { recursive: true });
  mkdirSync(join(base, 'temp'), { recursive: true });
  mkdirSync(join(base, 'work'), { recursive: true });
  for (const jar of opts.jars ?? []) cpSync(jar, join(base, 'lib', jar.split('/').pop()!));
  const port = await freePort();
  const serverXml = join(base, 'conf', 'server.xml');
  writeFileSync(
    serverXml,
    readFileSync(serverXml, 'utf8')
      .replace(/<Server port="[^"]*"/, '<Server port="-1"')
      .replace(/(<Connector[^>]*?)port="[^"]*"/, `$1port="${port}"`),
  );
  if (!existsSync(join(base, 'conf', 'catalina.properties'))) {
    writeFileSync(
      join(base, 'conf', 'catalina.properties'),
      [
        'common.loader="${catalina.base}/lib","${catalina.base}/lib/*.jar","${catalina.home}/lib","${catalina.home}/lib/*.jar"',
        'tomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar',
        '',
      ].join('\n'),
    );
  }
  if (!existsSync(join(base, 'conf', 'logging.properties'))) {
    writeFileSync(
      join(base, 'conf', 'logging.properties'),
      ['handlers = java.util.logging.ConsoleHandler', '.level = INFO', 'java.util.logging.ConsoleHandler.level = ALL', ''].join('\n'),
    );
  }
  let output = '';
  const child: ChildProcess = spawn(join(CATALINA_HOME, 'bin', 'catalina.sh'), ['run'], {
    env: { ...process.env, CATALINA_HOME, CATALINA_BASE: base, CATALINA_PID: '', JAVA_OPTS: '-Xshare:auto -XX:TieredStopAtLevel=1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(base, { recursive: true, force: true });
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!/Server startup in/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Tomcat did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, base, log: () => output, stop };
}
