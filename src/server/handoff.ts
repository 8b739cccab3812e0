/**
 * Connections the cluster primary has handed to a worker that never took them.
 *
 * With node:cluster's round-robin scheduling (the default outside Windows) the primary accepts each
 * connection and sends its handle to a worker; it closes its own copy only when the worker answers
 * that it accepted it. A worker that dies before answering (SIGKILL while it was stopped, busy or
 * swapping) never answers, and Node keeps the primary's copy open for ever: the client waits with
 * its request unanswered (an operator saw one for 18 minutes). Node's cluster has no public hook for
 * this, so the primary watches the handles it sends through the worker's `send` (the public
 * ChildProcess method Node's cluster calls for each `newconn`) and closes, when the worker exits,
 * those it never accepted.
 */
import type { ChildProcess } from 'node:child_process';

interface Closable {
  close(callback?: () => void): void;
}

/** The worker each handle was last sent to, as that worker's set of handles it has not accepted. */
const pendingOf = new WeakMap<Closable, Set<Closable>>();

function isNewConnection(message: unknown): boolean {
  const m = message as { cmd?: unknown; act?: unknown } | null;
  return typeof m === 'object' && m !== null && m.cmd === 'NODE_CLUSTER' && m.act === 'newconn';
}

function closable(handle: unknown): handle is Closable {
  return typeof handle === 'object' && handle !== null && typeof (handle as Closable).close === 'function';
}

/**
 * Watches the connections the primary hands to `proc` (a worker's process); the function returned
 * closes those it never accepted and says how many. Call it when the worker has exited.
 */
export function watchHandoffs(proc: ChildProcess): () => number {
  const pending = new Set<Closable>();
  const send = proc.send.bind(proc) as (...args: unknown[]) => boolean;
  (proc as { send: unknown }).send = (...args: unknown[]): boolean => {
    const [message, handle] = args;
    if (isNewConnection(message) && closable(handle)) {
      const before = pendingOf.get(handle);
      // A connection a closing worker turned down goes to the next one: it is that one's now.
      before?.delete(handle);
      pending.add(handle);
      pendingOf.set(handle, pending);
      if (before === undefined) {
        // Node closes the primary's copy once a worker has accepted it: no longer pending anywhere.
        const close = handle.close.bind(handle);
        handle.close = (callback?: () => void): void => {
          pendingOf.get(handle)?.delete(handle);
          pendingOf.delete(handle);
          close(callback);
        };
      }
    }
    return send(...args);
  };
  return () => {
    const left = [...pending];
    for (const handle of left) handle.close();
    return left.length;
  };
}
