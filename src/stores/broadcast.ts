/**
 * A Redis pub/sub channel that the instances of a fleet sharing one Redis use to tell each other what
 * changed (the host manager's commands: src/server/fleet.ts). Two connections: one subscribed to the
 * channel (a subscribed connection cannot publish), one that publishes. Messages are strings; what they
 * mean is the caller's. Loaded only with `--store redis`.
 */
import { getLogger } from '../runtime/index.js';
import { RespClient } from './resp.js';
import { redactRedisUrl } from './url.js';

const logger = getLogger('tollgate.stores.RedisBroadcast');

export interface BroadcastOptions {
  url: string;
  /** The channel (e.g. `tollgate:fleet:hosts`). */
  channel: string;
  /** Most milliseconds a publish may take before it counts as failed (default 2000). */
  timeoutMs?: number;
  /** Most milliseconds to wait for a connection (default 1000); reconnection is retried every 0.1 to 2 s. */
  connectTimeoutMs?: number;
  /** Every message of the channel, this instance's own included, in the order Redis delivered them. */
  onMessage(message: string): void;
}

export interface Broadcast {
  /** Whether both connections are up (a publish now would be delivered to every subscriber). */
  readonly ready: boolean;
  /** Publishes; resolves with how many subscribers received it (this one included), rejects when Redis does not answer. */
  publish(message: string): Promise<number>;
  close(): Promise<void>;
}

/** Connects both connections in the background; `ready` says when they are up. */
export function createRedisBroadcast(options: BroadcastOptions): Broadcast {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const where = redactRedisUrl(options.url);
  let closed = false;
  let down = false;
  const failed = (err: Error): void => {
    if (closed || down) return;
    down = true;
    // FINE: the state store's connection to the same Redis logs the outage (one line, as an operator wants).
    logger.fine(
      `the channel ${options.channel} on Redis at ${where} does not answer (${err.message || err.name}): host-manager changes are refused until it does`,
    );
  };
  const recovered = (): void => {
    if (!down || closed || !pub.isReady || !sub.isReady) return;
    down = false;
    logger.fine(`the channel ${options.channel} on Redis at ${where} answers again`);
  };
  const common = {
    url: options.url,
    connectTimeoutMs: options.connectTimeoutMs ?? 1_000,
    timeoutMs,
    retryDelay: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2_000),
    onError: failed,
    onReady: () => recovered(),
  };
  const pub = new RespClient(common);
  // The subscriber subscribes as part of each connection's handshake: ready means subscribed, again after a reconnection.
  const sub = new RespClient({
    ...common,
    subscribe: { channel: options.channel, onMessage: (message) => options.onMessage(message) },
  });

  return {
    get ready() {
      return !closed && pub.isReady && sub.isReady;
    },
    async publish(message: string): Promise<number> {
      const n = await pub.send(['PUBLISH', options.channel, message]);
      if (typeof n !== 'number') throw new Error(`unexpected Redis reply to PUBLISH: ${JSON.stringify(n)}`);
      return n;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // Never wait on a hung Redis: the sockets go at once.
      pub.destroy();
      sub.destroy();
    },
  };
}
