/**
 * A real Redis for the tests: Debian's redis-server on an ephemeral
 * 127.0.0.1 port, nothing written to disk, stopped after. `kill()` ends it
 * with SIGKILL (an outage), `restart()` brings one up on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { freePort } from '../conformance/processes.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisProcess {
  readonly port: number;
  /** The running redis-server's pid (undefined while it is down). */
  readonly pid: number | undefined;
  readonly url: string;
  /** SIGKILL, as a crash or a pulled cable looks to a client. */
  kill(): Promise<void>;
  /** SIGSTOP: the connection stays open and nothing answers (a hung server). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** A new redis-server on the same port (empty: nothing was persisted). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
      '--loglevel',
      'warning',
      '--daemonize',
      'no',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} did not start: ${out}`));
    }, 120_000);
    const probe = setInterval(() => {
      // Ready when it accepts a connection and answers PING.
      const sock = net.connect(port, '127.0.0.1');
      sock.once('error', () => sock.destroy());
      sock.once('connect', () => sock.write('PING\r\n'));
      sock.once('data', (d: Buffer) => {
        sock.destroy();
        if (d.toString().startsWith('+PONG')) {
          clearInterval(probe);
          clearTimeout(timer);
          resolve(child);
        }
      });
    }, 25);
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      clearInterval(probe);
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${String(code)}: ${out}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a redis-server for one test file. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | null = await launch(port);
  return {
    port,
    get pid() {
      return child?.pid;
    },
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (child === null) return;
      const c = child;
      child = null;
      c.kill('SIGKILL');
      await exited(c);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async restart() {
      if (child !== null) throw new Error('redis-server is still running');
      child = await launch(port);
    },
    async stop() {
      if (child === null) return;
      const c = child;
      child = null;
      c.kill('SIGTERM');
      await exited(c);
    },
  };
}
