import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { TomcatTarget } from '../../filters/index.js';
import { lintBase } from '../../lint/engine.js';
import { loadBase } from '../../parser/index.js';
import { startCluster, WorkerStartError, type PreparedBase } from '../../server/cluster-primary.js';
import { isServeWorker, runServeWorker } from '../../server/cluster-worker.js';
import { armStopDeadline, DEFAULT_DRAIN_TIMEOUT_MS, StopPhase } from '../../server/shutdown.js';
import { configureServeLog, parseLogFormat, startupLogger, type LogFormat } from '../../server/serve-log.js';
import { ServerRefusedError, startContainer, type Container } from '../../server/container.js';
import { problemLines, resultOf, retainedState, serveLogger as logger, summaryLine } from '../../server/reload.js';
import { Metrics, notReadyReason, startOpsServer, storeHealth, storeProbe } from '../../server/ops.js';
import { applyCommand, type HostCommand } from '../../server/cluster-channel.js';
import { Fleet } from '../../server/fleet.js';
import type { HostOperations, Persister } from '../../server/host-manager.js';
import type { HostRegistry } from '../../server/hosts.js';
import { createServerXmlPersister, storeConfigEnabled } from '../../server/persist.js';
import { redactRedisUrl } from '../../stores/url.js';
import type { Diagnostic, PropertiesFile } from '../../model/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { integerOption, single, stringOption, targetOption } from '../options.js';
import { ConfigError, loadConfig } from '../../lint/config.js';
import type { RedisStateOptions, StateBackend } from '../../stores/redis.js';
import { parseStoreChoice, type StoreChoice } from '../../stores/url.js';
import { skippedLine, stylish, UNSAFE_RULES } from '../plan-output.js';

/** The most processes `--workers` accepts: far more than any machine has cores for, few enough to be a mistake beyond. */
const MAX_WORKERS = 256;

/** `--workers`: auto (one per core Node may use) or a count; 1 is one process without node:cluster. */
export function parseServeWorkers(value: unknown): number | 'auto' {
  const v = single('workers', value);
  if (v === 'auto') return 'auto';
  const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= MAX_WORKERS))
    throw new Error(`--workers "${v}": write auto or a number of processes from 1 to ${MAX_WORKERS}`);
  return n;
}

export const serveCommand: Command = {
  builder: (y: Argv) =>
    y
      .option('base', stringOption('base', 'CATALINA_BASE directory', { demandOption: true }))
      .option('home', stringOption('home', 'CATALINA_HOME (defaults to --base)'))
      .option(
        'port',
        integerOption('port', 0, 65535, 'Port (default: the HTTP connector of server.xml; 0 picks a free one)'),
      )
      .option('address', stringOption('address', 'Address to bind', { default: '127.0.0.1' }))
      .option('strict', { type: 'boolean', default: false, describe: 'Refuse to start when lint finds any error' })
      .option('target', targetOption(true))
      .option('allow-app-base-outside-base', {
        type: 'boolean',
        default: false,
        describe: 'Let the host manager add hosts whose appBase is outside the base',
      })
      .option('workers', {
        type: 'string',
        default: '1',
        requiresArg: true,
        coerce: parseServeWorkers,
        describe: 'Processes sharing the port (node:cluster): auto (one per core) or a number; 1 runs one process',
      })
      .option('store', {
        type: 'string',
        requiresArg: true,
        coerce: (v: unknown) => parseStoreChoice(single('store', v)),
        describe:
          "Where sessions, CSRF nonces, rate-limit windows and the lock-out table live: memory (default), redis (TOLLGATE_REDIS_URL) or redis://host:port (default: tollgate.config.json's store)",
      })
      .option(
        'ops-port',
        integerOption(
          'ops-port',
          0,
          65535,
          'Port of the operations listener: /ready (503 while Redis does not answer or the instance drains), /live, /metrics (Prometheus); off by default',
        ),
      )
      .option('ops-address', stringOption('ops-address', 'Address of the operations listener (default: --address)'))
      .option(
        'drain-timeout',
        integerOption(
          'drain-timeout',
          1,
          3600,
          `Seconds a stop (SIGTERM, SIGINT) gives the requests in flight; serve exits by then whatever Redis or a client does (default ${DEFAULT_DRAIN_TIMEOUT_MS / 1000})`,
        ),
      )
      .option('log-format', {
        type: 'string',
        default: 'text',
        requiresArg: true,
        coerce: (v: unknown) => parseLogFormat(single('log-format', v)),
        describe:
          'Log lines as text (time, level, [logger], message) or json (one object per line: time, level, logger, message, fields)',
      })
      .option('allow-redis-eviction', {
        type: 'boolean',
        default: false,
        describe:
          'Use a Redis whose maxmemory-policy may evict keys (or cannot be read); without it serve refuses such a Redis, since eviction drops lock-outs and sessions',
      }),
  run: async (argv: Record<string, unknown>, io: Io) => {
    const base = resolve(io.cwd, String(argv['base']));
    if (!existsSync(base) || !statSync(base).isDirectory())
      throw new UsageError(`--base ${String(argv['base'])} is not a directory`);
    const logFormat = (argv['logFormat'] as LogFormat | undefined) ?? 'text';
    // Every line a record with its time and level; the levels of conf/logging.properties once the base is read.
    let unlog = configureServeLog({ format: logFormat, out: io.stdout, err: io.stderr });
    try {
      return await serve(argv, io, base, logFormat, (properties) => {
        unlog();
        unlog = configureServeLog({ format: logFormat, properties, out: io.stdout, err: io.stderr });
      });
    } finally {
      unlog();
    }
  },
};

/** The serve command once its output is set up; `logging` applies the base's conf/logging.properties. */
async function serve(
  argv: Record<string, unknown>,
  io: Io,
  base: string,
  logFormat: LogFormat,
  logging: (properties: PropertiesFile | null | undefined) => void,
): Promise<number> {
  {
    const home = argv['home'] ? resolve(io.cwd, String(argv['home'])) : undefined;
    const target = argv['target'] as TomcatTarget;
    const address = String(argv['address']);
    const port = argv['port'] !== undefined ? Number(argv['port']) : undefined;
    const allowAppBaseOutsideBase = argv['allowAppBaseOutsideBase'] === true;
    const ops =
      argv['opsPort'] !== undefined
        ? { port: Number(argv['opsPort']), address: argv['opsAddress'] ? String(argv['opsAddress']) : address }
        : undefined;
    const store = storeSettings(argv['store'] as StoreChoice | undefined, io.cwd, argv['allowRedisEviction'] === true);
    const drainTimeoutMs =
      argv['drainTimeout'] !== undefined ? Number(argv['drainTimeout']) * 1000 : DEFAULT_DRAIN_TIMEOUT_MS;
    // A worker forked by the primary below: the primary has linted and printed; the worker serves (its own connection to the store).
    if (isServeWorker()) {
      const state = await openState(store, io, false);
      return runServeWorker({
        base,
        ...(home ? { home } : {}),
        ...(port !== undefined ? { port } : {}),
        address,
        target,
        allowAppBaseOutsideBase,
        ...(state ? { state } : {}),
        ...(ops ? { ops } : {}),
        drainTimeoutMs,
        fleet: store !== null,
        logFormat,
      });
    }
    const requested = argv['workers'] as number | 'auto';
    const workers = requested === 'auto' ? availableParallelism() : requested;

    // Lint is shown, not obeyed: what starts is the plan's to decide (as Tomcat), unless --strict.
    const prepare = (report: boolean): PreparedBase & { errors: number; problems: Diagnostic[] } => {
      const loaded = loadBase({ base, ...(home ? { home } : {}) });
      logging(loaded.loggingProperties);
      const problems = lintBase(loaded, { target }).diagnostics.filter((d) => d.severity !== 'info');
      const unsafe = problems.filter((d) => d.severity === 'error' && UNSAFE_RULES.has(d.ruleId));
      const errors = problems.filter((d) => d.severity === 'error').length;
      // One line in the service log; the report itself is `tollgate lint`'s (in full only when --strict refuses).
      if (report)
        startupLogger.info(
          `tollgate serve: lint found ${errors} error(s) and ${problems.length - errors} warning(s)${problems.length ? `; run \`tollgate lint ${relative(io.cwd, base) || '.'}\` for the report` : ''}`,
        );
      return { loaded, unsafe, errors, problems };
    };
    const first = prepare(true);
    if (argv['strict'] === true && first.errors > 0) {
      io.stderr(stylish(first.problems, first.loaded, io));
      logger.severe(`tollgate serve: --strict: ${first.errors} lint error(s), not starting`);
      return 1;
    }
    if (workers > 1 && store !== null) {
      // The workers connect themselves; the primary checks the eviction policy once before forking them.
      const probe = await openState(store, io, false);
      const refused = probe !== null && refusedStore(probe);
      await probe?.close();
      if (refused) return 1;
    }
    // With a shared store, host-manager changes reach every instance sharing it (server/fleet.ts).
    const fleet = await openFleet(store);
    if (workers > 1)
      return serveCluster(
        io,
        workers,
        target,
        store === null ? 'in the primary process, for every worker' : 'Redis, each worker connected to it',
        first,
        drainTimeoutMs,
        () => {
          const again = prepare(false);
          if (argv['strict'] === true && again.errors > 0) throw new Error(`--strict: ${again.errors} lint error(s)`);
          return again;
        },
        fleet,
      );
    const { loaded, unsafe } = first;
    const state = await openState(store, io, true);
    if (state !== null && refusedStore(state)) {
      await state.close();
      await fleet?.close();
      return 1;
    }
    const metrics = ops ? new Metrics(() => storeHealth(state)) : undefined;
    // One set of stores per context for the life of the process: a SIGHUP reload logs nobody out.
    const retained = retainedState(state);
    // The host manager's commands and persist on this process's hosts, then on the other instances.
    let serverXmlNow = loaded.serverXml;
    const fleetHosts = fleet
      ? singleProcessFleet(fleet.fleet, join(base, 'conf', 'server.xml'), () => ({
          registry: container.registry,
          storeConfig: storeConfigEnabled(serverXmlNow),
        }))
      : null;
    const settings = {
      ...(metrics ? { metrics } : {}),
      ...(fleetHosts
        ? { hostOperations: fleetHosts.operations, persister: fleetHosts.persister(loaded.serverXml) }
        : {}),
      state: retained,
      base,
      ...(home ? { home } : {}),
      ...(port !== undefined ? { port } : {}),
      address,
      target,
      allowAppBaseOutsideBase,
    };
    let container: Container;
    try {
      container = await startContainer({ ...settings, loaded, unsafe });
    } catch (e) {
      await retained.close();
      await fleet?.close();
      return startFailure(e, io);
    }
    const running = { draining: () => container.draining };
    let opsServer;
    try {
      opsServer =
        ops && metrics
          ? await startOpsServer({
              ...ops,
              metrics,
              notReady: () => notReadyReason({ draining: running.draining() }, state),
              probe: storeProbe(state),
            })
          : null;
    } catch (e) {
      await container.stop();
      await retained.close();
      return startFailure(e, io);
    }
    // SIGHUP: the base planned again; the new container takes over the listening socket (reload.ts).
    let reloading: Promise<void> | null = null;
    const reload = (): Promise<void> =>
      (reloading ??= (async () => {
        let fresh: Container;
        let freshXml: typeof serverXmlNow;
        try {
          const next = prepare(false);
          freshXml = next.loaded.serverXml;
          if (argv['strict'] === true && next.errors > 0) throw new Error(`--strict: ${next.errors} lint error(s)`);
          fresh = await startContainer({
            ...settings,
            loaded: next.loaded,
            unsafe: next.unsafe,
            ...(fleetHosts ? { persister: fleetHosts.persister(next.loaded.serverXml) } : {}),
            server: container.server,
            previous: container.running,
          });
        } catch (e) {
          if (e instanceof ServerRefusedError) {
            const d = e.diagnostics[0]!;
            logger.severe(
              `SIGHUP: Tomcat would not start with the configuration as it is now (${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}); serve keeps running the previous configuration`,
            );
          } else {
            logger.severe(
              'SIGHUP: the configuration could not be read again; serve keeps running the previous configuration',
              e,
            );
          }
          metrics?.reloads.inc({ result: 'refused' });
          return;
        }
        container.release();
        fresh.attach();
        container = fresh;
        serverXmlNow = freshXml;
        for (const line of problemLines(fresh.outcome)) logger.severe(line);
        metrics?.reloads.inc({ result: resultOf(fresh.outcome) });
        logger.info(summaryLine(fresh.outcome));
      })().finally(() => (reloading = null)));
    const onHup = (): void => void reload();
    process.on('SIGHUP', onHup);
    for (const s of container.plan.skipped) logger.severe(skippedLine('serve', s, io).trimEnd());
    const origin = `http://${container.address.includes(':') ? `[${container.address}]` : container.address}:${container.port}`;
    startupLogger.info(`listening on ${origin} (send the Host header to pick a virtual host)`);
    for (const l of container.summary) startupLogger.info(l.replace(/http:\/\/([^/]+)/, `$1 -> ${origin}`));
    startupLogger.info(`host manager: ${origin}/host-manager/text/list (user with the admin-script role)`);
    if (opsServer) {
      const a = opsServer.address() as { address: string; port: number };
      startupLogger.info(
        `operations: http://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}/ready, /live, /metrics`,
      );
    }
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.off('SIGHUP', onHup);
        // The requests in flight finish; new connections are refused. Whatever is left at the deadline is cut.
        const phase = new StopPhase();
        const disarm = armStopDeadline(
          drainTimeoutMs,
          () => String(phase),
          () => container.accessLogs.close(),
        );
        void container
          .drain(drainTimeoutMs)
          .then(() => {
            phase.set('the container was still closing');
            return container.stop();
          })
          .then(() => void opsServer?.close())
          .then(() => {
            phase.set('the state store (Redis) did not close');
            return retained.close();
          })
          // Its sockets are destroyed at once: it never waits on Redis.
          .then(() => fleet?.close())
          .then(() => {
            disarm();
            done();
          });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    startupLogger.info('tollgate serve: stopped');
    return 0;
  }
}

/** What `--store` says, else tollgate.config.json's `store` (found upward from the working directory), else memory. */
function storeSettings(flag: StoreChoice | undefined, cwd: string, allowEviction: boolean): RedisStateOptions | null {
  let config;
  try {
    config = loadConfig(cwd).config.store;
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  let choice = flag;
  if (choice === undefined && config !== undefined) {
    try {
      choice = parseStoreChoice(config.url);
    } catch (e) {
      throw new UsageError(`tollgate.config.json store.url: ${(e as Error).message}`);
    }
  }
  if (choice === undefined || choice.kind === 'memory') return null;
  const { url: _url, ...options } = config ?? {};
  return { ...options, url: choice.url, allowEviction };
}

/** Connects to Redis when chosen; serve starts either way (failing closed until Redis answers). */
async function openState(options: RedisStateOptions | null, io: Io, report: boolean): Promise<StateBackend | null> {
  if (options === null) return null;
  const { createRedisBackend } = await import('../../stores/redis.js');
  const backend = createRedisBackend(options);
  const up = await backend.ready(options.connectTimeoutMs ?? 2_000);
  if (report)
    startupLogger.info(
      `state: ${backend.name}${up ? '' : ' (not answering yet: CSRF checks, the lock-out and rate limits refuse until it does)'}`,
    );
  return backend;
}

/** The fleet of the instances sharing this Redis, and its pub/sub channel (both connections opened in the background). */
async function openFleet(options: RedisStateOptions | null): Promise<{ fleet: Fleet; close(): Promise<void> } | null> {
  if (options === null) return null;
  const { createRedisBroadcast } = await import('../../stores/broadcast.js');
  const url = options.url ?? 'redis://127.0.0.1:6379';
  const fleet = new Fleet(redactRedisUrl(url));
  const channel = createRedisBroadcast({
    url,
    channel: `${options.prefix ?? 'tollgate:'}fleet:hosts`,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    onMessage: fleet.receive,
  });
  fleet.connect(channel);
  return { fleet, close: () => channel.close() };
}

/**
 * Without --workers: the host commands and persist of this process's container, passed on to the other
 * instances through the fleet, and what the others announce applied to the container running now.
 */
function singleProcessFleet(
  fleet: Fleet,
  serverXmlFile: string,
  current: () => { registry: HostRegistry; storeConfig: boolean },
): { operations: HostOperations; persister(serverXml: Parameters<typeof storeConfigEnabled>[0]): Persister | null } {
  const here = (command: HostCommand) => applyCommand(current().registry, command);
  const run = (command: HostCommand) => fleet.run(command, () => here(command), here);
  const persistHere = async (): Promise<void> => {
    const c = current();
    if (!c.storeConfig) throw new Error('StoreConfig is not enabled');
    await createServerXmlPersister({ registry: c.registry, file: serverXmlFile }).persist();
  };
  fleet.applyWith(async (command) => {
    try {
      if (command.op === 'persist') await persistHere();
      else {
        const r = await here(command);
        if (!r.ok) return { ok: false, message: r.failure.code };
      }
      return { ok: true };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  });
  return {
    operations: {
      fleetWide: true,
      add: (input, policy) => run({ op: 'add', input, policy }),
      remove: (name) => run({ op: 'remove', name }),
      start: (name) => run({ op: 'start', name }),
      stop: (name) => run({ op: 'stop', name }),
    },
    persister: (serverXml) => (storeConfigEnabled(serverXml) ? { persist: () => fleet.persist(persistHere) } : null),
  };
}

/** Whether the store refuses this Redis (an evicting maxmemory-policy): one SEVERE line says why. */
function refusedStore(state: StateBackend): boolean {
  const problem = (state as { policyProblem?: string | null }).policyProblem ?? null;
  if (problem === null) return false;
  logger.severe(`tollgate serve: not starting: ${problem}`);
  return true;
}

/** Why serve did not start, as exit code 1 (Tomcat refuses) or a usage error (the port). */
function startFailure(e: unknown, io: Io): number {
  if (e instanceof ServerRefusedError) {
    const d: Diagnostic = e.diagnostics[0]!;
    logger.severe(
      `tollgate serve: Tomcat does not start with this configuration, so neither does serve: ${relative(io.cwd, d.span.file) || d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`,
    );
    return 1;
  }
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') throw new UsageError(`cannot listen: ${(e as Error).message}`);
  throw e;
}

/** `--workers N` with N > 1: the primary forks the workers, prints what they serve and waits for SIGTERM/SIGINT. */
async function serveCluster(
  io: Io,
  workers: number,
  target: TomcatTarget,
  state: string,
  first: PreparedBase,
  drainTimeoutMs: number,
  again: () => PreparedBase,
  fleet: { fleet: Fleet; close(): Promise<void> } | null,
): Promise<number> {
  let prepared: PreparedBase | null = first;
  let running;
  try {
    running = await startCluster({
      workers,
      target,
      drainTimeoutMs,
      ...(fleet ? { fleet: fleet.fleet } : {}),
      prepare: () => {
        // The base was read and linted for the start-up message; SIGHUP reads it again.
        const p = prepared ?? again();
        prepared = null;
        return p;
      },
    });
  } catch (e) {
    await fleet?.close();
    if (e instanceof WorkerStartError) return startFailure(Object.assign(new Error(e.message), { code: e.code }), io);
    return startFailure(e, io);
  }
  for (const s of running.plan.skipped) logger.severe(skippedLine('serve', s, io).trimEnd());
  const origin = `http://${running.address.includes(':') ? `[${running.address}]` : running.address}:${running.port}`;
  startupLogger.info(
    `listening on ${origin} with ${workers} worker processes (pids ${running.pids().join(', ')}; send the Host header to pick a virtual host)`,
  );
  for (const l of running.summary) startupLogger.info(l.replace(/http:\/\/([^/]+)/, `$1 -> ${origin}`));
  startupLogger.info(`host manager: ${origin}/host-manager/text/list (user with the admin-script role)`);
  startupLogger.info(`state (sessions, CSRF nonces, rate limits, lock-outs): ${state}`);
  await running.stopped;
  await fleet?.close();
  startupLogger.info('tollgate serve: stopped');
  return 0;
}
