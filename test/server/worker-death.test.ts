/**
 * A worker of `serve --workers 2` killed while the primary was handing it a connection: the primary
 * closes the connection it never took (node:cluster kept it open for ever: an operator's client waited
 * 18 minutes), and forks a replacement. The worker is SIGSTOPped first so that the connection the
 * round-robin hands it is never accepted, as when a worker is killed while stopped, busy or swapping.
 */
import * as net from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeBase, serverXml } from './harness.js';
import { ask, waitFor } from './http.js';
import { startServe, stopServes } from './serve-process.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopServes();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Client {
  answered: boolean;
  closed: boolean;
}

/** A connection with a whole keep-alive request written on it. */
function client(port: number): Client {
  const c: Client = { answered: false, closed: false };
  const sock = net.connect(port, '127.0.0.1');
  sock.on('data', () => (c.answered = true));
  sock.on('close', () => (c.closed = true));
  sock.on('error', () => undefined);
  sock.write('GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n');
  return c;
}

describe('a worker that dies holding a connection', () => {
  it('the primary closes the connection it had handed to it, and forks a replacement', async () => {
    const base = makeBase(serverXml());
    dirs.push(base);
    const s = await startServe(base, ['--workers', '2']);
    const pids = /pids ([\d, ]+);/.exec(s.out())![1]!.split(', ').map(Number);
    expect(pids).toHaveLength(2);
    const stopped = pids[0]!;
    process.kill(stopped, 'SIGSTOP');
    // Round-robin: the stopped worker is handed one connection and, not answering, is handed no more;
    // the other worker answers the rest.
    const clients = [client(s.port), client(s.port), client(s.port)];
    await waitFor(
      () => clients.filter((c) => c.answered).length === 2,
      60_000,
      () => `two of three connections should be answered by the running worker: ${JSON.stringify(clients)}`,
    );
    const held = clients.find((c) => !c.answered)!;
    expect(held.closed).toBe(false);

    process.kill(stopped, 'SIGKILL');
    await waitFor(
      () => held.closed,
      60_000,
      () => `the connection handed to the killed worker is still open:\n${s.err()}`,
    );
    expect(held.answered).toBe(false);
    await waitFor(
      () => /exited holding 1 connection\(s\) it had not accepted: closed/.test(s.err()),
      60_000,
      () => `no line for the connection closed:\n${s.err()}`,
    );
    await waitFor(
      () => /exited with signal SIGKILL; starting a replacement/.test(s.err()),
      60_000,
      () => `no replacement:\n${s.err()}`,
    );
    // The replacement: the primary has two worker processes again, the killed one not among them, and they serve.
    const children = (): number[] =>
      readFileSync(`/proc/${s.child.pid}/task/${s.child.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    const replacement = await waitFor(
      () => {
        const now = children();
        return now.length === 2 && !now.includes(stopped) ? now.find((p) => p !== pids[1]) : undefined;
      },
      60_000,
      () => `no replacement worker: children ${children().join(', ')}\n${s.err()}`,
    );
    expect(pids).not.toContain(replacement);
    for (let i = 0; i < 4; i++)
      expect((await ask(s.port, '/index.html', { headers: { Host: 'localhost' } })).status).toBe(200);
  }, 180_000);
});
