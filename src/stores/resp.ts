/**
 * A Redis connection speaking RESP2 over node:net (node:tls for rediss://): what the Redis store needs of a
 * client and nothing more. Commands are arrays of strings; replies are strings, numbers, null, arrays of
 * those, or an error (a RespError: the reply rejects). Commands issued in one turn of the event loop, by
 * every request of that turn, go out in one write (automatic pipelining); replies come back in order.
 *
 * It replaces @redis/client (bench/README.md, issue 35): level with it in CPU per command, while loading
 * @redis/client grew each worker by about 29 MB (this client: about 0.3 MB), and the store's reply timeout
 * is one timer per connection here instead of a timer and a promise per command.
 *
 * While the connection is down, commands are refused at once (no offline queue): the store fails closed.
 * A connection that closes rejects the commands under way and is made again, with `retryDelay(retries)`.
 */
import { isIP, connect as tcpConnect, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';

/** A reply as this client gives it. RESP2 has no other types. */
export type Reply = string | number | null | RespError | Reply[];

/** An error reply (`-NOSCRIPT …`, `-WRONGTYPE …`): its message is the server's text. */
export class RespError extends Error {}

/** The connection is not ready (down, connecting or closed): the command was not sent. */
export class NotConnectedError extends Error {}

/** No reply within the client's timeout (a hung server): the command rejects, its reply is dropped if it comes. */
export class ReplyTimeoutError extends Error {}

export interface RespClientOptions {
  /** redis://[user:password@]host:port[/db] or rediss://… (already checked by redisUrlProblem). */
  url: string;
  /** Most milliseconds to wait for a connection (TCP, TLS and the AUTH/SELECT handshake). */
  connectTimeoutMs: number;
  /** Most milliseconds a command waits for its reply before it rejects (ReplyTimeoutError). */
  timeoutMs: number;
  /** Milliseconds before reconnection attempt number `retries` (0 for the first after a loss). */
  retryDelay: (retries: number) => number;
  /** The connection is ready (again): handshake done, commands go out. */
  onReady: () => void;
  /** The connection failed or was lost (once per loss or failed attempt). */
  onError: (err: Error) => void;
  /**
   * A subscriber connection: SUBSCRIBE to `channel` is part of every connection's handshake (so it
   * subscribes again after a reconnection), and each message published there goes to `onMessage`.
   */
  subscribe?: { readonly channel: string; readonly onMessage: (message: string) => void };
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
  /** When it times out (Date.now()); replies come in order, so deadlines grow along the queue. */
  deadline: number;
  /** Rejected by the timeout: its reply, when it comes, only moves the queue on. */
  expired: boolean;
}

/** What the parser hands back when the buffer ends inside a reply. */
const INCOMPLETE = Symbol('incomplete');

/** A RESP2 byte stream the client cannot read: the connection is dropped. */
class ProtocolError extends Error {}

export class RespClient {
  private socket: Socket | null = null;
  private ready = false;
  private closed = false;
  private retries = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Replies awaited, oldest first (a queue: `head` is the next to be answered). */
  private pending: (Pending | undefined)[] = [];
  private head = 0;
  /** Encoded commands not yet written, and whether a write is scheduled. */
  private out = '';
  private flushing = false;
  /** Bytes received and not yet parsed (the start of a reply split across reads). */
  private rest: Buffer | null = null;
  private closeWaiters: (() => void)[] = [];
  /**
   * One timer for every command's timeout, not one per command: all commands have the same timeout and are
   * answered in order, so only the oldest unanswered one can be the next to expire. It fires at most once
   * per timeout while commands are under way, and stops when none are.
   */
  private timer: NodeJS.Timeout | null = null;
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;
  /** AUTH and SELECT, sent ahead of anything else on each connection. */
  private readonly handshake: string[][] = [];

  constructor(private readonly options: RespClientOptions) {
    const u = new URL(options.url);
    this.tls = u.protocol === 'rediss:';
    this.host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = u.port === '' ? 6379 : Number(u.port);
    if (u.password !== '' || u.username !== '') {
      const password = decodeURIComponent(u.password);
      this.handshake.push(u.username === '' ? ['AUTH', password] : ['AUTH', decodeURIComponent(u.username), password]);
    }
    const db = u.pathname.replace(/^\//, '');
    if (db !== '' && db !== '0') this.handshake.push(['SELECT', db]);
    if (options.subscribe !== undefined) this.handshake.push(['SUBSCRIBE', options.subscribe.channel]);
    this.flush = this.flush.bind(this);
    this.expire = this.expire.bind(this);
    this.connect();
  }

  /** Connected, handshake done, not closing. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Sends a command; the promise settles with its reply (a RespError rejects it). */
  send(args: readonly string[]): Promise<Reply> {
    if (!this.ready) return Promise.reject(new NotConnectedError('The connection to Redis is not open'));
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ resolve, reject, deadline: Date.now() + this.options.timeoutMs, expired: false });
      if (this.timer === null) this.timer = setTimeout(this.expire, this.options.timeoutMs);
      this.write(args);
    });
  }

  /** Rejects the commands past their deadline and waits for the next one's. */
  private expire(): void {
    this.timer = null;
    const now = Date.now();
    const pending = this.pending;
    let i = this.head;
    for (; i < pending.length; i++) {
      const p = pending[i]!;
      if (p.deadline > now) break;
      if (p.expired) continue;
      p.expired = true;
      p.reject(new ReplyTimeoutError(`Redis did not answer within ${this.options.timeoutMs} ms`));
    }
    if (i < pending.length) this.timer = setTimeout(this.expire, pending[i]!.deadline - now);
  }

  /**
   * Closes the connection once the replies under way have come (commands issued after this are refused).
   * The promise settles when the socket is closed; `destroy()` ends it at once.
   */
  close(): Promise<void> {
    this.closed = true;
    this.ready = false;
    this.clearRetry();
    const socket = this.socket;
    if (socket === null || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.closeWaiters.push(resolve);
      if (this.waiting() === 0) this.endSocket();
    });
  }

  /** Drops the connection at once; commands under way reject. */
  destroy(): void {
    this.closed = true;
    this.ready = false;
    this.clearRetry();
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    this.lost(new NotConnectedError('The connection to Redis was closed'), false);
  }

  private waiting(): number {
    return this.pending.length - this.head;
  }

  /**
   * Every command has its reply, so nothing is left to send or receive: the socket is destroyed rather than
   * ended, because an end waits for the server's own FIN, which a hung Redis (SIGSTOP) never sends.
   */
  private endSocket(): void {
    this.socket?.destroy();
  }

  private connect(): void {
    if (this.closed) return;
    this.retryTimer = null;
    if (this.tls) {
      // node:tls only for rediss://; loaded on demand so a plain connection never loads it.
      void import('node:tls').then(
        (tls) => {
          if (this.closed) return;
          // SNI carries host names only (RFC 6066).
          const opts: ConnectionOptions = { host: this.host, port: this.port };
          if (isIP(this.host) === 0) opts.servername = this.host;
          this.attach(tls.connect(opts), 'secureConnect');
        },
        (err: unknown) => this.options.onError(err as Error),
      );
      return;
    }
    this.attach(tcpConnect({ host: this.host, port: this.port }), 'connect');
  }

  private attach(socket: Socket, connectedEvent: 'connect' | 'secureConnect'): void {
    this.socket = socket;
    this.rest = null;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    const timer = setTimeout(
      () => socket.destroy(new Error(`Connection to Redis timed out after ${this.options.connectTimeoutMs} ms`)),
      this.options.connectTimeoutMs,
    );
    socket.once(connectedEvent, () => {
      // The handshake's replies come first; their failure drops the connection.
      const steps = this.handshake.map(
        (args) =>
          new Promise<Reply>((resolve, reject) => {
            this.pending.push({ resolve, reject, deadline: Infinity, expired: false });
            this.write(args);
          }),
      );
      Promise.all(steps).then(
        () => {
          clearTimeout(timer);
          if (this.socket !== socket || this.closed) return;
          this.retries = 0;
          this.ready = true;
          this.options.onReady();
        },
        (err: Error) => {
          clearTimeout(timer);
          socket.destroy(err);
        },
      );
    });
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      if (this.socket !== socket) return;
      this.socket = null;
      const err = socketError(socket) ?? new NotConnectedError('The connection to Redis closed');
      this.lost(err, !this.closed);
    });
  }

  /** The socket closed: everything under way rejects, and (unless closed on purpose) the connection is made again. */
  private lost(err: Error, reconnect: boolean): void {
    this.ready = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.out = '';
    const pending = this.pending;
    const head = this.head;
    this.pending = [];
    this.head = 0;
    for (let i = head; i < pending.length; i++) if (!pending[i]!.expired) pending[i]!.reject(err);
    for (const w of this.closeWaiters.splice(0)) w();
    if (!reconnect) return;
    this.options.onError(err);
    const delay = this.options.retryDelay(this.retries++);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Encodes a command into the pending write; the write goes out once this turn's commands are in. */
  private write(args: readonly string[]): void {
    let s = `*${args.length}\r\n`;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      s += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
    }
    this.out += s;
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(this.flush);
    }
  }

  private flush(): void {
    this.flushing = false;
    const s = this.out;
    this.out = '';
    if (s !== '' && this.socket !== null && !this.socket.destroyed) this.socket.write(s);
  }

  private received(chunk: Buffer): void {
    let buf = chunk;
    if (this.rest !== null) {
      buf = Buffer.concat([this.rest, chunk]);
      this.rest = null;
    }
    const cursor = { at: 0 };
    try {
      while (cursor.at < buf.length) {
        const start = cursor.at;
        const reply = parse(buf, cursor);
        if (reply === INCOMPLETE) {
          this.rest = buf.subarray(start);
          break;
        }
        this.answer(reply);
      }
    } catch (err) {
      // Bytes that are not RESP2 (a RESP3 type, garbage): nothing after them can be trusted.
      this.socket?.destroy(err as Error);
      return;
    }
    if (this.closed && this.waiting() === 0) this.endSocket();
  }

  private answer(reply: Reply): void {
    // On a subscriber connection a published message is not the reply to a command.
    const sub = this.options.subscribe;
    if (sub !== undefined && Array.isArray(reply) && reply.length === 3 && reply[0] === 'message') {
      if (typeof reply[2] === 'string') sub.onMessage(reply[2]);
      return;
    }
    const p = this.pending[this.head];
    if (p === undefined) throw new ProtocolError('Redis sent a reply to no command');
    this.pending[this.head++] = undefined;
    if (this.head === this.pending.length) {
      this.pending.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
    if (p.expired) return;
    if (reply instanceof RespError) p.reject(reply);
    else p.resolve(reply);
  }
}

/** The error a socket was destroyed with, if any (kept by the 'error' listener's absence of one). */
function socketError(socket: Socket): Error | null {
  return (socket as Socket & { errored?: Error | null }).errored ?? null;
}

const CR = 13;

/** The decimal number from `at` up to CR, and where the line ends (-1: no CR yet). */
function line(buf: Buffer, at: number): number {
  return buf.indexOf(CR, at);
}

/** One reply from `cursor.at`, moving the cursor past it; INCOMPLETE when the buffer ends inside it. */
function parse(buf: Buffer, cursor: { at: number }): Reply | typeof INCOMPLETE {
  const at = cursor.at;
  const end = line(buf, at + 1);
  if (end < 0 || end + 1 >= buf.length) return INCOMPLETE;
  const type = buf[at];
  const next = end + 2;
  switch (type) {
    case 0x2b: // + simple string
      cursor.at = next;
      return buf.toString('latin1', at + 1, end);
    case 0x2d: // - error
      cursor.at = next;
      return new RespError(buf.toString('utf8', at + 1, end));
    case 0x3a: {
      // : integer
      cursor.at = next;
      return integerAt(buf, at + 1, end);
    }
    case 0x24: {
      // $ bulk string
      const len = integerAt(buf, at + 1, end);
      if (len === -1) {
        cursor.at = next;
        return null;
      }
      if (len < 0) throw new ProtocolError(`Redis sent a bulk string of length ${len}`);
      if (next + len + 2 > buf.length) return INCOMPLETE;
      cursor.at = next + len + 2;
      return buf.toString('utf8', next, next + len);
    }
    case 0x2a: {
      // * array
      const n = integerAt(buf, at + 1, end);
      if (n === -1) {
        cursor.at = next;
        return null;
      }
      if (n < 0) throw new ProtocolError(`Redis sent an array of length ${n}`);
      cursor.at = next;
      const out: Reply[] = new Array<Reply>(n);
      for (let i = 0; i < n; i++) {
        if (cursor.at >= buf.length) return INCOMPLETE;
        const r = parse(buf, cursor);
        if (r === INCOMPLETE) return INCOMPLETE;
        out[i] = r;
      }
      return out;
    }
    default:
      throw new ProtocolError(`Redis sent a reply of type ${JSON.stringify(String.fromCharCode(type ?? 0))}`);
  }
}

/** A decimal integer written between `from` and `to` (exclusive), as RESP writes lengths and integers. */
function integerAt(buf: Buffer, from: number, to: number): number {
  let i = from;
  let negative = false;
  if (buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i === to || to - i > 19) throw new ProtocolError('Redis sent a malformed number');
  let n = 0;
  for (; i < to; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) throw new ProtocolError('Redis sent a malformed number');
    n = n * 10 + d;
  }
  return negative ? -n : n;
}
