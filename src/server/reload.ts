/**
 * What a SIGHUP reload does with each context: the new plan where Tomcat
 * starts the context, the previous good plan where the new configuration would
 * now be refused (or cannot run on Node), nothing where there never was a good
 * one. Shared by the single process (which swaps its container in place) and
 * the cluster primary (which hands the kept plans to the workers it forks).
 */
import type { Diagnostic } from '../model/index.js';
import type { ContextPlan, PlannedContext } from '../plan/index.js';
import { getLogger } from '../runtime/logging.js';
import { MemoryStateBackend } from '../runtime/memory-state.js';
import type { ContextStores, LockoutPolicy, LockoutStore, RateLimitStore, StateBackend } from '../runtime/state.js';

/** The logger of serve's own lines (start, reload, stop). */
export const serveLogger = getLogger('tollgate.serve');

/** The state of a single serve process kept across its reloads: `state` (Redis) or this process's memory. */
export function retainedState(state: StateBackend | null): RetainedState {
  return new RetainedState(state ?? new MemoryStateBackend());
}

/** A context the reload could not start. */
export interface ReloadProblem {
  host: string;
  contextPath: string;
  /** Why, as `file:line:column: message` when a file is to blame. */
  reason: string;
}

/** What one reload did, context by context. */
export interface ReloadOutcome {
  /** Contexts running the configuration as it is now. */
  reloaded: number;
  /** Contexts that would now be refused and run their previous configuration. */
  kept: ReloadProblem[];
  /** Contexts that would now be refused and had no previous good configuration: not running. */
  failed: ReloadProblem[];
}

/** The key of a context among the plans: host names are case-insensitive, context paths are not. */
export function contextKey(host: string, contextPath: string): string {
  return `${host.toLowerCase()} ${contextPath}`;
}

/** The plans by context, for `decide`. */
export function plansByContext(plans: readonly ContextPlan[]): Map<string, ContextPlan> {
  return new Map(plans.map((p) => [contextKey(p.host, p.contextPath), p]));
}

function located(d: Diagnostic): string {
  return `${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`;
}

/** Why a planned context does not run: Tomcat's first reason, or why Node cannot run it. */
export function whyNotRunning(c: PlannedContext): string {
  const d = c.reasons[0];
  if (d !== undefined) return located(d);
  return c.unrunnable ?? 'not started';
}

/**
 * The plan a context runs after a reload: its new plan when it has one, else its previous good one
 * (recorded in `outcome.kept`), else none (recorded in `outcome.failed` unless it never ran and is not
 * refused by Tomcat). `previous` null: a first start, nothing to keep and nothing counted.
 */
export function decide(
  c: PlannedContext,
  previous: ReadonlyMap<string, ContextPlan> | null,
  outcome: ReloadOutcome,
): ContextPlan | null {
  if (c.run !== null) {
    if (previous !== null) outcome.reloaded++;
    return c.run;
  }
  if (previous === null) return null;
  const problem = { host: c.host, contextPath: c.contextPath, reason: whyNotRunning(c) };
  const before = previous.get(contextKey(c.host, c.contextPath));
  if (before !== undefined) {
    outcome.kept.push(problem);
    return before;
  }
  outcome.failed.push(problem);
  return null;
}

/** An empty outcome. */
export function newOutcome(): ReloadOutcome {
  return { reloaded: 0, kept: [], failed: [] };
}

/** The SEVERE lines of a reload: one per context kept or failed, with the reason. */
export function problemLines(outcome: ReloadOutcome): string[] {
  const at = (p: ReloadProblem): string => `[${p.host}${p.contextPath || '/'}]`;
  return [
    ...outcome.kept.map(
      (p) =>
        `SIGHUP: context ${at(p)} would not start with its configuration as it is now, so it keeps running its previous configuration: ${p.reason}`,
    ),
    ...outcome.failed.map((p) => `SIGHUP: context ${at(p)} does not start: ${p.reason}`),
  ];
}

/** The reload's one summary line. */
export function summaryLine(outcome: ReloadOutcome): string {
  return `SIGHUP: reload done: ${outcome.reloaded} context(s) reloaded, ${outcome.kept.length} kept with their previous configuration, ${outcome.failed.length} failed`;
}

/** The `result` label of tollgate_reloads_total for a reload that was applied. */
export function resultOf(outcome: ReloadOutcome): 'reloaded' | 'partial' {
  return outcome.kept.length + outcome.failed.length === 0 ? 'reloaded' : 'partial';
}

/**
 * The process's memory state kept across reloads: one set of stores per context (and one lock-out
 * table per realm) for the life of the process, so a reload logs nobody out and forgets no lock-out.
 * The runtime closing a context's stores (when its old configuration is released) leaves them open;
 * `close()` closes them all.
 */
export class RetainedState implements StateBackend {
  readonly name: string;
  private readonly contexts = new Map<string, ContextStores>();
  private readonly lockoutTables = new Map<string, LockoutStore>();
  private readonly closers: (() => void)[] = [];

  constructor(private readonly inner: StateBackend) {
    this.name = inner.name;
  }

  context(host: string, contextPath: string, options?: Parameters<StateBackend['context']>[2]): ContextStores {
    const key = contextKey(host, contextPath);
    let stores = this.contexts.get(key);
    if (stores === undefined) {
      const made = this.inner.context(host, contextPath, options);
      const sessions = made.sessions;
      this.closers.push(() => sessions.close());
      const limiters = new Map<string, RateLimitStore>();
      const rateLimiter = (name: string): RateLimitStore => {
        let limiter = limiters.get(name);
        if (limiter === undefined) {
          const opened = made.rateLimiter(name);
          this.closers.push(() => opened.close());
          limiter = keepOpen(opened);
          limiters.set(name, limiter);
        }
        return limiter;
      };
      stores = { sessions: keepOpen(sessions), rateLimiter };
      this.contexts.set(key, stores);
    }
    return stores;
  }

  lockouts(scope: string, settings: LockoutPolicy & { readonly cacheSize: number }): LockoutStore {
    let table = this.lockoutTables.get(scope);
    if (table === undefined) {
      const made = this.inner.lockouts(scope, settings);
      this.closers.push(() => made.close());
      table = keepOpen(made);
      this.lockoutTables.set(scope, table);
    }
    return table;
  }

  async close(): Promise<void> {
    for (const c of this.closers.splice(0)) c();
    await this.inner.close();
  }
}

/** The object with a `close()` that does nothing (its owner closes the original). */
function keepOpen<T extends { close(): void }>(target: T): T {
  return new Proxy(target, {
    get(t, p) {
      if (p === 'close') return () => undefined;
      const v: unknown = Reflect.get(t, p, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}
