import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

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

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
}
