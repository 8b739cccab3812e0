/**
 * docs/security.md: the language server lints the latest text after a quiet period, not once per edit,
 * on a thread of its own, and publishes findings only for the latest version. Counted through the
 * server's tollgate/lints (tests count work and order; the latency is measured by bench/security.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tollgate.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Lints {
  started: number;
  running: Record<string, number> | null;
  log: { id: number; versions: Record<string, number>; outcome: string }[];
}

/** A client over stdio: sends frames, waits for answers; `events` lists what arrived, in order. */
function client() {
  const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = Buffer.alloc(0);
  const waiting = new Map<number, (v: unknown) => void>();
  const events: string[] = [];
  const versions: number[] = [];
  let wake: (() => void) | null = null;
  child.stdout.on('data', (c: Buffer) => {
    buf = Buffer.concat([buf, c]);
    for (;;) {
      const head = buf.indexOf('\r\n\r\n');
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())?.[1]);
      if (buf.length < head + 4 + len) return;
      const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString()) as {
        id?: number;
        method?: string;
        result?: unknown;
        params?: { version?: number };
      };
      buf = buf.subarray(head + 4 + len);
      if (msg.id !== undefined && waiting.has(msg.id)) {
        events.push(`answer ${msg.id}`);
        waiting.get(msg.id)!(msg.result);
      }
      if (msg.method === 'textDocument/publishDiagnostics') {
        events.push(`diagnostics ${msg.params?.version}`);
        versions.push(msg.params?.version ?? -1);
        wake?.();
      }
    }
  });
  const frame = (msg: object): string => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...msg });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  let id = 0;
  return {
    events,
    /** Resolves once diagnostics of `version` were published. */
    published: (version: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (versions.includes(version)) resolve();
          else wake = check;
        };
        check();
      }),
    /** Frames for requests get ids here; returns the id of the last request among them. */
    send: (frames: object[]) => child.stdin.write(frames.map(frame).join('')),
    nextId: () => ++id,
    wait: (n: number): Promise<unknown> => new Promise<unknown>((resolve) => waiting.set(n, resolve)),
    request: (method: string, params: unknown): Promise<unknown> => {
      const n = ++id;
      const p = new Promise<unknown>((resolve) => waiting.set(n, resolve));
      child.stdin.write(frame({ id: n, method, params }));
      return p;
    },
    stop: () => child.kill(),
  };
}

describe('the language server under a burst of edits', () => {
  it('lints only the last of 100 edits of a 7 MB file, answers a request sent after them before that lint ends, and answers while a lint runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-lsp-burst-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'webapps', 'app', 'WEB-INF'), { recursive: true });
    const file = join(dir, 'webapps', 'app', 'WEB-INF', 'web.xml');
    const text = `<web-app>\n<!--${'x'.repeat(7 * 1024 * 1024)}-->\n<display-name>a</display-name>\n</web-app>\n`;
    writeFileSync(file, text);
    const uri = `file://${file}`;
    const c = client();
    try {
      // A quiet period of 1 s: the burst below arrives in one write, so no pause inside it comes near that.
      await c.request('initialize', {
        processId: null,
        rootUri: null,
        capabilities: {},
        initializationOptions: { quietMs: 1000 },
      });
      c.send([
        { method: 'initialized', params: {} },
        { method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'xml', version: 1, text } } },
      ]);
      // While the open's lint runs on its thread, the server answers: it says so itself (a lint on the
      // server's own thread could never be seen running from outside).
      let seenRunning = false;
      let done = false;
      const opened = c.published(1).then(() => (done = true));
      while (!done && !seenRunning) {
        const state = (await c.request('tollgate/lints', null)) as Lints;
        if (state.running) seenRunning = state.running[uri] === 1;
        else await new Promise((r) => setTimeout(r, 5));
      }
      await opened;
      expect(seenRunning).toBe(true);

      const edits: object[] = [];
      for (let v = 2; v <= 101; v++)
        edits.push({
          method: 'textDocument/didChange',
          params: {
            textDocument: { uri, version: v },
            contentChanges: [
              { range: { start: { line: 2, character: 14 }, end: { line: 2, character: 14 } }, text: 'b' },
            ],
          },
        });
      const hoverId = c.nextId();
      const hover = c.wait(hoverId);
      c.send([
        ...edits,
        {
          id: hoverId,
          method: 'textDocument/hover',
          params: { textDocument: { uri }, position: { line: 0, character: 2 } },
        },
      ]);
      const answer = await hover;
      expect(answer === null || typeof answer === 'object').toBe(true);
      await c.published(101);
      // The request sent right after the last edit was answered before the last version's findings came.
      const order = c.events.filter((e) => e === `answer ${hoverId}` || e.startsWith('diagnostics'));
      expect(order.slice(-2)).toEqual([`answer ${hoverId}`, 'diagnostics 101']);
      // Two lints in all: the open (version 1) and the last edit (version 101); none of versions 2-100.
      const state = (await c.request('tollgate/lints', null)) as Lints;
      expect(state.started).toBe(2);
      expect(state.log.map((l) => [l.versions[uri], l.outcome])).toEqual([
        [1, 'published'],
        [101, 'published'],
      ]);
      expect(c.events.filter((e) => e.startsWith('diagnostics'))).toEqual(['diagnostics 1', 'diagnostics 101']);
    } finally {
      c.stop();
    }
  }, 300_000);
});
