/**
 * Issue 33's done-when, timed (docs/security.md): each attack of a stranger's pull request against the
 * built CLI in a fresh process, with its wall time, CPU time and peak RSS (process.resourceUsage in the
 * child, through test/security/rusage.mjs). Tests assert bounds that do not depend on speed
 * (test/security/hostile-repo.test.ts: memory, CPU, what was printed; lsp-coalesce.test.ts: lint runs);
 * the wall-clock figures are here.
 *
 *   npm run build && npx tsx bench/security.ts [--only lint,report,lsp,serve] [--json]
 *
 * The attacks: lib/catalina.jar as a zip bomb (three kinds), as a link to /dev/zero and as a FIFO, read by
 * `lint --profile cis`; conf/ files linked to /proc/self/environ, /dev/zero and a FIFO; `report` of the
 * 3 MB one-line web.xml with thousands of findings (and the page's size); 100 edits of a 7 MB file sent
 * to the language server one per 5 ms (how long after the last keystroke hover and the last version's
 * diagnostics answer); `serve` asked for a FIFO, /dev/zero and /proc/self/environ over HTTP.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildHostileRepo } from '../test/security/corpus.js';
import { bombJar } from '../test/security/zip.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'tollgate.js');
const PRELOAD = join(ROOT, 'test', 'security', 'rusage.mjs');

export interface AttackRow {
  attack: string;
  command: string;
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  /** The 1-minute load average when the command started (2 shared cores: wall time depends on it). */
  load: number;
  /** What the command said about the attack (the finding), or the measured outcome. */
  outcome: string;
}

interface Ran {
  code: number | null;
  out: string;
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  load: number;
}

/** Runs the built CLI in `cwd`; `during` sees the child while it runs (for servers). */
function run(cwd: string, args: string[], during?: (child: ChildProcess, printed: () => string) => void): Promise<Ran> {
  const usage = join(cwd, `.rusage-${process.hrtime.bigint()}.json`);
  const load = loadavg()[0]!;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...args], {
      cwd,
      env: { ...process.env, TOLLGATE_RUSAGE_OUT: usage, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    if (during) during(child, () => Buffer.concat(chunks).toString('utf8'));
    else child.stdin.end();
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const u = existsSync(usage)
        ? (JSON.parse(readFileSync(usage, 'utf8')) as { maxRssKiB: number; cpuMicros: number })
        : { maxRssKiB: NaN, cpuMicros: NaN };
      rmSync(usage, { force: true });
      resolve({
        code,
        out: Buffer.concat(chunks).toString('utf8'),
        wallMs,
        cpuMs: u.cpuMicros / 1000,
        maxRssMb: u.maxRssKiB / 1024,
        load,
      });
    });
  });
}

const SERVER_XML =
  '<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n';

/** A base of server.xml and `extra` (a path: bytes, or a link target as `-> target`, or `fifo`). */
function base(root: string, name: string, extra: Record<string, string | Buffer>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'conf'), { recursive: true });
  writeFileSync(join(dir, 'conf', 'server.xml'), SERVER_XML);
  for (const [rel, what] of Object.entries(extra)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof what === 'string' && what.startsWith('-> ')) symlinkSync(what.slice(3), p);
    else if (what === 'fifo') execFileSync('mkfifo', [p]);
    else writeFileSync(p, what);
  }
  return name;
}

/** The first line of `out` that says what was not read, or the first line. */
function finding(out: string, pattern: RegExp): string {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => pattern.test(l));
  const line =
    (at >= 0
      ? lines
          .slice(at + 1)
          .find((l) => /Not reading|not read|inflates|claims|compression ratio|regular file|archive/i.test(l))
      : undefined) ??
    lines[0] ??
    '';
  return line.trim().replace(/\s+/g, ' ').slice(0, 110);
}

async function cliAttacks(root: string): Promise<AttackRow[]> {
  const rows: AttackRow[] = [];
  const attacks: {
    attack: string;
    name: string;
    extra: Record<string, string | Buffer>;
    args?: string[];
    says: RegExp;
  }[] = [
    {
      attack: 'catalina.jar: zip bomb (an entry lying about its size)',
      name: 'bomb-lies',
      extra: { 'lib/catalina.jar': bombJar('lies') },
      says: /catalina\.jar/,
    },
    {
      attack: 'catalina.jar: zip bomb (claims 4 GiB)',
      name: 'bomb-claims',
      extra: { 'lib/catalina.jar': bombJar('claims') },
      says: /catalina\.jar/,
    },
    {
      attack: 'catalina.jar: zip bomb (ratio over 1,000)',
      name: 'bomb-ratio',
      extra: { 'lib/catalina.jar': bombJar('ratio') },
      says: /catalina\.jar/,
    },
    {
      attack: 'catalina.jar -> /dev/zero',
      name: 'jar-zero',
      extra: { 'lib/catalina.jar': '-> /dev/zero' },
      says: /catalina\.jar/,
    },
    { attack: 'catalina.jar a FIFO', name: 'jar-fifo', extra: { 'lib/catalina.jar': 'fifo' }, says: /catalina\.jar/ },
    {
      attack: 'conf/web.xml -> /dev/zero',
      name: 'conf-zero',
      extra: { 'conf/web.xml': '-> /dev/zero' },
      says: /web\.xml/,
    },
    {
      attack: 'conf/Catalina/localhost/x.xml a FIFO',
      name: 'conf-fifo',
      extra: { 'conf/Catalina/localhost/x.xml': 'fifo' },
      says: /x\.xml/,
    },
    {
      attack: 'conf/Catalina/localhost/env.xml -> /proc/self/environ',
      name: 'conf-environ',
      extra: { 'conf/Catalina/localhost/env.xml': '-> /proc/self/environ' },
      says: /env\.xml/,
    },
  ];
  // The reference: the same command on a base with no attack (Node's start and the lint itself).
  attacks.unshift({ attack: 'reference: a base with no attack', name: 'clean', extra: {}, says: /^$/ });
  for (const a of attacks) {
    const dir = base(root, a.name, a.extra);
    const args = ['lint', dir, '--profile', 'cis', '--workers', '0'];
    const r = await run(root, args);
    rows.push({
      attack: a.attack,
      command: `tollgate ${args.join(' ')}`,
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      maxRssMb: r.maxRssMb,
      load: r.load,
      outcome: `exit ${r.code}: ${finding(r.out.replaceAll(`${root}/`, ''), a.says)}`,
    });
  }
  return rows;
}

async function reportAttack(root: string): Promise<AttackRow> {
  const repo = buildHostileRepo();
  try {
    const out = join(root, 'big.html');
    const args = ['report', repo.bigBase, '--out', out];
    const r = await run(root, args);
    const size = statSync(out).size;
    return {
      attack: 'report of a 3 MB one-line web.xml (~10,000 findings)',
      command: 'tollgate report big --out big.html',
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      maxRssMb: r.maxRssMb,
      load: r.load,
      outcome: `exit ${r.code}: a page of ${(size / 1024 / 1024).toFixed(1)} MB`,
    };
  } finally {
    rmSync(repo.root, { recursive: true, force: true });
  }
}

/** LSP framing over the child's stdio: `send`, `request`, and the time diagnostics of a version arrived. */
function lspClient(child: ChildProcess) {
  let buf = Buffer.alloc(0);
  const waiting = new Map<number, (result: unknown) => void>();
  /** When each publishDiagnostics arrived. */
  const published: number[] = [];
  child.stdout!.on('data', (c: Buffer) => {
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
      if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
      if (msg.method === 'textDocument/publishDiagnostics') published.push(performance.now());
    }
  });
  const frame = (msg: object): string => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...msg });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  let id = 0;
  return {
    published,
    send: (msg: object) => child.stdin!.write(frame(msg)),
    request: (method: string, params: unknown): Promise<unknown> => {
      const n = ++id;
      const p = new Promise<unknown>((resolve) => waiting.set(n, resolve));
      child.stdin!.write(frame({ id: n, method, params }));
      return p;
    },
  };
}

async function lspAttack(root: string): Promise<AttackRow> {
  const dir = join(root, 'lsp', 'webapps', 'app', 'WEB-INF');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'web.xml');
  const text = `<web-app>\n<!--${'x'.repeat(7 * 1024 * 1024)}-->\n<display-name>a</display-name>\n</web-app>\n`;
  writeFileSync(file, text);
  const uri = `file://${file}`;
  let outcome = '';
  const r = await run(root, ['lsp', '--stdio'], (child) => {
    const c = lspClient(child);
    void (async () => {
      try {
        await c.request('initialize', { processId: null, rootUri: null, capabilities: {} });
        c.send({ method: 'initialized', params: {} });
        c.send({
          method: 'textDocument/didOpen',
          params: { textDocument: { uri, languageId: 'xml', version: 1, text } },
        });
        // The lint after opening (a few seconds for 7 MB) is over before the typing starts: the burst alone is measured.
        const opened = performance.now();
        while (c.published.length === 0 && performance.now() < opened + 120_000)
          await new Promise((ok) => setTimeout(ok, 5));
        const openLintMs = performance.now() - opened;
        const h0 = performance.now();
        await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } });
        const firstHoverMs = performance.now() - h0;
        // 100 keystrokes, one per 5 ms (a fast typist is one per 50-100 ms).
        for (let v = 2; v <= 101; v++) {
          c.send({
            method: 'textDocument/didChange',
            params: {
              textDocument: { uri, version: v },
              contentChanges: [
                { range: { start: { line: 2, character: 14 }, end: { line: 2, character: 14 } }, text: 'b' },
              ],
            },
          });
          await new Promise((ok) => setTimeout(ok, 5));
        }
        const last = performance.now();
        await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } });
        const hoverMs = performance.now() - last;
        // The lint of the latest text publishes once the quiet period after the last keystroke has passed.
        const deadline = last + 60_000;
        while (!c.published.some((t) => t > last) && performance.now() < deadline)
          await new Promise((ok) => setTimeout(ok, 5));
        const after = c.published.find((t) => t > last);
        const diagMs = after === undefined ? NaN : after - last;
        const lints = (await c.request('tollgate/lintRuns', null)) as number;
        outcome = `open: first lint published in ${openLintMs.toFixed(0)} ms, hover ${firstHoverMs.toFixed(0)} ms; after the burst: hover ${hoverMs.toFixed(0)} ms and the last version's diagnostics ${diagMs.toFixed(0)} ms after the last keystroke; ${lints} lint run(s) for 101 versions`;
        await c.request('shutdown', null);
        c.send({ method: 'exit', params: null });
      } finally {
        child.stdin!.end();
        // A server that did not exit after `exit` is stopped (its CPU and memory are then not known).
        setTimeout(() => child.kill('SIGTERM'), 10_000).unref();
      }
    })();
  });
  return {
    attack: '100 edits of a 7 MB file in the language server',
    command: 'tollgate lsp --stdio',
    wallMs: r.wallMs,
    cpuMs: r.cpuMs,
    maxRssMb: r.maxRssMb,
    load: r.load,
    outcome,
  };
}

function get(port: number, path: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { Host: 'localhost' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${path}: no answer in 30 s`)));
    req.end();
  });
}

async function serveAttack(root: string): Promise<AttackRow> {
  const repo = buildHostileRepo();
  let outcome = '';
  try {
    const r = await run(repo.root, ['serve', '--base', 'serve', '--port', '0'], (child, printed) => {
      void (async () => {
        try {
          let port = 0;
          while (port === 0) {
            const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(printed());
            if (m) port = Number(m[1]);
            else await new Promise((ok) => setTimeout(ok, 50));
          }
          const parts: string[] = [];
          for (const p of ['/fifo.html', '/zero.txt', '/env.txt', '/procapp/environ', '/huge.bin']) {
            const a = await get(port, p);
            parts.push(`${p} ${a.status} in ${a.ms.toFixed(0)} ms`);
          }
          outcome = parts.join(', ');
        } finally {
          child.kill('SIGTERM');
        }
      })();
    });
    return {
      attack: 'serve: a FIFO, /dev/zero, /proc/self/environ and a 64 MiB file over HTTP',
      command: 'tollgate serve --base serve --port 0',
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      maxRssMb: r.maxRssMb,
      load: r.load,
      outcome,
    };
  } finally {
    rmSync(repo.root, { recursive: true, force: true });
    void root;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { json: { type: 'boolean', default: false }, only: { type: 'string' } },
  });
  const want = (name: string): boolean => values.only === undefined || values.only.split(',').includes(name);
  if (!existsSync(join(ROOT, 'dist', 'bundle'))) throw new Error('run npm run build first');
  const root = mkdtempSync(join(tmpdir(), 'tollgate-bench-security-'));
  const load = loadavg();
  try {
    const rows: AttackRow[] = want('lint') ? await cliAttacks(root) : [];
    if (want('report')) rows.push(await reportAttack(root));
    if (want('lsp')) rows.push(await lspAttack(root));
    if (want('serve')) rows.push(await serveAttack(root));
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ loadavg: load, rows }, null, 2)}\n`);
      return;
    }
    process.stdout.write(
      `load average at start: ${load.map((l) => l.toFixed(1)).join(', ')}; node ${process.version}\n\n`,
    );
    process.stdout.write('| attack | load | wall | CPU | max RSS | outcome |\n|---|---:|---:|---:|---:|---|\n');
    for (const r of rows)
      process.stdout.write(
        `| ${r.attack} | ${r.load.toFixed(1)} | ${(r.wallMs / 1000).toFixed(2)} s | ${(r.cpuMs / 1000).toFixed(2)} s | ${r.maxRssMb.toFixed(0)} MB | ${r.outcome.replace(/\|/g, '\\|')} |\n`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
