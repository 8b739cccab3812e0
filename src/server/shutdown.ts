/**
 * The bound on a stop (SIGTERM, SIGINT): requests in flight get `--drain-timeout` (30 s by default) to
 * finish, and the process exits by then whatever else is still under way. A hung Redis (SIGSTOP, a
 * dead peer), a client that never finishes its request or a worker that does not answer cannot hold
 * the stop past it: at the deadline one WARNING line says so, what must not be lost is written
 * (access logs, synchronously) and the process exits.
 */
import { serveLogger } from './reload.js';

/** The default drain bound: what the docs (docs/deployment.md) promise without `--drain-timeout`. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/** The text of the line written when the deadline cuts a stop short; tests and operators look for it. */
export const DEADLINE_REACHED = 'drain deadline reached';

/**
 * Arms the deadline of a stop that begins now: after `ms`, unless disarmed, logs why (`pending()` says
 * what was still under way), runs `last()` (synchronous: flush what must not be lost) and exits the
 * process with code 0 (a stop that was asked for). Returns the function that disarms it.
 */
export function armStopDeadline(ms: number, pending: () => string, last: () => void = () => undefined): () => void {
  const timer = setTimeout(() => {
    let what: string;
    try {
      what = pending();
    } catch {
      what = 'the stop was still under way';
    }
    serveLogger.warning(`${DEADLINE_REACHED} (${formatSeconds(ms)} after the stop began): ${what}; exiting now`);
    try {
      last();
    } finally {
      process.exit(0);
    }
  }, ms);
  return () => clearTimeout(timer);
}

/** `30 s`, `2.5 s`. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * A worker's share of the bound: its primary exits at `totalMs`, so the worker's own deadline comes a
 * second earlier (a quarter earlier for bounds under 4 s), leaving the primary time to see it exit.
 */
export function workerDeadlineMs(totalMs: number): number {
  return totalMs >= 4_000 ? totalMs - 1_000 : Math.floor(totalMs * 0.75);
}

/** What a stop is doing, for the deadline's line. */
export class StopPhase {
  private phase = 'requests in flight were still running';
  set(phase: string): void {
    this.phase = phase;
  }
  toString(): string {
    return this.phase;
  }
}
