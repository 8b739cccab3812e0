/**
 * `tollgate serve` (the built CLI) as a real process for the operations tests: on 127.0.0.1 and an
 * ephemeral port, in a process group of its own so that `stopServes()` (afterEach) kills it and its
 * workers whatever state the test left them in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from './http.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tollgate.js');

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  out(): string;
  err(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | NodeJS.Signals>;
}

const running: ChildProcess[] = [];

export async function startServe(
  base: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--base', base, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal!)),
  );
  const port = await waitFor(
    () =>
      /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out + err)?.[1] ?? (child.exitCode !== null ? '-1' : undefined),
    90_000,
    () => `serve did not start:\n${out}\n${err}`,
  );
  if (port === '-1') throw new Error(`serve exited with ${child.exitCode}:\n${out}\n${err}`);
  return { child, port: Number(port), out: () => out, err: () => err, exited };
}

/** Kills every serve process group a test started (SIGKILL) and waits for them. */
export async function stopServes(): Promise<void> {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await gone;
    } else {
      try {
        // The workers of a primary that exited, if any were left.
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // none
      }
    }
  }
}
