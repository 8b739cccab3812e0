import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The child processes the conformance tools start (Tomcat, tollgate serve), each in its own process
 * group: tracked so that they are killed when the test process exits, however it exits.
 */
const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}
process.on('exit', () => {
  for (const c of children) killGroup(c, 'SIGKILL');
});

/** Tracks a child started with `detached: true`; the returned function stops its group (TERM, then KILL after 10 s). */
export function track(child: ChildProcess): () => Promise<void> {
  children.add(child);
  const exited = new Promise((r) => child.once('exit', r));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    children.delete(child);
  };
}

/**
 * Ports handed out by `freePort` to any test process of this machine, as files named by the port in one
 * folder, each holding its owner's pid. The kernel picks a port for `listen(0)` at random from one range for
 * every process, so two test processes that each close their probe before the server they start binds it can
 * be given the same port (a Tomcat's AJP connector once found another Tomcat's HTTP connector on its port).
 * A claim lasts as long as its process: it is removed at a normal exit, and a claim left behind (vitest ends its
 * fork workers without an 'exit' event) is taken over by the next process given that port, or swept once it is
 * ten minutes old.
 */
const CLAIMS = join(tmpdir(), 'tollgate-test-ports');
const claimed = new Set<number>();
process.on('exit', () => {
  for (const port of claimed) rmSync(join(CLAIMS, String(port)), { force: true });
});

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes claims left by processes that are gone, once per process, so that the folder does not grow with every
 * run. Only claims older than ten minutes: a claim being taken over is written afresh, so none of those is touched.
 */
let swept = false;
function sweep(): void {
  swept = true;
  const old = Date.now() - 10 * 60_000;
  for (const name of readdirSync(CLAIMS)) {
    const file = join(CLAIMS, name);
    try {
      if (statSync(file).mtimeMs < old && !alive(Number(readFileSync(file, 'utf8')))) rmSync(file, { force: true });
    } catch {
      // removed meanwhile
    }
  }
}

/** Claims `port` for this process; false when a live process holds it. */
function claim(port: number): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  if (!swept) sweep();
  const file = join(CLAIMS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      claimed.add(port);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(file, 'utf8'));
    } catch {
      // released meanwhile: try again
    }
    if (alive(owner)) return false;
    rmSync(file, { force: true });
  }
  return false;
}

function probePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
}

/** A port free now on 127.0.0.1 that no other test process of this machine has been given while it runs. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = await probePort();
    if (claim(port)) return port;
  }
  throw new Error(`no port left to claim: ${CLAIMS} holds the claims of the test processes`);
}
