/**
 * One worker process of `tollgate serve --workers N`: the whole container
 * (every context, the host manager) on the port the cluster shares. Host
 * commands and `persist` go to the primary, which applies a command to every
 * worker before it answers; the primary's `apply` requests change this
 * worker's registry. Log lines name the worker, as Tomcat's name the thread.
 */
import cluster from 'node:cluster';
import type { TomcatTarget } from '../filters/index.js';
import type { Diagnostic } from '../model/index.js';
import { loadBase } from '../parser/index.js';
import {
  applyCommand,
  catchUp,
  Channel,
  type HostCommand,
  type PrimaryNotice,
  type PrimaryRequest,
  type WorkerAnswers,
  type WorkerNotice,
  type WorkerRequest,
} from './cluster-channel.js';
import { ClusterStateBackend, StateClient } from './cluster-state.js';
import { ServerRefusedError, startContainer, type Container } from './container.js';
import type { StateBackend } from '../runtime/state.js';
import type { HostOperations, Persister } from './host-manager.js';
import type { HostResult } from './hosts.js';
import { FleetUnreachableError } from './fleet.js';
import { Metrics, notReadyReason, startOpsServer, storeHealth, storeProbe } from './ops.js';
import { storeConfigEnabled } from './persist.js';
import { configureServeLog, type LogFormat } from './serve-log.js';
import { armStopDeadline, StopPhase, workerDeadlineMs } from './shutdown.js';

/** Set by the primary in its workers' environment. */
export const WORKER_ENV = 'TOLLGATE_SERVE_WORKER';

/** Whether this process is a worker of `tollgate serve --workers`. */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

export interface WorkerOptions {
  base: string;
  home?: string;
  port?: number;
  address: string;
  target: TomcatTarget;
  allowAppBaseOutsideBase: boolean;
  /** Where the worker keeps its state when the workers share a store of their own (Redis, each worker its own connection); default: the primary. */
  state?: StateBackend;
  /** Whether the primary passes host commands on to the other instances sharing the store (fleet.ts). */
  fleet?: boolean;
  /** The operations listener (/ready, /live, /metrics), shared by the workers like the HTTP port. */
  ops?: { port: number; address: string };
  /** The stop's bound (--drain-timeout): the primary exits by then, this worker a little earlier (shutdown.ts). */
  drainTimeoutMs: number;
  /** --log-format: each worker writes its own lines (naming the worker) to its stderr. */
  logFormat: LogFormat;
}

type WorkerChannel = Channel<PrimaryRequest, WorkerRequest, PrimaryNotice, WorkerNotice>;

/**
 * Runs the worker until the primary (or a SIGTERM) stops it, then exits the process: the IPC channel
 * would keep it alive, and disconnecting it makes node:cluster exit with 0 whatever happened.
 */
export async function runServeWorker(options: WorkerOptions): Promise<never> {
  const origin = { worker: cluster.worker?.id ?? 0, pid: process.pid };
  const write = (text: string): void => void process.stderr.write(text);
  const unlogFirst = configureServeLog({ format: options.logFormat, origin, out: write, err: write });
  let container: Container | null = null;
  const metrics = options.ops ? new Metrics(() => storeHealth(options.state)) : undefined;
  let stopRequested: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (stopRequested = resolve));
  const channel: WorkerChannel = new Channel(
    process as unknown as { send(m: unknown, cb?: (e: Error | null) => void): boolean },
    async (request) => {
      if (container === null) throw new Error('the worker has not started');
      return applyCommand(container.registry, request.command);
    },
    (notice) => {
      if (notice.kind === 'stop') stopRequested();
    },
  );
  process.on('message', (m) => channel.receive(m));
  // SIGINT from a terminal reaches the whole process group: the primary decides, and tells each worker.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  process.on('SIGTERM', () => stopRequested());
  const ask = <K extends WorkerRequest['kind']>(
    request: Extract<WorkerRequest, { kind: K }>,
  ): Promise<WorkerAnswers[K]> => channel.request<WorkerAnswers[K]>(request);

  const { unsafe, kept, reloads } = await ask({ kind: 'hello' });
  // A fresh worker counts the reloads of the whole serve process (the primary's count), not only its own life.
  for (const [result, n] of Object.entries(reloads)) metrics?.reloads.inc({ result }, n);
  const loaded = loadBase({ base: options.base, ...(options.home ? { home: options.home } : {}) });
  // The base's conf/logging.properties, as the primary applies it.
  unlogFirst();
  configureServeLog({
    format: options.logFormat,
    properties: loaded.loggingProperties,
    origin,
    out: write,
    err: write,
  });
  const forward = (command: HostCommand): Promise<HostResult> => ask({ kind: 'host', command });
  const operations: HostOperations = {
    add: (input, policy) => forward({ op: 'add', input, policy }),
    remove: (name) => forward({ op: 'remove', name }),
    start: (name) => forward({ op: 'start', name }),
    stop: (name) => forward({ op: 'stop', name }),
    // With a shared store the primary tells the other instances (fleet.ts).
    fleetWide: options.fleet === true,
  };
  const persister: Persister = {
    async persist() {
      const answer = await ask({ kind: 'persist' });
      if (!answer.ok) throw answer.fleet ? new FleetUnreachableError(answer.message) : new Error(answer.message);
    },
  };
  try {
    container = await startContainer({
      base: options.base,
      loaded,
      unsafe: unsafe as Diagnostic[],
      ...(options.home ? { home: options.home } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      address: options.address,
      target: options.target,
      allowAppBaseOutsideBase: options.allowAppBaseOutsideBase,
      hostOperations: operations,
      // Sessions, nonces, rate-limit windows and the lock-out table: one copy, in the store or else the primary.
      state: options.state ?? new ClusterStateBackend(new StateClient((calls) => ask({ kind: 'state', calls }))),
      persister: storeConfigEnabled(loaded.serverXml) ? persister : null,
      beforeListen: async (registry) => catchUp(registry, (await ask({ kind: 'join' })).hosts),
      // The contexts a reload kept: their previous plan, where this worker's reading would refuse them.
      ...(kept.length ? { previous: kept } : {}),
      ...(metrics ? { metrics } : {}),
    });
  } catch (e) {
    const failed: WorkerNotice =
      e instanceof ServerRefusedError
        ? { kind: 'failed', message: e.message, refused: e.diagnostics }
        : {
            kind: 'failed',
            message: (e as Error).message,
            ...((e as NodeJS.ErrnoException).code ? { code: (e as NodeJS.ErrnoException).code! } : {}),
          };
    await new Promise<void>((resolve) => channel.notify(failed, resolve));
    process.exit(1);
  }
  const running = container;
  const ops =
    options.ops && metrics
      ? await startOpsServer({
          ...options.ops,
          metrics,
          notReady: () => notReadyReason(running, options.state),
          probe: storeProbe(options.state),
        })
      : null;
  channel.notify({ kind: 'ready', address: running.address, port: running.port, summary: running.summary });
  await stopSignal;
  const deadline = workerDeadlineMs(options.drainTimeoutMs);
  const phase = new StopPhase();
  armStopDeadline(
    deadline,
    () => String(phase),
    () => running.accessLogs.close(),
  );
  // drain() closes the listener at once; node:cluster has told the primary before this notice (one IPC
  // channel, in order), so when the primary reads it no new connection comes here.
  const drained = running.drain(deadline);
  channel.notify({ kind: 'closed' } satisfies WorkerNotice);
  await drained;
  phase.set('the container was still closing');
  await running.stop();
  ops?.close();
  phase.set('the state store (Redis) did not close');
  await options.state?.close();
  process.exit(0);
}
