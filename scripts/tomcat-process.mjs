/**
 * Running real Tomcat from the observe scripts (scripts/observe-*.mjs): a
 * free 127.0.0.1 port, `catalina.sh run` in its own process group, always
 * stopped (also on errors and Ctrl-C), and the temporary directories they
 * make, removed the same way. Test tooling only: nothing here ships.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CATALINA_HOME = process.env.CATALINA_HOME ?? '/usr/share/tomcat10';

/** Every child started and every directory made, so an interrupt can still stop and remove them. */
const running = new Set();
const temporary = new Set();

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

function stopAll() {
  for (const child of running) killGroup(child, 'SIGKILL');
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });
}

/** A temporary directory removed at exit (or earlier with removeDir). */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.add(dir);
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  temporary.delete(dir);
}

/** Runs a command to completion; its stdout, or an error with its output. */
export function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** "Apache Tomcat/10.1.60 (Debian)". */
export function tomcatVersion() {
  const out = run('java', ['-cp', join(CATALINA_HOME, 'lib', 'catalina.jar'), 'org.apache.catalina.util.ServerInfo']);
  return /Server version:\s*(.*)/.exec(out)?.[1]?.trim() ?? 'unknown';
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts `catalina.sh run` on a base and waits for "Server startup in"; log() is everything it wrote. */
export async function startTomcat(base, { timeoutMs = 90_000 } = {}) {
  let log = '';
  const child = spawn(join(CATALINA_HOME, 'bin', 'catalina.sh'), ['run'], {
    env: {
      ...process.env,
      CATALINA_HOME,
      CATALINA_BASE: base,
      CATALINA_PID: '',
      JAVA_OPTS: '-XX:TieredStopAtLevel=1 -Xss1m',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
  };
  const deadline = Date.now() + timeoutMs;
  while (!/Server startup in/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Tomcat did not start:\n${log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { log: () => log, stop };
}
