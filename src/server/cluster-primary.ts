/**
 * The primary of `tollgate serve --workers N`: forks N workers that share one
 * listening port (node:cluster), keeps the host registry that is the truth of
 * what the host manager changed, runs host commands one at a time (on its own
 * registry, then on every worker, answering when all have applied) and owns
 * `persist`, so two processes never write server.xml at once. SIGHUP restarts
 * the workers one by one (the new one listens before the old one drains), SIGTERM
 * and SIGINT drain them all, and a worker that dies is replaced.
 */
import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';
import type { TomcatTarget } from '../filters/index.js';
import type { CatalinaBase, Diagnostic } from '../model/index.js';
import { planBase, type ContextPlan, type Plan } from '../plan/index.js';
import { getLogger } from '../runtime/logging.js';
import {
  applyCommand,
  Channel,
  undoCommand,
  type HostCommand,
  type PrimaryNotice,
  type PrimaryRequest,
  type WorkerAnswers,
  type WorkerNotice,
  type WorkerRequest,
} from './cluster-channel.js';
import { primaryStore, StateHost } from './cluster-state.js';
import { WORKER_ENV } from './cluster-worker.js';
import { ServerRefusedError } from './container.js';
import { FleetUnreachableError, type Fleet } from './fleet.js';
import type { Persister } from './host-manager.js';
import { watchHandoffs } from './handoff.js';
import { HostRegistry, type HostResult } from './hosts.js';
import { createServerXmlPersister, storeConfigEnabled } from './persist.js';
import { decide, newOutcome, plansByContext, problemLines, resultOf, summaryLine } from './reload.js';
import { armStopDeadline } from './shutdown.js';

const logger = getLogger('tollgate.serve.cluster');

/** The base as read and checked for one generation of workers. */
export interface PreparedBase {
  loaded: CatalinaBase;
  /** Findings that keep a context from running (PlanOptions.unsafe). */
  unsafe: Diagnostic[];
}

export interface ClusterOptions {
  workers: number;
  target: TomcatTarget;
  /** Reads and lints the base: at start, and again on SIGHUP. Throwing on SIGHUP keeps the running workers. */
  prepare(): PreparedBase;
  /** The bound of a stop (--drain-timeout): the primary exits by then, killing workers still draining. */
  drainTimeoutMs: number;
  /** The instances sharing the state store (`--store redis`): host commands and persist reach them too. */
  fleet?: Fleet;
}

export interface RunningCluster {
  address: string;
  port: number;
  /** What Tomcat would start (the primary's reading; the workers plan the same files). */
  plan: Plan;
  /** The first worker's start-up summary. */
  summary: string[];
  /** The workers' process ids, those serving now. */
  pids(): number[];
  /** Resolves once a SIGTERM or SIGINT (or stop()) has drained and stopped every worker. */
  stopped: Promise<void>;
  stop(): Promise<void>;
  /** What SIGHUP does: read the base again and replace the workers one by one. */
  restart(): Promise<void>;
}

/** A worker failed to start: `code` is its listen error's, `refused` Tomcat's refusal. */
export class WorkerStartError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

type Phase = 'starting' | 'ready' | 'stopping';

interface Member {
  worker: Worker;
  channel: Channel<WorkerRequest, PrimaryRequest, WorkerNotice, PrimaryNotice>;
  phase: Phase;
  /** Settles when the worker reports ready (true) or exits first (false). */
  ready: Promise<boolean>;
  readyNotice: Extract<WorkerNotice, { kind: 'ready' }> | null;
  failure: Extract<WorkerNotice, { kind: 'failed' }> | null;
  /** Settles when the stopping worker has closed its listener (or has exited). */
  closed: Promise<void>;
  exited: Promise<void>;
}

/** How long a worker that has the hosts may take to open the port before it is given up. */
const JOIN_TIMEOUT_MS = 60_000;

/** Starts the workers; resolves once all of them listen. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  if (!cluster.isPrimary) throw new Error('startCluster runs in the primary process');
  let prepared = options.prepare();
  let plan = planBase(prepared.loaded, { target: options.target, unsafe: prepared.unsafe });
  if (plan.server.state === 'refused') throw new ServerRefusedError(plan.server.reasons);
  let registry = HostRegistry.fromBase(prepared.loaded);
  let persister = persisterOf(prepared.loaded, registry);
  /** What the contexts run: the plan's, or for those a reload kept, their previous plan. */
  let runningPlans: ContextPlan[] = plan.plans;
  /** The previous plans the workers run instead of the refused configuration. */
  let keptPlans: ContextPlan[] = [];
  const reloads: Record<string, number> = {};
  const counted = (result: string): void => void (reloads[result] = (reloads[result] ?? 0) + 1);

  // The workers' shared state; it outlives any worker, and SIGHUP's restart too.
  const state = new StateHost(primaryStore);
  const members = new Map<Worker, Member>();
  const fleet = options.fleet ?? null;
  let stopping = false;
  /** Until every first worker listens, a death fails the start instead of being replaced. */
  let started = false;
  let earlyDeaths = 0;
  let queue: Promise<unknown> = Promise.resolve();
  /** Host commands, joins and persists run one at a time, in the order they came. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  cluster.setupPrimary({ serialization: 'advanced' });

  const fork = (): Member => {
    const worker = cluster.fork({ [WORKER_ENV]: '1' });
    let readyDone: (ok: boolean) => void = () => undefined;
    let closedDone: () => void = () => undefined;
    const member: Member = {
      worker,
      channel: new Channel<WorkerRequest, PrimaryRequest, WorkerNotice, PrimaryNotice>(
        worker,
        (request) => answer(member, request),
        (notice) => {
          if (notice.kind === 'ready') {
            member.readyNotice = notice;
            member.phase = member.phase === 'starting' ? 'ready' : member.phase;
            readyDone(true);
          } else if (notice.kind === 'closed') {
            closedDone();
          } else {
            member.failure = notice;
          }
        },
      ),
      phase: 'starting',
      ready: new Promise<boolean>((resolve) => (readyDone = resolve)),
      readyNotice: null,
      failure: null,
      closed: new Promise<void>((resolve) => (closedDone = resolve)),
      exited: new Promise<void>((resolve) => worker.once('exit', () => resolve())),
    };
    members.set(worker, member);
    const closeUnaccepted = watchHandoffs(worker.process);
    worker.on('message', (m) => member.channel.receive(m));
    worker.once('exit', (code, signal) => {
      members.delete(worker);
      // Connections handed to it that it never took would stay open in the primary for ever (handoff.ts).
      const closed = closeUnaccepted();
      if (closed > 0)
        logger.warning(
          `worker ${worker.id} (pid ${worker.process.pid}) exited holding ${closed} connection(s) it had not accepted: closed`,
        );
      member.channel.close(new Error(`worker ${worker.id} exited`));
      closedDone();
      const wasReady = member.phase === 'ready';
      readyDone(false);
      if (stopping || member.phase === 'stopping' || !started) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      earlyDeaths = wasReady ? 0 : earlyDeaths + 1;
      // A worker that dies before it listens would die again at once: back off (0.5 s, 1 s, 2 s... up to 30 s).
      const delay = earlyDeaths === 0 ? 0 : Math.min(30_000, 500 * 2 ** (earlyDeaths - 1));
      logger.warning(
        `worker ${worker.id} (pid ${worker.process.pid}) exited with ${how}${member.failure ? ` (${member.failure.message})` : ''}; starting a replacement${delay ? ` in ${delay} ms` : ''}`,
      );
      setTimeout(() => {
        if (!stopping) fork();
      }, delay).unref();
    });
    return member;
  };

  const answer = async (member: Member, request: WorkerRequest): Promise<WorkerAnswers[keyof WorkerAnswers]> => {
    switch (request.kind) {
      case 'hello':
        return { unsafe: prepared.unsafe, kept: keptPlans, reloads };
      case 'join':
        return new Promise<WorkerAnswers['join']>((resolve) => {
          void serial(async () => {
            resolve({ hosts: [...registry.list()] });
            // No command runs until this worker listens with the hosts it was given (or is gone).
            const timer = setTimeout(() => member.worker.process.kill('SIGKILL'), JOIN_TIMEOUT_MS);
            await member.ready;
            clearTimeout(timer);
          });
        });
      case 'host': {
        const here = () => serial(() => runCommand(request.command, member));
        if (fleet === null) return here();
        // Outside the queue while the other instances answer: their commands to this one must not wait on it.
        return fleet.run(request.command, here, (undo) => serial(() => runCommand(undo, null)));
      }
      case 'state':
        return state.run(request.calls);
      case 'persist': {
        if (fleet === null) return persistHere();
        try {
          await fleet.persist(async () => {
            const r = await persistHere();
            if (!r.ok) throw new Error(r.message);
          });
          return { ok: true } as const;
        } catch (err) {
          const message = (err as Error).message;
          return err instanceof FleetUnreachableError ? { ok: false, message, fleet: true } : { ok: false, message };
        }
      }
    }
  };

  const persistHere = (): Promise<WorkerAnswers['persist']> =>
    serial(async () => {
      if (persister === null) return { ok: false, message: 'StoreConfig is not enabled' } as const;
      try {
        await persister.persist();
        return { ok: true } as const;
      } catch (err) {
        logger.severe('persist failed', err);
        return { ok: false, message: (err as Error).message } as const;
      }
    });

  // What another instance of the fleet announces: applied here and in every worker, as a command of our own.
  fleet?.applyWith(async (command) => {
    if (command.op === 'persist') return persistHere();
    const r = await serial(() => runCommand(command, null));
    return r.ok ? { ok: true } : { ok: false, message: r.failure.code };
  });

  /** The command on the primary's registry, then on every listening worker; undone everywhere when a worker could not follow. */
  const runCommand = async (command: HostCommand, from: Member | null): Promise<HostResult> => {
    const own = await applyCommand(registry, command);
    if (!own.ok) return own;
    const targets = [...members.values()].filter((m) => m.phase === 'ready');
    const results = await Promise.all(
      targets.map((m) => m.channel.request<HostResult>({ kind: 'apply', command }).catch(() => null)),
    );
    const failed = results.find((r): r is HostResult => r !== null && !r.ok);
    if (failed !== undefined) {
      const undo = undoCommand(command, own);
      if (undo !== null) {
        await applyCommand(registry, undo);
        await Promise.all(
          targets.flatMap((m, i) =>
            results[i]?.ok ? [m.channel.request({ kind: 'apply', command: undo }).catch(() => null)] : [],
          ),
        );
      }
      return failed;
    }
    const name = command.op === 'add' ? own.host.name : command.name;
    logger.info(
      `host manager: ${command.op} [${name}] applied in ${results.filter((r) => r !== null).length} worker(s) (${from === null ? 'announced by another instance of the fleet' : `received by worker ${from.worker.id}, pid ${from.worker.process.pid}`})`,
    );
    return own;
  };

  const initial = Array.from({ length: options.workers }, fork);
  const outcomes = await Promise.all(initial.map((m) => m.ready));
  if (outcomes.includes(false)) {
    stopping = true;
    const failure = initial.map((m) => m.failure).find((f) => f !== null) ?? null;
    for (const m of members.values()) m.worker.process.kill('SIGKILL');
    await Promise.all(initial.map((m) => m.exited));
    if (failure?.refused) throw new ServerRefusedError(failure.refused);
    throw new WorkerStartError(failure?.message ?? 'a worker exited before it listened', failure?.code);
  }
  started = true;
  const first = initial[0]!.readyNotice!;
  logger.info(
    `${options.workers} workers listening on ${first.address}:${first.port}: ${initial.map((m) => `worker ${m.worker.id} pid ${m.worker.process.pid}`).join(', ')}`,
  );

  const stopMember = (m: Member): Promise<void> => {
    m.phase = 'stopping';
    m.channel.notify({ kind: 'stop' } satisfies PrimaryNotice);
    // A worker that does not drain in time (plus a margin for its own cut-off) is killed.
    const timer = setTimeout(() => m.worker.process.kill('SIGKILL'), options.drainTimeoutMs + 5_000);
    return m.exited.then(() => clearTimeout(timer));
  };

  let restarting: Promise<void> | null = null;
  const restart = (): Promise<void> => {
    restarting ??= (async () => {
      const outcome = newOutcome();
      try {
        const next = options.prepare();
        const nextPlan = planBase(next.loaded, { target: options.target, unsafe: next.unsafe });
        if (nextPlan.server.state === 'refused') {
          const d = nextPlan.server.reasons[0]!;
          logger.severe(
            `SIGHUP: Tomcat would not start with the configuration as it is now (${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}); the workers keep running`,
          );
          counted('refused');
          return;
        }
        // A context the new configuration would have refused keeps its previous plan (reload.ts).
        const before = plansByContext(runningPlans);
        const decided = nextPlan.contexts.map((c) => ({ c, run: decide(c, before, outcome) }));
        // As a Tomcat restart: the hosts are server.xml's again; host-manager changes not persisted are gone.
        await serial(async () => {
          prepared = next;
          plan = nextPlan;
          registry = HostRegistry.fromBase(next.loaded);
          persister = persisterOf(next.loaded, registry);
          runningPlans = decided.flatMap((d) => (d.run ? [d.run] : []));
          keptPlans = decided.flatMap((d) => (d.run && d.run !== d.c.run ? [d.run] : []));
          // Counted before the new workers start, so that each of them reports this reload too.
          counted(resultOf(outcome));
        });
      } catch (err) {
        logger.severe('SIGHUP: the configuration could not be read again; the workers keep running', err);
        counted('refused');
        return;
      }
      for (const line of problemLines(outcome)) logger.severe(line);
      const old = [...members.values()].filter((m) => m.phase !== 'stopping');
      logger.info(`SIGHUP: replacing ${old.length} worker(s) one by one`);
      const closing: Promise<void>[] = [];
      for (const m of old) {
        if (stopping) return;
        const fresh = fork();
        if (!(await fresh.ready)) {
          logger.severe(
            `SIGHUP: a new worker did not start${fresh.failure ? ` (${fresh.failure.message})` : ''}; worker ${m.worker.id} keeps running`,
          );
          return;
        }
        void stopMember(m);
        closing.push(m.closed);
      }
      // Said once no old worker takes a new connection (they may still finish the requests they hold), so that
      // "reload done" means every connection opened from then on meets the new configuration.
      await Promise.all(closing);
      logger.info(
        `SIGHUP: restarted: ${[...members.values()]
          .filter((m) => m.phase === 'ready')
          .map((m) => `worker ${m.worker.id} pid ${m.worker.process.pid}`)
          .join(', ')}`,
      );
      logger.info(summaryLine(outcome));
    })().finally(() => (restarting = null));
    return restarting;
  };

  let stopDone: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stopDone = resolve));
  let stopAll: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopAll ??= (async () => {
      stopping = true;
      process.off('SIGHUP', onHup);
      process.off('SIGTERM', onStop);
      process.off('SIGINT', onStop);
      // Each worker has a deadline of its own, a little earlier; one that has not exited by this one is killed.
      const disarm = armStopDeadline(options.drainTimeoutMs, () => {
        const left = [...members.values()];
        for (const m of left) m.worker.process.kill('SIGKILL');
        return `${left.length} worker(s) had not exited (killed: ${left.map((m) => `pid ${m.worker.process.pid}`).join(', ')})`;
      });
      await Promise.all([...members.values()].map(stopMember));
      for (const store of state.stores()) store.close();
      disarm();
      stopDone();
    })();
    return stopAll;
  };
  const onHup = (): void => void restart();
  const onStop = (): void => void stop();
  process.on('SIGHUP', onHup);
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);

  return {
    address: first.address,
    port: first.port,
    plan,
    summary: first.summary,
    pids: () => [...members.values()].filter((m) => m.phase === 'ready').map((m) => m.worker.process.pid!),
    stopped,
    stop,
    restart,
  };
}

function persisterOf(base: CatalinaBase, registry: HostRegistry): Persister | null {
  return storeConfigEnabled(base.serverXml)
    ? createServerXmlPersister({ registry, file: join(base.base, 'conf', 'server.xml') })
    : null;
}
