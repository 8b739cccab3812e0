/**
 * Host-manager changes across a fleet: the `serve` instances that share one Redis (`--store redis`) tell
 * each other every `add`, `remove`, `start`, `stop` and `persist` through a Redis pub/sub channel, so a
 * host added through a balancer is served by every instance, not by the one the balancer picked.
 *
 * The instance that receives a command applies it first (to its own hosts and its workers: every check,
 * the appBase directory); when that succeeds it publishes the command, and every other instance applies
 * it (and its workers) and answers on the channel. The answer to the client waits for those answers
 * (bounded), so the next request, whichever instance and worker takes it, sees the change. When the
 * channel is down (Redis does not answer) the command is refused with a FAIL line and nothing is
 * applied: an instance that changed alone would make the fleet serve a host on some requests only.
 * The channel itself (src/stores/broadcast.ts) is given by the CLI: src/server does not load Redis.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { getLogger } from '../runtime/logging.js';
import { undoCommand, type HostCommand } from './cluster-channel.js';
import type { HostResult } from './hosts.js';

const logger = getLogger('tollgate.serve.fleet');

/** A command that changes what the fleet serves or has persisted. */
export type FleetCommand = HostCommand | { op: 'persist' };

/** What carries the messages (src/stores/broadcast.ts's Broadcast). */
export interface FleetChannel {
  readonly ready: boolean;
  /** Resolves with how many subscribers received the message (this instance included). */
  publish(message: string): Promise<number>;
}

/** How this instance applies a command another instance announced (to its own hosts and its workers). */
export type ApplyHere = (command: FleetCommand) => Promise<{ ok: boolean; message?: string }>;

type Message =
  | { kind: 'command'; id: string; from: string; command: FleetCommand }
  | { kind: 'ack'; id: string; from: string; ok: boolean; message?: string };

/** A persist refused because the other instances could not be told; its message is the FAIL line's text. */
export class FleetUnreachableError extends Error {}

/** How long the instance that took a command waits for the others' answers before it answers anyway. */
export const FLEET_ACK_TIMEOUT_MS = 10_000;

interface Pending {
  expected: number;
  answers: { from: string; ok: boolean; message?: string }[];
  done: () => void;
}

export class Fleet {
  /** This instance on the channel: its machine, pid and a random part (pids repeat across machines). */
  readonly id = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private channel: FleetChannel | null = null;
  private applyHere: ApplyHere | null = null;
  private readonly pending = new Map<string, Pending>();

  /** `store`: the shared store as it may be shown (a Redis URL without its password). */
  constructor(readonly store: string) {}

  /** The channel the messages go over (the CLI opens it: src/stores/broadcast.ts). */
  connect(channel: FleetChannel): void {
    this.channel = channel;
  }

  /** How the commands of other instances are applied here (to this instance's hosts and its workers). */
  applyWith(applyHere: ApplyHere): void {
    this.applyHere = applyHere;
  }

  /** Every message of the channel (the channel's onMessage). */
  readonly receive = (raw: string): void => {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      logger.warning(`ignored a message on the fleet channel that is not JSON (${raw.slice(0, 80)})`);
      return;
    }
    if (m === null || typeof m !== 'object' || m.from === this.id) return;
    if (m.kind === 'ack') {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      p.answers.push({ from: m.from, ok: m.ok, ...(m.message !== undefined ? { message: m.message } : {}) });
      if (p.answers.length >= p.expected) p.done();
      return;
    }
    if (m.kind !== 'command' || this.applyHere === null) return;
    void this.applyHere(m.command)
      .catch((e: unknown) => ({ ok: false, message: (e as Error)?.message ?? String(e) }))
      .then((r) => {
        const what = describeCommand(m.command);
        if (r.ok) logger.info(`host manager: ${what} from instance ${m.from} applied here`);
        else
          logger.severe(
            `host manager: ${what} from instance ${m.from} could not be applied here (${r.message ?? 'failed'}): this instance now differs from it; fix and reload (SIGHUP)`,
          );
        return this.publish({
          kind: 'ack',
          id: m.id,
          from: this.id,
          ok: r.ok,
          ...(r.message ? { message: r.message } : {}),
        });
      })
      .catch((e: unknown) => logger.warning(`host manager: could not answer instance ${m.from}: ${String(e)}`));
  };

  /** Why a change cannot be made now (the channel is down), or null. */
  unreachable(command: FleetCommand): string | null {
    if (this.channel?.ready) return null;
    return `[${command.op}] was not applied: the instances sharing the state store [${this.store}] cannot be told of it (Redis does not answer), and a change on this instance alone would make them serve different hosts. Try again once Redis answers`;
  }

  /**
   * Runs a host command here (`here`: this instance and its workers), then on every other instance.
   * Refused, with nothing applied, when the channel is down; taken back here when the publish fails.
   */
  async run(
    command: HostCommand,
    here: () => Promise<HostResult>,
    undo: (c: HostCommand) => Promise<unknown>,
  ): Promise<HostResult> {
    const why = this.unreachable(command);
    if (why !== null) return { ok: false, failure: { code: 'fleet-unreachable', message: why } };
    const result = await here();
    if (!result.ok) return result;
    const announced = await this.announce(command);
    if (announced === null) return result;
    const back = undoCommand(command, result);
    if (back !== null) await undo(back);
    return {
      ok: false,
      failure: {
        code: 'fleet-unreachable',
        message: `[${command.op}] was not applied: the instances sharing the state store [${this.store}] could not be told of it (${announced}), so it was taken back here`,
      },
    };
  }

  /** `persist` here, then on every other instance; throws FleetUnreachableError when they cannot be told. */
  async persist(here: () => Promise<void>): Promise<void> {
    const command: FleetCommand = { op: 'persist' };
    const why = this.unreachable(command);
    if (why !== null) throw new FleetUnreachableError(why);
    await here();
    const announced = await this.announce(command);
    if (announced !== null)
      throw new FleetUnreachableError(
        `[persist] was written here only: the instances sharing the state store [${this.store}] could not be told of it (${announced})`,
      );
  }

  /**
   * Publishes the command and waits (bounded) for every other subscriber's answer; null when published,
   * else why not. An instance that does not answer in time is logged, not waited for.
   */
  private async announce(command: FleetCommand): Promise<string | null> {
    const id = randomUUID();
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const p: Pending = { expected: Number.POSITIVE_INFINITY, answers: [], done };
    this.pending.set(id, p);
    try {
      let receivers: number;
      try {
        receivers = await this.publish({ kind: 'command', id, from: this.id, command });
      } catch (e) {
        return (e as Error)?.message ?? String(e);
      }
      // The publisher is subscribed too: the others are the receivers but one.
      p.expected = Math.max(0, receivers - 1);
      if (p.answers.length >= p.expected) done();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise<void>((r) => (timer = setTimeout(r, FLEET_ACK_TIMEOUT_MS)))]);
      clearTimeout(timer);
      const failed = p.answers.filter((a) => !a.ok);
      const what = describeCommand(command);
      if (p.answers.length < p.expected)
        logger.warning(
          `host manager: ${what} announced to ${p.expected} other instance(s); ${p.answers.length} confirmed within ${FLEET_ACK_TIMEOUT_MS / 1000} s`,
        );
      else logger.info(`host manager: ${what} applied by ${p.expected} other instance(s) of the fleet`);
      for (const f of failed)
        logger.severe(`host manager: instance ${f.from} could not apply ${what}: ${f.message ?? 'failed'}`);
      return null;
    } finally {
      this.pending.delete(id);
    }
  }

  private publish(m: Message): Promise<number> {
    if (this.channel === null) return Promise.reject(new Error('no fleet channel'));
    return this.channel.publish(JSON.stringify(m));
  }
}

function describeCommand(c: FleetCommand): string {
  if (c.op === 'persist') return 'persist';
  if (c.op === 'add') return `add [${c.input.name ?? ''}]`;
  return `${c.op} [${c.name ?? ''}]`;
}
