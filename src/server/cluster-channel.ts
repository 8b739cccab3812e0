/**
 * The messages between the processes of `tollgate serve --workers N` and the
 * request/answer bookkeeping over node:cluster's IPC channel. Every message
 * carries `tollgate: 'serve'`, so anything else on the channel is left alone.
 */
import type { Diagnostic } from '../model/index.js';
import type { ContextPlan } from '../plan/index.js';
import type { StateAnswer, StateCall } from './cluster-state.js';
import type { AddHostInput, AddPolicy, HostRegistry, HostResult, VirtualHost } from './hosts.js';

/** A host-manager command that changes state, as the primary replays it on every worker. */
export type HostCommand =
  { op: 'add'; input: AddHostInput; policy: AddPolicy } | { op: 'remove' | 'start' | 'stop'; name: string | null };

/** What a worker asks the primary; the answer types are in WorkerAnswers. */
export type WorkerRequest =
  /**
   * The findings that keep contexts from running (lint runs once, in the primary), the previous plans of
   * the contexts a reload keeps (Tomcat would refuse them now) and the reloads counted so far by result.
   */
  | { kind: 'hello' }
  /** The hosts as they are now; the primary runs no host command until this worker reports ready or exits. */
  | { kind: 'join' }
  | { kind: 'host'; command: HostCommand }
  | { kind: 'persist' }
  /** Calls on the stores the primary keeps for every worker (cluster-state.ts). */
  | { kind: 'state'; calls: StateCall[] };

export interface WorkerAnswers {
  hello: { unsafe: Diagnostic[]; kept: ContextPlan[]; reloads: Record<string, number> };
  join: { hosts: VirtualHost[] };
  host: HostResult;
  /** `fleet`: refused because the other instances sharing the store could not be told (fleet.ts). */
  persist: { ok: true } | { ok: false; message: string; fleet?: boolean };
  state: StateAnswer[];
}

/** What the primary asks a worker: apply a command the primary has already applied to its own registry. */
export type PrimaryRequest = { kind: 'apply'; command: HostCommand };

export type WorkerNotice =
  | { kind: 'ready'; address: string; port: number; summary: string[] }
  /** Start-up failed (the worker exits): `code` is the listen error's (EADDRINUSE...), `refused` when Tomcat would not start. */
  | { kind: 'failed'; message: string; code?: string; refused?: Diagnostic[] }
  /** Stopping: the worker has closed its listener, so the primary hands it no new connection. */
  | { kind: 'closed' };

export type PrimaryNotice = { kind: 'stop' };

interface Envelope {
  tollgate: 'serve';
  /** A request expecting an answer. */
  id?: number;
  /** The answer to request `reply`. */
  reply?: number;
  error?: string;
  body?: unknown;
}

/** The sending half of a cluster worker or of `process` in a worker. */
export interface Port {
  send(message: unknown, callback?: (error: Error | null) => void): boolean;
}

/** Requests with answers over one IPC channel, in both directions. */
export class Channel<In, Out, InNotice, OutNotice> {
  private next = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private closedWith: Error | null = null;

  constructor(
    private readonly port: Port,
    private readonly answer: (request: In) => Promise<unknown>,
    private readonly notice: (notice: InNotice) => void,
  ) {}

  /** Feeds a message received on the channel; others than tollgate's are ignored. */
  receive(message: unknown): void {
    if (message === null || typeof message !== 'object' || (message as Envelope).tollgate !== 'serve') return;
    const m = message as Envelope;
    if (m.reply !== undefined) {
      const p = this.pending.get(m.reply);
      if (p === undefined) return;
      this.pending.delete(m.reply);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.body);
      return;
    }
    if (m.id === undefined) {
      this.notice(m.body as InNotice);
      return;
    }
    const id = m.id;
    this.answer(m.body as In).then(
      (body) => this.post({ tollgate: 'serve', reply: id, body }),
      (err: unknown) =>
        this.post({ tollgate: 'serve', reply: id, error: err instanceof Error ? err.message : String(err) }),
    );
  }

  request<T>(body: Out): Promise<T> {
    if (this.closedWith !== null) return Promise.reject(this.closedWith);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ tollgate: 'serve', id, body }, (err) => {
        if (err === null || !this.pending.has(id)) return;
        this.pending.delete(id);
        reject(err);
      });
    });
  }

  notify(body: OutNotice, callback?: () => void): void {
    this.post({ tollgate: 'serve', body }, () => callback?.());
  }

  /** The other side is gone: every request still waiting fails with `reason`. */
  close(reason: Error): void {
    this.closedWith = reason;
    for (const p of this.pending.values()) p.reject(reason);
    this.pending.clear();
  }

  private post(envelope: Envelope, callback?: (error: Error | null) => void): void {
    try {
      this.port.send(envelope, (err) => callback?.(err ?? null));
    } catch (err) {
      // The channel closed under us (the other process exited): the exit handler settles what waits.
      callback?.(err as Error);
    }
  }
}

/** Runs a host command on a registry. */
export function applyCommand(registry: HostRegistry, command: HostCommand): Promise<HostResult> {
  switch (command.op) {
    case 'add':
      return registry.add(command.input, command.policy);
    case 'remove':
      return registry.remove(command.name);
    case 'start':
      return registry.start(command.name);
    case 'stop':
      return registry.stop(command.name);
  }
}

/** The command that takes a successful one back (a worker failed to deploy a host the others took). */
export function undoCommand(command: HostCommand, result: HostResult): HostCommand | null {
  if (!result.ok) return null;
  if (command.op === 'add') return { op: 'remove', name: result.host.name };
  if (command.op === 'start') return { op: 'stop', name: result.host.name };
  return null;
}

/**
 * Brings a worker's registry, built from server.xml, to the primary's hosts: what differs after the
 * longest common prefix is removed and added again, so the order (which decides who owns a name two
 * hosts claim) is the primary's too; then each host's started/stopped state.
 */
export async function catchUp(registry: HostRegistry, target: readonly VirtualHost[]): Promise<void> {
  const have = registry.list();
  let same = 0;
  while (same < have.length && same < target.length && sameHost(have[same]!, target[same]!)) same++;
  for (const h of have.slice(same)) await registry.remove(h.name);
  for (const h of target.slice(same)) {
    const input: AddHostInput = {
      name: h.name,
      aliases: [...h.aliases],
      appBase: h.appBase,
      autoDeploy: h.autoDeploy,
      deployOnStartup: h.deployOnStartup,
      deployXML: h.deployXML,
      copyXML: h.copyXML,
      unpackWARs: h.unpackWARs,
      manager: h.manager,
    };
    // The primary checked the appBase when the host was added.
    await registry.add(input, { allowAppBaseOutsideBase: true });
  }
  for (const h of target) {
    const cur = registry.get(h.name);
    if (cur !== undefined && cur.state !== h.state)
      await (h.state === 'started' ? registry.start(h.name) : registry.stop(h.name));
  }
}

function sameHost(a: VirtualHost, b: VirtualHost): boolean {
  return (
    a.name === b.name &&
    a.appBasePath === b.appBasePath &&
    a.aliases.join(',') === b.aliases.join(',') &&
    a.autoDeploy === b.autoDeploy &&
    a.deployOnStartup === b.deployOnStartup &&
    a.deployXML === b.deployXML &&
    a.copyXML === b.copyXML &&
    a.unpackWARs === b.unpackWARs &&
    a.manager === b.manager
  );
}
