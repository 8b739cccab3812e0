/**
 * Soak: the example `npm start` serves (a copy of examples/base, through the
 * same startContainer) runs in a child process under mixed traffic with
 * session churn, and its heap and RSS are sampled over IPC every interval.
 *
 *   npx tsx bench/soak.ts [--minutes 10] [--concurrency 32] [--interval 10] [--csv out.csv]
 *
 * The mix: static pages on both virtual hosts, CORS requests and
 * pre-flights, REST CSRF token fetches (each creates a session: the churn,
 * up to the context's 10,000-session cap and then least-recently-used
 * eviction), modifying requests with and without the token, Expires on
 * assets, RemoteIp + RemoteCIDR refusals, 404s, and rare host-manager
 * logins (PBKDF2). Each kind has the statuses the chain decides for it;
 * anything else, a socket error or a child exit is counted as an error.
 * Before the timed part, a warm-up fills the session store to its cap, so
 * "flat after warm-up" means flat with the store full and churning.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS_FILE = fileURLToPath(import.meta.url);
const EXAMPLE_BASE = fileURLToPath(new URL('../examples/base', import.meta.url));

export interface Sample {
  /** Seconds since the timed part started. */
  t: number;
  requests: number;
  /** Requests per second over the interval. */
  rps: number;
  /** heapUsed after a full GC, MB. */
  heapMB: number;
  rssMB: number;
  errors: number;
}

export interface SoakReport {
  durationSeconds: number;
  warmupRequests: number;
  requests: number;
  errors: number;
  /** How many answers of each status (timed part and warm-up together). */
  statuses: Record<string, number>;
  /** Unexpected answers, `kind status` -> count. */
  unexpected: Record<string, number>;
  /** The child right after start-up, before any request (heap after GC, RSS; MB). */
  initial: { heapMB: number; rssMB: number };
  samples: Sample[];
  childExit: string | null;
}

export interface SoakOptions {
  /** How long the measured part runs; or, with `requests`, how many requests it sends however long they take. */
  seconds?: number;
  requests?: number;
  /** With `requests`: a sample after every this many of them (default a quarter of `requests`). */
  sampleEveryRequests?: number;
  concurrency?: number;
  intervalSeconds?: number;
  /** Token fetches before the timed part (default 10,500: past the 10,000-session cap). */
  warmupFetches?: number;
  /** Seconds of mixed traffic after the fetches, before the first sample (default 0). */
  warmupSeconds?: number;
  /**
   * Mixed-traffic requests after the fetches, before the first sample, however long they take (default 0).
   * The heap settles after about 20,000 of them (old space and the session maps' backing stores, measured
   * with v8.getHeapSpaceStatistics: +1.6 MB in the first 22,000, then flat); seconds alone warmed up less on a
   * loaded machine, where a short soak then read that settling as growth.
   */
  warmupMixedRequests?: number;
  onSample?: (s: Sample) => void;
}

interface Kind {
  name: string;
  weight: number;
  expect: readonly number[];
  send(c: Client): Promise<number>;
}

const DEPLOYER = `Basic ${Buffer.from('deployer:tollgate-demo').toString('base64')}`;
const GHOST = `Basic ${Buffer.from('ghost:guess').toString('base64')}`;

export class Client {
  /** Session cookies and their CSRF tokens, most recent last; a bounded pool of "returning" clients. */
  readonly sessions: { cookie: string; token: string }[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  constructor(readonly port: number) {}

  call(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          headers: { host: 'localhost', ...headers },
          agent: this.agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async status(method: string, path: string, headers?: Record<string, string>, body?: string): Promise<number> {
    return (await this.call(method, path, headers, body)).status;
  }

  /** A token fetch: a new session (no cookie sent), remembered for later modifying requests. */
  async fetchToken(): Promise<number> {
    const r = await this.call('GET', '/api/index.json', { 'x-csrf-token': 'Fetch' });
    const cookie = ([] as string[]).concat(r.headers['set-cookie'] ?? [])[0]?.split(';', 1)[0];
    const token = r.headers['x-csrf-token'];
    if (cookie !== undefined && typeof token === 'string') {
      this.sessions.push({ cookie, token });
      if (this.sessions.length > 500) this.sessions.splice(0, 250);
    }
    return r.status;
  }

  close(): void {
    this.agent.destroy();
  }
}

const KINDS: Kind[] = [
  { name: 'root', weight: 14, expect: [200], send: (c) => c.status('GET', '/') },
  { name: 'partners', weight: 6, expect: [200], send: (c) => c.status('GET', '/', { host: 'partners.localhost' }) },
  { name: 'css', weight: 10, expect: [200], send: (c) => c.status('GET', '/static/assets/site.css') },
  {
    name: 'js-conditional',
    weight: 6,
    expect: [200, 304],
    send: (c) =>
      c.status('GET', '/static/assets/app.js', {
        'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString(),
      }),
  },
  {
    name: 'cors',
    weight: 10,
    expect: [200],
    send: (c) => c.status('GET', '/api/index.json', { origin: 'https://app.example.com' }),
  },
  {
    name: 'cors-refused',
    weight: 3,
    expect: [403],
    send: (c) => c.status('GET', '/api/index.json', { origin: 'https://evil.example' }),
  },
  {
    name: 'preflight',
    weight: 5,
    expect: [200],
    send: (c) =>
      c.status('OPTIONS', '/api/index.json', {
        origin: 'https://admin.example.com',
        'access-control-request-method': 'PUT',
      }),
  },
  { name: 'csrf-fetch', weight: 14, expect: [200], send: (c) => c.fetchToken() },
  {
    name: 'csrf-post-token',
    weight: 6,
    expect: [200],
    send: (c) => {
      const s = c.sessions[Math.floor(Math.random() * c.sessions.length)];
      if (s === undefined) return c.fetchToken();
      return c.status(
        'POST',
        '/api/index.json',
        { cookie: s.cookie, 'x-csrf-token': s.token, 'content-type': 'application/x-www-form-urlencoded' },
        'a=1&b=2',
      );
    },
  },
  {
    name: 'csrf-post-missing',
    weight: 4,
    expect: [403],
    send: (c) => c.status('POST', '/api/index.json', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'),
  },
  { name: 'intranet', weight: 5, expect: [200], send: (c) => c.status('GET', '/intranet/') },
  {
    name: 'intranet-forwarded',
    weight: 5,
    expect: [403],
    send: (c) => c.status('GET', '/intranet/', { 'x-forwarded-for': '203.0.113.9' }),
  },
  {
    name: 'not-found',
    weight: 4,
    expect: [404],
    send: (c) => c.status('GET', `/nope/${Math.random().toString(36).slice(2)}`),
  },
  { name: 'web-inf', weight: 2, expect: [404], send: (c) => c.status('GET', '/static/WEB-INF/web.xml') },
  {
    name: 'host-manager',
    weight: 0.3,
    expect: [200],
    send: (c) => c.status('GET', '/host-manager/text/list', { authorization: DEPLOYER }),
  },
  {
    name: 'host-manager-ghost',
    weight: 0.3,
    expect: [401],
    send: (c) => c.status('GET', '/host-manager/text/list', { authorization: GHOST }),
  },
];
const TOTAL_WEIGHT = KINDS.reduce((s, k) => s + k.weight, 0);

function pick(): Kind {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const k of KINDS) if ((r -= k.weight) < 0) return k;
  return KINDS[0]!;
}

/** Starts the example served from `base` in a child process (this file with --child) and resolves with it and its port. */
export async function startExampleChild(
  base: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(THIS_FILE, ['--child', base], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env,
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port?: number }) =>
      m.port ? resolve(m.port) : reject(new Error('child did not start')),
    );
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
  return { child, port };
}

/** What the child reports: its memory after a full GC and how many connections its server holds. */
export type ChildSample = NodeJS.MemoryUsage & { connections: number };

/** Asks the child for a sample. */
export function sampleChild(child: ChildProcess): Promise<ChildSample> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no memory sample within 10 s')), 10_000);
    child.once('message', (m: ChildSample) => {
      clearTimeout(t);
      resolve(m);
    });
    child.send({ type: 'memory' });
  });
}

/** Runs the soak and reports; never throws for server misbehaviour (it is in the report). */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const base = mkdtempSync(join(tmpdir(), 'tg-soak-'));
  cpSync(EXAMPLE_BASE, base, { recursive: true });
  const { child, port } = await startExampleChild(base);
  let childExit: string | null = null;
  child.once('exit', (code, signal) => (childExit = `exit code ${code} signal ${signal}`));
  const client = new Client(port);
  const m0 = await sampleChild(child);
  const initial = { heapMB: +(m0.heapUsed / 2 ** 20).toFixed(1), rssMB: +(m0.rss / 2 ** 20).toFixed(1) };
  const statuses: Record<string, number> = {};
  const unexpected: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  const record = (kind: string, status: number | string, ok: boolean): void => {
    requests++;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (!ok) {
      errors++;
      unexpected[`${kind} ${status}`] = (unexpected[`${kind} ${status}`] ?? 0) + 1;
    }
  };
  const one = async (k: Kind): Promise<void> => {
    try {
      const s = await k.send(client);
      record(k.name, s, k.expect.includes(s));
    } catch (err) {
      record(k.name, (err as NodeJS.ErrnoException).code ?? 'error', false);
    }
  };
  const concurrency = options.concurrency ?? 32;
  try {
    // Warm-up: fill the /api session store to its cap with token fetches.
    let left = options.warmupFetches ?? 10_500;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0 && childExit === null) await one(KINDS.find((k) => k.name === 'csrf-fetch')!);
      }),
    );
    const warmupEnd = Date.now() + (options.warmupSeconds ?? 0) * 1000;
    let mixedLeft = options.warmupMixedRequests ?? 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while ((Date.now() < warmupEnd || mixedLeft-- > 0) && childExit === null) await one(pick());
      }),
    );
    const warmupRequests = requests;
    const samples: Sample[] = [];
    const started = Date.now();
    const intervalMs = (options.intervalSeconds ?? 10) * 1000;
    let lastRequests = requests;
    let lastAt = started;
    const sample = async (): Promise<void> => {
      const m = await sampleChild(child);
      const now = Date.now();
      const s: Sample = {
        t: Math.round((now - started) / 1000),
        requests: requests - warmupRequests,
        rps: Math.round(((requests - lastRequests) * 1000) / Math.max(1, now - lastAt)),
        heapMB: +(m.heapUsed / 2 ** 20).toFixed(1),
        rssMB: +(m.rss / 2 ** 20).toFixed(1),
        errors,
      };
      lastRequests = requests;
      lastAt = now;
      samples.push(s);
      options.onSample?.(s);
    };
    await sample();
    let sampling = Promise.resolve();
    if (options.requests !== undefined) {
      // Counted work: the same requests and samples on a quiet or a loaded machine.
      const total = options.requests;
      const every = Math.max(1, options.sampleEveryRequests ?? Math.ceil(total / 4));
      let sent = 0;
      let finished = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (sent < total && childExit === null) {
            sent++;
            await one(pick());
            const done = ++finished;
            if (done % every === 0 && done < total) sampling = sampling.then(sample, () => undefined);
          }
        }),
      );
    } else {
      const deadline = started + (options.seconds ?? 60) * 1000;
      const timer = setInterval(() => {
        sampling = sampling.then(sample, () => undefined);
      }, intervalMs);
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (Date.now() < deadline && childExit === null) await one(pick());
        }),
      );
      clearInterval(timer);
    }
    await sampling;
    if (childExit === null) await sample();
    return {
      durationSeconds: Math.round((Date.now() - started) / 1000),
      warmupRequests,
      requests: requests - warmupRequests,
      errors,
      statuses,
      unexpected,
      initial,
      samples,
      childExit,
    };
  } finally {
    client.close();
    child.kill();
    rmSync(base, { recursive: true, force: true });
  }
}

/** The child: the example served as `npm start` serves it, answering memory samples over IPC. */
async function child(base: string): Promise<void> {
  const { startContainer } = await import('../src/server/container.js');
  const { setLogLevel, MemoryStateBackend } = await import('../src/runtime/index.js');
  // The host-manager ghost logins log a warning each; the soak measures memory, not stderr.
  setLogLevel('', 'SEVERE');
  // bench/session-heap.ts raises each context's session cap (the store's only difference from serve's default).
  const cap = Number(process.env.TOLLGATE_BENCH_MAX_SESSIONS ?? 0);
  const memory = new MemoryStateBackend();
  const state =
    cap > 0
      ? {
          name: 'memory',
          context: (host: string, path: string) => memory.context(host, path, { maxActiveSessions: cap }),
          lockouts: memory.lockouts.bind(memory),
          close: () => memory.close(),
        }
      : undefined;
  const c = await startContainer({ base, port: 0, state });
  process.on('message', (m: { type?: string }) => {
    if (m.type !== 'memory') return;
    (globalThis as { gc?: () => void }).gc?.();
    c.server.getConnections((_err, connections) => process.send!({ ...process.memoryUsage(), connections }));
  });
  process.on('disconnect', () => void c.stop().then(() => process.exit(0)));
  process.send!({ port: c.port });
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
}

async function main(): Promise<void> {
  const minutes = arg('minutes', 10);
  const csvAt = process.argv.indexOf('--csv');
  const rows = ['t_s,requests,rps,heap_mb,rss_mb,errors'];
  console.log(
    `soak: ${minutes} min of mixed traffic against examples/base (child process), concurrency ${arg('concurrency', 32)}`,
  );
  console.log('   t_s   requests    rps  heap_MB  rss_MB  errors');
  const report = await runSoak({
    seconds: minutes * 60,
    concurrency: arg('concurrency', 32),
    intervalSeconds: arg('interval', 10),
    onSample: (s) => {
      rows.push(`${s.t},${s.requests},${s.rps},${s.heapMB},${s.rssMB},${s.errors}`);
      console.log(
        `${String(s.t).padStart(6)} ${String(s.requests).padStart(10)} ${String(s.rps).padStart(6)} ${s.heapMB.toFixed(1).padStart(8)} ${s.rssMB.toFixed(1).padStart(7)} ${String(s.errors).padStart(7)}`,
      );
    },
  });
  if (csvAt >= 0) writeFileSync(process.argv[csvAt + 1]!, rows.join('\n') + '\n');
  const first = report.samples[0];
  const last = report.samples[report.samples.length - 1];
  console.log(`\nwarm-up: ${report.warmupRequests} requests (token fetches: the session store filled to its cap)`);
  console.log(
    `timed: ${report.durationSeconds} s, ${report.requests} requests (${Math.round(report.requests / Math.max(1, report.durationSeconds))}/s), errors ${report.errors}`,
  );
  console.log(`statuses: ${JSON.stringify(report.statuses)}`);
  if (report.errors > 0) console.log(`unexpected: ${JSON.stringify(report.unexpected)}`);
  if (first && last) {
    console.log(
      `heap (after GC): start ${report.initial.heapMB} MB, after warm-up ${first.heapMB} MB, end ${last.heapMB} MB`,
    );
    console.log(`rss: start ${report.initial.rssMB} MB, after warm-up ${first.rssMB} MB, end ${last.rssMB} MB`);
  }
  console.log(`child: ${report.childExit ?? 'alive until stopped'}`);
  process.exitCode = report.errors > 0 || report.childExit !== null ? 1 : 0;
}

if (process.argv[2] === '--child') void child(process.argv[3]!);
else if (process.argv[1] === THIS_FILE) void main();
