/**
 * State kept in the cluster's primary and used from the workers over IPC
 * (`serve --workers N` without `--store`): a worker's stores forward their
 * method calls, which are collected for the rest of the current tick and sent
 * as one message; the primary runs them in order on its in-memory stores and
 * answers them in one message. What a request's filters ask at once therefore
 * costs one round trip, and every worker sees the same sessions, nonces,
 * windows and lock-outs, however the connections are spread.
 */
import { MemoryLockoutStore, MemoryRateLimitStore } from '../runtime/memory-state.js';
import { MemorySessionStore } from '../runtime/session.js';
import { TooManyActiveSessionsError } from '../runtime/state.js';
import type {
  ContextStoreOptions,
  ContextStores,
  LockoutPolicy,
  LockoutRecord,
  LockoutStore,
  RateLimitStore,
  SessionRecord,
  SessionStore,
  StateBackend,
} from '../runtime/state.js';

/** One method call on one of the primary's stores, named by `target` (a store kind and its context). */
export interface StateCall {
  target: string;
  method: string;
  args: unknown[];
}

/** A failed call's answer; `maxActiveSessions` is set when a session store refused a new session at its limit. */
export type StateAnswer = { ok: true; value: unknown } | { ok: false; message: string; maxActiveSessions?: number };

/** The worker's side: batches calls and resolves each with its answer. */
export class StateClient {
  private batch: { call: StateCall; resolve(v: unknown): void; reject(e: Error): void }[] = [];
  private scheduled = false;

  /** `send` carries one batch to the primary and resolves with its answers, in order. */
  constructor(private readonly send: (calls: StateCall[]) => Promise<StateAnswer[]>) {}

  call(target: string, method: string, args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.batch.push({ call: { target, method, args }, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // After the current tick's microtasks: the filters of one request that ask together go together.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.batch;
    this.batch = [];
    this.send(batch.map((b) => b.call)).then(
      (answers) => {
        batch.forEach((b, i) => {
          const a = answers[i];
          if (a === undefined) b.reject(new Error('the primary gave no answer'));
          else if (a.ok) b.resolve(a.value);
          else
            b.reject(
              a.maxActiveSessions === undefined
                ? new Error(a.message)
                : new TooManyActiveSessionsError(a.maxActiveSessions),
            );
        });
      },
      (err: Error) => {
        for (const b of batch) b.reject(err);
      },
    );
  }
}

/** The primary's side: the stores by target, made on first use, and the calls run one after the other. */
export class StateHost {
  private readonly targets = new Map<string, { close(): void }>();

  /** `create` makes the store a target names (it throws for a name it does not know). */
  constructor(private readonly create: (target: string) => { close(): void }) {}

  async run(calls: readonly StateCall[]): Promise<StateAnswer[]> {
    const answers: StateAnswer[] = [];
    for (const c of calls) {
      try {
        let store = this.targets.get(c.target);
        if (store === undefined) this.targets.set(c.target, (store = this.create(c.target)));
        const fn = (store as unknown as Record<string, unknown>)[c.method];
        if (typeof fn !== 'function') throw new Error(`${c.target} has no method ${c.method}`);
        answers.push({ ok: true, value: await (fn as (...a: unknown[]) => unknown).apply(store, c.args) });
      } catch (err) {
        answers.push(
          err instanceof TooManyActiveSessionsError
            ? { ok: false, message: err.message, maxActiveSessions: err.maxActiveSessions }
            : { ok: false, message: err instanceof Error ? err.message : String(err) },
        );
      }
    }
    return answers;
  }

  /** Every store made so far (to stop their timers when the cluster stops). */
  stores(): { close(): void }[] {
    return [...this.targets.values()];
  }
}

/** Names a store of the primary: its kind and the context (or realm) it belongs to. */
type Target =
  | ['sessions', host: string, contextPath: string, maxActiveSessions: number]
  | ['rate', host: string, contextPath: string, filterName: string]
  | ['lockouts', scope: string, failureCount: number, lockOutTime: number, cacheSize: number];

const key = (t: Target): string => JSON.stringify(t);

/** A worker's state: every store is the primary's, reached through `client`. */
export class ClusterStateBackend implements StateBackend {
  readonly name = 'cluster primary';

  constructor(private readonly client: StateClient) {}

  context(host: string, contextPath: string, options: ContextStoreOptions = {}): ContextStores {
    const max = options.maxActiveSessions ?? -1;
    const sessions = new RemoteSessionStore(this.client, key(['sessions', host.toLowerCase(), contextPath, max]), max);
    return {
      sessions,
      rateLimiter: (filterName) =>
        new RemoteRateLimitStore(this.client, key(['rate', host.toLowerCase(), contextPath, filterName])),
    };
  }

  lockouts(scope: string, settings: LockoutPolicy & { readonly cacheSize: number }): LockoutStore {
    return new RemoteLockoutStore(
      this.client,
      key(['lockouts', scope, settings.failureCount, settings.lockOutTime, settings.cacheSize]),
    );
  }

  async close(): Promise<void> {}
}

class RemoteSessionStore implements SessionStore {
  constructor(
    private readonly client: StateClient,
    private readonly target: string,
    readonly maxActiveSessions: number,
  ) {}
  load(id: string, now: number): Promise<SessionRecord | null> {
    return this.client.call(this.target, 'load', [id, now]) as Promise<SessionRecord | null>;
  }
  create(record: SessionRecord): Promise<void> {
    return this.client.call(this.target, 'create', [record]) as Promise<void>;
  }
  update(record: SessionRecord, changes: ReadonlyMap<string, unknown>): Promise<void> {
    return this.client.call(this.target, 'update', [record, changes]) as Promise<void>;
  }
  rename(oldId: string, newId: string): Promise<boolean> {
    return this.client.call(this.target, 'rename', [oldId, newId]) as Promise<boolean>;
  }
  remove(id: string): Promise<void> {
    return this.client.call(this.target, 'remove', [id]) as Promise<void>;
  }
  addNonce(id: string, nonce: string, cacheSize: number): Promise<void> {
    return this.client.call(this.target, 'addNonce', [id, nonce, cacheSize]) as Promise<void>;
  }
  restToken(id: string, fresh: string): Promise<string | null> {
    return this.client.call(this.target, 'restToken', [id, fresh]) as Promise<string | null>;
  }
  /** The sessions live on in the primary (a restarted worker finds them again). */
  close(): void {}
}

class RemoteRateLimitStore implements RateLimitStore {
  constructor(
    private readonly client: StateClient,
    private readonly target: string,
  ) {}
  increment(key: string, window: number, windowMs: number): Promise<number> {
    return this.client.call(this.target, 'increment', [key, window, windowMs]) as Promise<number>;
  }
  close(): void {}
}

class RemoteLockoutStore implements LockoutStore {
  constructor(
    private readonly client: StateClient,
    private readonly target: string,
  ) {}
  get(user: string): Promise<LockoutRecord | null> {
    return this.client.call(this.target, 'get', [user]) as Promise<LockoutRecord | null>;
  }
  registerFailure(user: string, now: number, policy: LockoutPolicy): Promise<LockoutRecord> {
    return this.client.call(this.target, 'registerFailure', [user, now, policy]) as Promise<LockoutRecord>;
  }
  clear(user: string): Promise<void> {
    return this.client.call(this.target, 'clear', [user]) as Promise<void>;
  }
  close(): void {}
}

/**
 * The in-memory session store as the primary keeps it for its workers. A worker sends copies of
 * records, so `update` applies the request's changes to the stored record itself (in one process the
 * request changed that very object, and the memory store's update has nothing to do).
 */
class PrimarySessionStore implements SessionStore {
  constructor(private readonly memory: MemorySessionStore) {}
  get maxActiveSessions(): number {
    return this.memory.maxActiveSessions;
  }
  load(id: string, now: number): SessionRecord | null {
    return this.memory.load(id, now);
  }
  create(record: SessionRecord): void {
    this.memory.create(record);
  }
  update(record: SessionRecord, changes: ReadonlyMap<string, unknown>): void {
    const stored = this.memory.peek(record.id);
    if (stored === undefined) return;
    for (const [name, value] of changes) {
      if (value === undefined) stored.attributes.delete(name);
      else stored.attributes.set(name, value);
    }
    stored.maxInactiveInterval = record.maxInactiveInterval;
  }
  rename(oldId: string, newId: string): boolean {
    return this.memory.rename(oldId, newId);
  }
  remove(id: string): void {
    this.memory.remove(id);
  }
  addNonce(id: string, nonce: string, cacheSize: number): void {
    this.memory.addNonce(id, nonce, cacheSize);
  }
  restToken(id: string, fresh: string): string | null {
    return this.memory.restToken(id, fresh);
  }
  close(): void {
    this.memory.close();
  }
}

/** Makes the primary's store a target names (StateHost's `create`). */
export function primaryStore(target: string): SessionStore | RateLimitStore | LockoutStore {
  const t = JSON.parse(target) as Target;
  switch (t[0]) {
    case 'sessions':
      return new PrimarySessionStore(new MemorySessionStore({ maxActiveSessions: t[3] }));
    case 'rate':
      return new MemoryRateLimitStore();
    case 'lockouts':
      return new MemoryLockoutStore({ failureCount: t[2], lockOutTime: t[3], cacheSize: t[4] });
    default:
      throw new Error(`no such store: ${target}`);
  }
}
