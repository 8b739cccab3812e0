/**
 * tollgate/stores/redis: the runtime's state (src/runtime/state.ts) in Redis,
 * so that several processes or machines share sessions, CSRF nonces, rate
 * limit windows and the lock-out table. Loaded only when asked for (`serve
 * --store redis://…`, or a compiled module's `create({ state })`).
 *
 * Every operation is one command (a Lua script where it reads and writes), so
 * a request's operations issued in one turn of the event loop travel in one
 * write and come back in one round trip (./resp.ts writes what was queued in
 * a turn together, every request's). Every key has a TTL. Commands time out after `timeoutMs`
 * and are refused at once while the connection is down (no offline queue):
 * callers fail closed. The outage is logged once, and its end once.
 */
import { createHash } from 'node:crypto';
import { OutageLog } from './outage-log.js';
import { RespClient, RespError, type Reply } from './resp.js';
import { defaultRedisUrl, redactRedisUrl as redact, redisUrlProblem } from './url.js';
import {
  getLogger,
  TooManyActiveSessionsError,
  type ContextStoreOptions,
  type ContextStores,
  type LockoutPolicy,
  type LockoutRecord,
  type LockoutStore,
  type RateLimitStore,
  type SessionRecord,
  type SessionStore,
  type StateBackend,
} from '../runtime/index.js';

export interface RedisStateOptions {
  /** redis:// or rediss:// URL (default: TOLLGATE_REDIS_URL, else redis://127.0.0.1:6379). */
  url?: string;
  /** Prepended to every key (default `tollgate:`), so several deployments can share one Redis. */
  prefix?: string;
  /** Most milliseconds a command may take before the request goes on without it, failing closed (default 300). */
  timeoutMs?: number;
  /** Most milliseconds to wait for a connection (default 1000); reconnection is retried every 0.1 to 2 s. */
  connectTimeoutMs?: number;
  /** RateLimitFilter lets requests through while Redis cannot count them (default false: refuses them). */
  failOpen?: boolean;
  /** TTL of sessions that never time out (session-timeout 0), counted from their last access (default 86,400 s). */
  idleSessionTtlSeconds?: number;
  /**
   * Use a Redis whose `maxmemory-policy` may evict keys (anything but `noeviction`), or whose policy cannot
   * be read (CONFIG refused). Default false: such a Redis is refused, because eviction drops lock-outs,
   * sessions and rate-limit windows silently.
   */
  allowEviction?: boolean;
}

/** Why the backend refuses a Redis (an evicting maxmemory-policy), found when it connects. */
export class RedisPolicyError extends Error {}

/** A reply of a type the command never gives: the command fails (closed) and one line says so. */
export class UnexpectedReplyError extends Error {}

const logger = getLogger('tollgate.stores.RedisStateBackend');

/** Every script, loaded (SCRIPT LOAD) as each connection is made. */
const SCRIPTS: Script[] = [];

/** A script run by its SHA1 (EVALSHA), loaded with EVAL when the server does not know it yet. */
class Script {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
    SCRIPTS.push(this);
  }
}

// What each command may answer; anything else is an UnexpectedReplyError (undefined: refused).
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isNumeric = (v: unknown): v is string => typeof v === 'string' && /^-?\d{1,16}$/.test(v);
function integer(v: unknown): number | undefined {
  return isInt(v) ? v : undefined;
}
function flag(v: unknown): boolean | undefined {
  return v === 0 || v === 1 ? v === 1 : undefined;
}
/** A session hash as HGETALL gives it (names and values, all strings), or null (Lua false) for none. */
function sessionHash(v: unknown): string[] | null | undefined {
  if (v === null) return null;
  return Array.isArray(v) && v.length % 2 === 0 && v.every((x) => typeof x === 'string') ? v : undefined;
}
function stringOrNull(v: unknown): string | null | undefined {
  return v === null || typeof v === 'string' ? v : undefined;
}
/** INCR's count: at least 1. */
function count(v: unknown): number | undefined {
  return isInt(v) && v >= 1 ? v : undefined;
}
/** A lock-out record: failures (an integer, or its decimal text as HGET gives it) and the last failure's time. */
function lockRecord(v: unknown): LockoutRecord | null | undefined {
  if (v === null) return null;
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [f, t] = v as unknown[];
  const failures = isInt(f) ? f : isNumeric(f) ? Number(f) : NaN;
  const lastFailure = isNumeric(t) ? Number(t) : NaN;
  return Number.isSafeInteger(failures) && failures >= 0 && Number.isSafeInteger(lastFailure)
    ? { failures, lastFailure }
    : undefined;
}
function lockRecordNotNull(v: unknown): LockoutRecord | undefined {
  return lockRecord(v) ?? undefined;
}

// Sessions: one hash per session. c creation, l last access, m max inactive (s), n nonces (space separated,
// eldest first), r REST token, a:<name> attributes as JSON. Times are the callers' clocks (ms).
//
// A context with <Manager maxActiveSessions> also has a sorted set of its live sessions (the last key of the
// session scripts, absent otherwise): each session's key scored by when its hash expires, in Redis's own
// clock (TIME, the clock PEXPIRE counts in). A new session is refused when the set, its expired members
// removed, already holds the limit; nothing live is ever dropped to make room.
const LIVE = `
local function liveTouch(zset, member, ttl)
  local t = redis.call('TIME')
  redis.call('ZADD', zset, 'XX', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ttl, member)
  if redis.call('PTTL', zset) < ttl then redis.call('PEXPIRE', zset, ttl) end
end`;

const LOAD = new Script(
  'load',
  `${LIVE}
local h = redis.call('HGETALL', KEYS[1])
if #h == 0 then return false end
local l, m = 0, 0
for i = 1, #h, 2 do
  if h[i] == 'l' then l = tonumber(h[i + 1]) elseif h[i] == 'm' then m = tonumber(h[i + 1]) end
end
local now = tonumber(ARGV[1])
if m > 0 and now - l >= m * 1000 then
  redis.call('DEL', KEYS[1])
  if KEYS[2] then redis.call('ZREM', KEYS[2], KEYS[1]) end
  return false
end
redis.call('HSET', KEYS[1], 'l', ARGV[1])
local ttl = m > 0 and (m * 1000 + 1000) or tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
if KEYS[2] then liveTouch(KEYS[2], KEYS[1], ttl) end
return h`,
);

const UPDATE = new Script(
  'update',
  `${LIVE}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local m = tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'm', ARGV[1])
for i = 3, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
local ttl = m > 0 and (m * 1000 + 1000) or tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
if KEYS[2] then liveTouch(KEYS[2], KEYS[1], ttl) end
return 1`,
);

const RENAME = new Script(
  'rename',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
if KEYS[3] then
  local s = redis.call('ZSCORE', KEYS[3], KEYS[1])
  redis.call('ZREM', KEYS[3], KEYS[1])
  if s then redis.call('ZADD', KEYS[3], s, KEYS[2]) end
end
return 1`,
);

const REMOVE = new Script(
  'remove',
  `
redis.call('ZREM', KEYS[2], KEYS[1])
return redis.call('DEL', KEYS[1])`,
);

const ADD_NONCE = new Script(
  'add nonce',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local size = tonumber(ARGV[2])
local list = {}
local old = redis.call('HGET', KEYS[1], 'n')
if old then for n in string.gmatch(old, '%S+') do list[#list + 1] = n end end
list[#list + 1] = ARGV[1]
local from = #list - size + 1
if from < 1 then from = 1 end
redis.call('HSET', KEYS[1], 'n', table.concat(list, ' ', from, #list))
return 1`,
);

const REST_TOKEN = new Script(
  'rest token',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'r', ARGV[1])
return redis.call('HGET', KEYS[1], 'r')`,
);

// Rate limit: one counter per window and address, expiring with the window.
const INCREMENT = new Script(
  'increment',
  `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`,
);

// Lock-out: f failures, t last failure (ms); the record lives lockOutTime after its last failure, so a lock
// is never dropped before it expires and nothing else stays.
const FAILURE = new Script(
  'failure',
  `
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
local t = tonumber(redis.call('HGET', KEYS[1], 't') or ARGV[1])
local now = tonumber(ARGV[1])
local count, lockOut = tonumber(ARGV[2]), tonumber(ARGV[3])
if f >= count and math.floor((now - t) / 1000) > lockOut then f = 0 end
f = f + 1
redis.call('HSET', KEYS[1], 'f', f, 't', ARGV[1])
redis.call('PEXPIRE', KEYS[1], lockOut * 1000 + 1000)
return {f, ARGV[1]}`,
);

/** How often a Redis that failed is asked again (one command lets through as a probe). */
const PROBE_INTERVAL_MS = 500;

/** While Redis flaps, at most one summary line per this many milliseconds (outage-log.ts). */
export const FLAP_SUMMARY_MS = 30_000;

/** The shared connection: commands, their timeout, and the outage log. */
class Connection {
  readonly client: RespClient;
  /** Callers of ready() waiting for the connection. */
  private readyWaiters: (() => void)[] = [];
  private down = false;
  /** When Redis last answered a command well (ms since the epoch); a readiness probe within a second is not needed. */
  private lastAnswerAt = 0;
  /** The readiness probe under way, shared by the callers that ask meanwhile. */
  private probing: Promise<void> | null = null;
  private readonly outages: OutageLog;
  /** While down, commands are refused without asking until then (ms since the epoch). */
  private refuseUntil = 0;
  private closed = false;
  /** Set while the reply log line has been written and no well-typed reply came since. */
  private unexpected = false;
  /** Why this Redis is refused (an evicting policy), or null; commands throw RedisPolicyError while set. */
  policyProblem: string | null = null;
  /** The maxmemory-policy read at the last connection, or null (not read yet, or CONFIG refused). */
  policy: string | null = null;
  /** Settles when the policy of the current connection has been read (or could not be). */
  policyChecked: Promise<void> = Promise.resolve();

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
    connectTimeoutMs: number,
    private readonly failOpen: boolean,
    private readonly allowEviction: boolean,
  ) {
    this.outages = new OutageLog(
      `Redis at ${redact(url)}`,
      `sessions are not found, CSRF checks and the lock-out refuse and rate limits ${failOpen ? 'let requests through' : 'refuse'} until it is back`,
      {
        windowMs: FLAP_SUMMARY_MS,
        now: Date.now,
        schedule: (fn, ms) => void setTimeout(() => this.closed || fn(), ms).unref(),
        down: (m) => logger.warning(m),
        up: (m) => logger.info(m),
        flapping: (m) => logger.warning(m),
      },
    );
    // The first connection is made in the background: a server starts (failing closed) while Redis is down.
    // While it is down a command is refused at once (the client has no offline queue).
    this.client = new RespClient({
      url,
      connectTimeoutMs,
      // Every command's wait for its reply is bounded: a hung Redis (SIGSTOP, a dead peer) fails it closed.
      timeoutMs,
      retryDelay: (retries) => Math.min(100 * 2 ** Math.min(retries, 5), 2_000),
      onError: (err) => this.failed(err),
      onReady: () => {
        this.loadScripts();
        this.checkPolicy();
        this.recovered();
        for (const w of this.readyWaiters.splice(0)) w();
      },
    });
  }

  /**
   * Loads every script as the connection is made, ahead of any command on it. Without this, the first
   * use of a script on a fresh Redis is answered NOSCRIPT and run again by EVAL one round trip later,
   * after commands issued behind it: a new session's nonce (ADD_NONCE) then ran before the session's
   * CREATE and was lost. The EVAL fallback stays for a Redis whose scripts were flushed meanwhile.
   */
  private loadScripts(): void {
    for (const s of SCRIPTS) this.client.send(['SCRIPT', 'LOAD', s.source]).catch(() => undefined);
  }

  /** Resolves when connected, or after `ms` (false). */
  async ready(ms: number): Promise<boolean> {
    if (this.client.isReady) return true;
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== ok);
        resolve(false);
      }, ms);
      const ok = (): void => {
        clearTimeout(t);
        resolve(true);
      };
      this.readyWaiters.push(ok);
    });
  }

  /**
   * Runs a script; rejects (and logs the outage once) when Redis does not answer within the timeout
   * (a hung server). After a failure, commands are refused at once for
   * half a second, then one goes through as a probe: a hung Redis costs a request nothing, and the
   * commands waiting for it do not pile up.
   */
  async eval<T>(
    script: Script,
    keys: readonly string[],
    args: readonly string[],
    check: (reply: unknown) => T | undefined,
  ): Promise<T> {
    this.admit();
    const command = ['EVALSHA', script.sha, String(keys.length)];
    for (let i = 0; i < keys.length; i++) command.push(keys[i]!);
    for (let i = 0; i < args.length; i++) command.push(args[i]!);
    try {
      let reply: Reply;
      try {
        reply = await this.client.send(command);
      } catch (err) {
        if (!(err instanceof RespError && err.message.startsWith('NOSCRIPT'))) throw err;
        command[0] = 'EVAL';
        command[1] = script.source;
        reply = await this.client.send(command);
      }
      this.lastAnswerAt = Date.now();
      if (this.down) this.recovered();
      return this.checked(reply, check, script.name);
    } catch (err) {
      if (!(err instanceof UnexpectedReplyError)) this.failed(err);
      throw err;
    }
  }

  async del(key: string): Promise<void> {
    this.admit();
    try {
      const reply = await this.client.send(['DEL', key]);
      this.lastAnswerAt = Date.now();
      if (this.down) this.recovered();
      this.checked(reply, integer, 'DEL');
    } catch (err) {
      if (!(err instanceof UnexpectedReplyError)) this.failed(err);
      throw err;
    }
  }

  get healthy(): boolean {
    return this.client.isReady && !this.down && this.policyProblem === null;
  }

  /**
   * A readiness probe: a PING, bounded by the command timeout, unless Redis answered a command within the last
   * second. Without it a hung Redis (SIGSTOP, a dead peer) of an instance that gets no stateful request would
   * stay "ready", since only a command that times out marks the outage. Settles, never rejects.
   */
  probe(): Promise<void> {
    if (this.closed || !this.client.isReady || this.policyProblem !== null) return Promise.resolve();
    if (Date.now() - this.lastAnswerAt < 1_000) return Promise.resolve();
    this.probing ??= (async () => {
      try {
        this.admit();
        const reply = await this.client.send(['PING']);
        this.lastAnswerAt = Date.now();
        if (this.down) this.recovered();
        this.checked(reply, (r) => (r === 'PONG' ? r : undefined), 'PING');
      } catch (err) {
        // admit() refusing within the outage window is no new failure; a timeout or a dropped connection is.
        if (!(err instanceof UnexpectedReplyError) && !(err instanceof RedisPolicyError) && this.down === false)
          this.failed(err);
      }
    })().finally(() => (this.probing = null));
    return this.probing;
  }

  private admit(): void {
    if (this.policyProblem !== null) throw new RedisPolicyError(this.policyProblem);
    if (!this.down) return;
    const now = Date.now();
    if (now < this.refuseUntil) throw new Error('Redis is unreachable');
    this.refuseUntil = now + PROBE_INTERVAL_MS;
  }

  /** The reply if `check` accepts it; else one log line (until a well-typed reply comes) and UnexpectedReplyError. */
  private checked<T>(reply: unknown, check: (reply: unknown) => T | undefined, what: string): T {
    const value = check(reply);
    if (value !== undefined) {
      this.unexpected = false;
      return value;
    }
    const shown = JSON.stringify(reply)?.slice(0, 80) ?? String(reply);
    if (!this.unexpected) {
      this.unexpected = true;
      logger.severe(
        `Redis at ${redact(this.url)} gave an unexpected reply to ${what} (${shown}): the request fails closed (CSRF checks, the lock-out and rate limits refuse) until replies are well-typed again`,
      );
    }
    throw new UnexpectedReplyError(`unexpected Redis reply to ${what}: ${shown}`);
  }

  /**
   * Reads maxmemory-policy when a connection is made: anything but noeviction can drop a lock-out, a
   * session or a rate-limit window under memory pressure, so such a Redis is refused (every command
   * fails closed, one SEVERE line) unless allowEviction.
   */
  private checkPolicy(): void {
    this.policyChecked = (async () => {
      let policy: string | null = null;
      let why: string;
      try {
        const reply = await this.client.send(['CONFIG', 'GET', 'maxmemory-policy']);
        // [name, value].
        const value: unknown = Array.isArray(reply) && reply[0] === 'maxmemory-policy' ? reply[1] : undefined;
        policy = typeof value === 'string' ? value : null;
        why = policy === null ? `CONFIG GET maxmemory-policy gave ${JSON.stringify(reply)}` : '';
      } catch (err) {
        why = `CONFIG GET maxmemory-policy failed: ${(err as Error).message}`;
      }
      this.policy = policy;
      const problem =
        policy === 'noeviction' || this.allowEviction
          ? null
          : policy === null
            ? `the eviction policy of Redis at ${redact(this.url)} cannot be read (${why}); make sure it is noeviction and set allowEviction (--allow-redis-eviction) to use it`
            : `Redis at ${redact(this.url)} has maxmemory-policy ${policy}, which may evict lock-outs, sessions and rate-limit windows: set it to noeviction (redis-cli CONFIG SET maxmemory-policy noeviction), or set allowEviction (--allow-redis-eviction) to accept that`;
      if (problem !== null && problem !== this.policyProblem) logger.severe(problem);
      this.policyProblem = problem;
    })();
  }

  private failed(err: unknown): void {
    this.refuseUntil = Date.now() + PROBE_INTERVAL_MS;
    if (this.down || this.closed) return;
    this.down = true;
    this.outages.failed(err instanceof Error ? err.message || err.name : String(err));
  }

  private recovered(): void {
    if (!this.down || this.closed) return;
    this.down = false;
    this.outages.recovered();
  }

  /**
   * Closes the connection, waiting for the replies under way at most `timeoutMs`: a hung Redis (SIGSTOP,
   * a dead peer) never answers the close, and a SIGTERM must stop within its documented bound whatever
   * Redis does. Past that the socket is destroyed.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.timeoutMs)));
    try {
      const how = await Promise.race([this.client.close().then(() => 'closed' as const), late]);
      if (how === 'late') this.client.destroy();
    } catch {
      this.client.destroy();
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A key part that cannot run into the next: host names and paths are free text. */
function part(s: string): string {
  return encodeURIComponent(s);
}

/**
 * One context's sessions, keyed `<prefix>s:<id>`; with a limit (maxActiveSessions ≥ 0) the live ones are
 * also counted in the sorted set `<prefix>live`.
 */
class RedisSessionStore implements SessionStore {
  /** The sorted set of live sessions, as the scripts' last key, or nothing without a limit. */
  private readonly live: string[];

  constructor(
    private readonly conn: Connection,
    private readonly prefix: string,
    private readonly idleTtlMs: number,
    readonly maxActiveSessions: number,
  ) {
    this.live = maxActiveSessions >= 0 ? [`${prefix}live`] : [];
  }

  private key(id: string): string {
    return `${this.prefix}s:${id}`;
  }

  async load(id: string, now: number): Promise<SessionRecord | null> {
    const reply = await this.conn.eval(
      LOAD,
      [this.key(id), ...this.live],
      [String(now), String(this.idleTtlMs)],
      sessionHash,
    );
    return reply === null ? null : toRecord(id, reply, now);
  }

  async create(record: SessionRecord): Promise<void> {
    const fields = [
      'c',
      String(record.creationTime),
      'l',
      String(record.lastAccessedTime),
      ...attributeArgs(record.attributes),
    ];
    const m = String(record.maxInactiveInterval);
    const ttl = String(this.idleTtlMs);
    if (this.maxActiveSessions < 0) {
      // A new key: UPDATE refuses to resurrect a missing session, so the first write goes through HSET in the script below.
      await this.conn.eval(CREATE, [this.key(record.id)], [m, ttl, ...fields], flag);
      return;
    }
    const kept = await this.conn.eval(
      CREATE_LIMITED,
      [this.key(record.id), ...this.live],
      [m, ttl, String(this.maxActiveSessions), ...fields],
      flag,
    );
    if (!kept) throw new TooManyActiveSessionsError(this.maxActiveSessions);
  }

  async update(record: SessionRecord, changes: ReadonlyMap<string, unknown>): Promise<void> {
    await this.conn.eval(
      UPDATE,
      [this.key(record.id), ...this.live],
      [String(record.maxInactiveInterval), String(this.idleTtlMs), ...attributeArgs(changes)],
      flag,
    );
  }

  async rename(oldId: string, newId: string): Promise<boolean> {
    return this.conn.eval(RENAME, [this.key(oldId), this.key(newId), ...this.live], [], flag);
  }

  async remove(id: string): Promise<void> {
    if (this.maxActiveSessions < 0) await this.conn.del(this.key(id));
    else await this.conn.eval(REMOVE, [this.key(id), ...this.live], [], integer);
  }

  async addNonce(id: string, nonce: string, cacheSize: number): Promise<void> {
    await this.conn.eval(ADD_NONCE, [this.key(id)], [nonce, String(cacheSize)], flag);
  }

  async restToken(id: string, fresh: string): Promise<string | null> {
    return this.conn.eval(REST_TOKEN, [this.key(id)], [fresh], stringOrNull);
  }

  close(): void {}
}

const CREATE = new Script(
  'create',
  `
local m = tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'm', ARGV[1])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], m > 0 and (m * 1000 + 1000) or tonumber(ARGV[2]))
return 1`,
);

// ARGV: m, the idle TTL, the limit, then the fields. 0: refused at the limit (no live session is dropped).
const CREATE_LIMITED = new Script(
  'create limited',
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local m = tonumber(ARGV[1])
local ttl = m > 0 and (m * 1000 + 1000) or tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if not redis.call('ZSCORE', KEYS[2], KEYS[1]) and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'm', ARGV[1])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1`,
);

/** Attribute names and JSON values as script arguments (`''`: removed). */
function attributeArgs(attrs: ReadonlyMap<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, value] of attrs) {
    if (value === undefined) {
      out.push(`a:${name}`, '');
      continue;
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      json = undefined;
    }
    if (json === undefined) {
      unserialisable(name);
      continue;
    }
    out.push(`a:${name}`, json);
  }
  return out;
}

const warnedAttributes = new Set<string>();

function unserialisable(name: string): void {
  if (warnedAttributes.has(name) || warnedAttributes.size > 1000) return;
  warnedAttributes.add(name);
  logger.warning(
    `The session attribute [${name}] is not JSON-serialisable and is not stored in Redis (other instances will not see it)`,
  );
}

function toRecord(id: string, flat: readonly string[], now: number): SessionRecord {
  const attributes = new Map<string, unknown>();
  let c = now;
  let m = -1;
  let nonces: string[] | null = null;
  let restToken: string | null = null;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const k = flat[i]!;
    const v = flat[i + 1]!;
    if (k === 'c') c = Number(v);
    else if (k === 'm') m = Number(v);
    else if (k === 'n') nonces = v === '' ? [] : v.split(' ');
    else if (k === 'r') restToken = v;
    else if (k.startsWith('a:')) {
      try {
        attributes.set(k.slice(2), JSON.parse(v));
      } catch {
        // A value some other writer stored unreadably is left out rather than failing the request.
      }
    }
  }
  return { id, creationTime: c, lastAccessedTime: now, maxInactiveInterval: m, attributes, nonces, restToken };
}

/** One RateLimitFilter's counters, keyed `<prefix>rl:<filter>:<window>:<address>`. */
class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly conn: Connection,
    private readonly prefix: string,
    readonly failOpen: boolean,
  ) {}

  async increment(key: string, window: number, windowMs: number): Promise<number> {
    return this.conn.eval(INCREMENT, [`${this.prefix}${window}:${key}`], [String(windowMs)], count);
  }

  close(): void {}
}

/** A realm's failed-users table, keyed `<prefix>lock:<scope>:<user>`. */
class RedisLockoutStore implements LockoutStore {
  constructor(
    private readonly conn: Connection,
    private readonly prefix: string,
  ) {}

  private key(user: string): string {
    return `${this.prefix}${part(user)}`;
  }

  async get(user: string): Promise<LockoutRecord | null> {
    return this.conn.eval(GET_LOCK, [this.key(user)], [], lockRecord);
  }

  async registerFailure(user: string, now: number, policy: LockoutPolicy): Promise<LockoutRecord> {
    return this.conn.eval(
      FAILURE,
      [this.key(user)],
      [String(now), String(policy.failureCount), String(policy.lockOutTime)],
      lockRecordNotNull,
    );
  }

  async clear(user: string): Promise<void> {
    await this.conn.del(this.key(user));
  }

  close(): void {}
}

const GET_LOCK = new Script(
  'get lock',
  `
local f = redis.call('HGET', KEYS[1], 'f')
if not f then return false end
return {f, redis.call('HGET', KEYS[1], 't')}`,
);

/** All of a server's state in one Redis, each context and realm under its own key prefix. */
export class RedisStateBackend implements StateBackend {
  readonly name: string;
  /** Instances on several machines share it. */
  readonly shared = true;
  private readonly conn: Connection;
  private readonly prefix: string;
  private readonly failOpen: boolean;
  private readonly idleTtlMs: number;

  constructor(options: RedisStateOptions = {}) {
    const url = options.url ?? defaultRedisUrl();
    const problem = redisUrlProblem(url);
    if (problem !== null) throw new TypeError(problem);
    const timeoutMs = options.timeoutMs ?? 300;
    if (!(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new TypeError(`timeoutMs must be a positive integer, got ${String(options.timeoutMs)}`);
    this.conn = new Connection(
      url,
      timeoutMs,
      options.connectTimeoutMs ?? 1_000,
      options.failOpen ?? false,
      options.allowEviction ?? false,
    );
    this.name = redact(url);
    this.prefix = options.prefix ?? 'tollgate:';
    this.failOpen = options.failOpen ?? false;
    this.idleTtlMs = (options.idleSessionTtlSeconds ?? 86_400) * 1000;
  }

  /** Resolves true once connected, false after `ms` (the backend works either way, failing closed until then). */
  async ready(ms = 2_000): Promise<boolean> {
    const up = await this.conn.ready(ms);
    if (up) await this.conn.policyChecked;
    return up;
  }

  /**
   * Why this Redis is refused (its maxmemory-policy may evict keys, or cannot be read, and allowEviction is
   * not set), as read when it last connected; null when it is accepted or has not answered yet.
   */
  get policyProblem(): string | null {
    return this.conn.policyProblem;
  }

  /** Whether Redis answers now (a readiness probe): connected, its policy accepted, and not in an outage. */
  get healthy(): boolean {
    return this.conn.healthy;
  }

  /** Asks Redis (a PING bounded by the command timeout) when it has not answered within the last second; never rejects. */
  probe(): Promise<void> {
    return this.conn.probe();
  }

  /**
   * With `options.maxActiveSessions` (≥ 0), every instance sharing this Redis counts the context's live
   * sessions together and refuses a new one beyond the limit.
   */
  context(host: string, contextPath: string, options: ContextStoreOptions = {}): ContextStores {
    const p = `${this.prefix}c:${part(host.toLowerCase())}:${part(contextPath === '' ? '/' : contextPath)}:`;
    const conn = this.conn;
    const failOpen = this.failOpen;
    return {
      sessions: new RedisSessionStore(conn, p, this.idleTtlMs, options.maxActiveSessions ?? -1),
      rateLimiter: (filterName) => new RedisRateLimitStore(conn, `${p}rl:${part(filterName)}:`, failOpen),
    };
  }

  /** `settings.cacheSize` is not needed: each record expires lockOutTime after its last failure, a lock never sooner. */
  lockouts(scope: string, _settings?: LockoutPolicy & { readonly cacheSize: number }): LockoutStore {
    return new RedisLockoutStore(this.conn, `${this.prefix}lock:${part(scope)}:`);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

/** A Redis backend (tollgate/stores/redis's entry point). */
export function createRedisBackend(options: RedisStateOptions = {}): RedisStateBackend {
  return new RedisStateBackend(options);
}

export type { StateBackend } from '../runtime/index.js';
export { defaultRedisUrl, parseStoreChoice, redisUrlProblem, type StoreChoice } from './url.js';
