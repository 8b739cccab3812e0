/**
 * Many concurrent connections held open against the example `npm start`
 * serves (a copy of examples/base in a child process, as in bench/soak.ts).
 *
 *   npx tsx bench/connections.ts [--connections 10000] [--hold 60] [--clients 2] [--every 8]
 *
 * Client processes open their share of the connections in batches, send a
 * keep-alive GET on each and then one more every `--every` seconds (jittered;
 * the example's keepAliveTimeout is its connectionTimeout, 20 s), so every
 * connection stays open and in use for `--hold` seconds without hammering a
 * 2-core machine. Reported: connections opened and held, requests and their
 * statuses, connection errors and unexpected closes, the server's own count
 * of open connections, its heap and RSS, and whether a fresh request is
 * still served at the peak and after everything is closed.
 */
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleChild, startExampleChild } from './soak.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const EXAMPLE_BASE = fileURLToPath(new URL('../examples/base', import.meta.url));

export interface ClientResult {
  opened: number;
  /** Connections open when the hold ended. */
  heldToEnd: number;
  requests: number;
  statuses: Record<string, number>;
  connectErrors: Record<string, number>;
  /** Connections the server closed or reset during the hold. */
  unexpectedCloses: number;
}

export interface ConnectionsOptions {
  connections: number;
  holdSeconds: number;
  clients?: number;
  everySeconds?: number;
  onProgress?: (line: string) => void;
}

export interface ConnectionsReport {
  connections: number;
  holdSeconds: number;
  clients: ClientResult[];
  opened: number;
  heldToEnd: number;
  requests: number;
  statuses: Record<string, number>;
  connectErrors: Record<string, number>;
  unexpectedCloses: number;
  /** The server's count of open connections at the peak. */
  serverConnectionsAtPeak: number;
  heapMB: { start: number; peak: number; afterClose: number };
  rssMB: { start: number; peak: number; afterClose: number };
  /** Status of a fresh GET / on a new connection at the peak and after the clients left. */
  probeAtPeak: number | string;
  probeAfter: number | string;
  childExit: string | null;
}

const REQUEST = 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** One held connection: counts the responses in the stream (every reply to GET / has a Content-Length). */
class Held {
  private buffer = '';
  closedByServer = false;
  answered = 0;
  constructor(
    readonly socket: Socket,
    private readonly onStatus: (status: string) => void,
  ) {
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => this.consume(d));
  }

  private consume(d: string): void {
    this.buffer += d;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (this.buffer.length < end + 4 + length) return;
      this.answered++;
      this.onStatus(head.slice(9, 12));
      this.buffer = this.buffer.slice(end + 4 + length);
    }
  }
}

/** A client process's part: open `count` connections, keep them busy for the hold, report. */
async function runClient(
  port: number,
  count: number,
  holdSeconds: number,
  everySeconds: number,
): Promise<ClientResult> {
  const result: ClientResult = {
    opened: 0,
    heldToEnd: 0,
    requests: 0,
    statuses: {},
    connectErrors: {},
    unexpectedCloses: 0,
  };
  const held: Held[] = [];
  let holding = true;
  let sending = true;
  const onStatus = (s: string): void => {
    result.statuses[s] = (result.statuses[s] ?? 0) + 1;
  };
  const timers = new Set<NodeJS.Timeout>();
  /** Sends a request every `everySeconds` (jittered) while holding, so the keep-alive timeout never fires. */
  const keepBusy = (h: Held): void => {
    const t = setTimeout(
      () => {
        timers.delete(t);
        if (!sending || h.socket.destroyed) return;
        h.socket.write(REQUEST);
        result.requests++;
        keepBusy(h);
      },
      everySeconds * 1000 * (0.5 + Math.random() / 2),
    );
    timers.add(t);
  };
  const open = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const h = new Held(socket, onStatus);
      socket.once('connect', () => {
        result.opened++;
        held.push(h);
        socket.write(REQUEST);
        result.requests++;
        keepBusy(h);
        resolve();
      });
      socket.on('error', (err: NodeJS.ErrnoException) => {
        if (!held.includes(h)) {
          result.connectErrors[err.code ?? 'error'] = (result.connectErrors[err.code ?? 'error'] ?? 0) + 1;
          resolve();
        }
      });
      socket.on('close', () => {
        if (holding && held.includes(h)) {
          h.closedByServer = true;
          result.unexpectedCloses++;
        }
      });
    });
  const started = Date.now();
  // Batches keep the listen backlog from overflowing while thousands of connects arrive.
  for (let i = 0; i < count; i += 250) await Promise.all(Array.from({ length: Math.min(250, count - i) }, open));
  // Opened is not yet accepted: wait until the server has answered every connection once (at most 60 s).
  while (held.some((h) => h.answered === 0 && !h.socket.destroyed) && Date.now() - started < 60_000)
    await new Promise((r) => setTimeout(r, 100));
  process.send?.({ type: 'opened', opened: result.opened, ms: Date.now() - started });
  await new Promise((r) => setTimeout(r, holdSeconds * 1000));
  sending = false;
  for (const t of timers) clearTimeout(t);
  // Let the last requests' answers arrive before counting; a close until then is still unexpected.
  await new Promise((r) => setTimeout(r, 2000));
  holding = false;
  result.heldToEnd = held.filter((h) => !h.socket.destroyed && !h.closedByServer).length;
  for (const h of held) h.socket.destroy();
  return result;
}

function probe(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (got += d));
    s.on('close', () => resolve(Number(got.slice(9, 12)) || 'no answer'));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    s.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    setTimeout(() => s.destroy(), 10_000);
  });
}

const mb = (n: number): number => +(n / 2 ** 20).toFixed(1);

/** Runs the whole measurement; server misbehaviour goes into the report. */
export async function runConnections(options: ConnectionsOptions): Promise<ConnectionsReport> {
  const clients = options.clients ?? 2;
  const log = options.onProgress ?? (() => undefined);
  const base = mkdtempSync(join(tmpdir(), 'tg-conns-'));
  cpSync(EXAMPLE_BASE, base, { recursive: true });
  const { child, port } = await startExampleChild(base);
  let childExit: string | null = null;
  child.once('exit', (code, signal) => (childExit = `exit code ${code} signal ${signal}`));
  try {
    const start = await sampleChild(child);
    log(`server pid ${child.pid} on port ${port}: heap ${mb(start.heapUsed)} MB, rss ${mb(start.rss)} MB`);
    const share = (i: number): number =>
      Math.floor(options.connections / clients) + (i < options.connections % clients ? 1 : 0);
    let opened = 0;
    let allOpened!: () => void;
    const openedAll = new Promise<void>((r) => (allOpened = r));
    let openedClients = 0;
    const results = Array.from({ length: clients }, (_, i) => {
      const proc = fork(
        THIS_FILE,
        ['--client', String(port), String(share(i)), String(options.holdSeconds), String(options.everySeconds ?? 8)],
        { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      );
      return new Promise<ClientResult>((resolve, reject) => {
        proc.on('message', (m: { type: string; opened?: number; ms?: number; result?: ClientResult }) => {
          if (m.type === 'opened') {
            opened += m.opened!;
            log(`client ${i}: ${m.opened} connections opened and answered once in ${m.ms} ms`);
            if (++openedClients === clients) allOpened();
          } else if (m.type === 'result') resolve(m.result!);
        });
        proc.once('exit', (code) => reject(new Error(`client ${i} exited with ${code}`)));
      });
    });
    await openedAll;
    log(`${opened} connections opened; holding for ${options.holdSeconds} s`);
    // The peak: midway through the hold, every connection open and in use.
    await new Promise((r) => setTimeout(r, (options.holdSeconds * 1000) / 2));
    const peak = await sampleChild(child);
    const probeAtPeak = await probe(port);
    log(
      `peak: server holds ${peak.connections} connections, heap ${mb(peak.heapUsed)} MB, rss ${mb(peak.rss)} MB, a new request gets ${probeAtPeak}`,
    );
    const done = await Promise.all(results);
    await new Promise((r) => setTimeout(r, 1000));
    const after = await sampleChild(child);
    const probeAfter = await probe(port);
    const sum = (f: (r: ClientResult) => number): number => done.reduce((s, r) => s + f(r), 0);
    const merge = (f: (r: ClientResult) => Record<string, number>): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const r of done) for (const [k, v] of Object.entries(f(r))) out[k] = (out[k] ?? 0) + v;
      return out;
    };
    return {
      connections: options.connections,
      holdSeconds: options.holdSeconds,
      clients: done,
      opened: sum((r) => r.opened),
      heldToEnd: sum((r) => r.heldToEnd),
      requests: sum((r) => r.requests),
      statuses: merge((r) => r.statuses),
      connectErrors: merge((r) => r.connectErrors),
      unexpectedCloses: sum((r) => r.unexpectedCloses),
      serverConnectionsAtPeak: peak.connections,
      heapMB: { start: mb(start.heapUsed), peak: mb(peak.heapUsed), afterClose: mb(after.heapUsed) },
      rssMB: { start: mb(start.rss), peak: mb(peak.rss), afterClose: mb(after.rss) },
      probeAtPeak,
      probeAfter,
      childExit,
    };
  } finally {
    child.kill();
    rmSync(base, { recursive: true, force: true });
  }
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
}

async function main(): Promise<void> {
  const report = await runConnections({
    connections: arg('connections', 10_000),
    holdSeconds: arg('hold', 60),
    clients: arg('clients', 2),
    everySeconds: arg('every', 8),
    onProgress: (l) => console.log(l),
  });
  const { clients: _per, ...summary } = report;
  console.log(JSON.stringify(summary, null, 2));
  const answered = Object.values(report.statuses).reduce((s, n) => s + n, 0);
  const ok =
    report.opened === report.connections &&
    report.heldToEnd === report.connections &&
    report.unexpectedCloses === 0 &&
    answered === report.requests &&
    report.statuses['200'] === answered &&
    report.probeAtPeak === 200 &&
    report.probeAfter === 200 &&
    report.childExit === null;
  console.log(ok ? 'OK: every connection opened, held and answered 200' : 'NOT OK: see the figures above');
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[2] === '--client') {
  const [port, count, hold, every] = process.argv.slice(3).map(Number) as [number, number, number, number];
  void runClient(port, count, hold, every).then((result) => {
    process.send!({ type: 'result', result }, () => process.exit(0));
  });
} else if (process.argv[1] === THIS_FILE) void main();
