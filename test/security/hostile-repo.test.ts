/**
 * The attacks of issue 33 as tests (docs/security.md): every command over a hostile repository built at
 * run time. Nothing of a file outside the base, nor of the process environment, reaches any output;
 * no raw control character or bidi override reaches one either; each command ends (a FIFO, /dev/zero
 * and a zip bomb included) within a CPU-time bound and under 200 MB of memory (measured in the child by
 * process.resourceUsage). Wall-clock figures belong in bench/security.ts, not here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostileRepo, HUGE_STATIC_BYTES, type HostileRepo } from './corpus.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'tollgate.js');
const PRELOAD = join(import.meta.dirname, 'rusage.mjs');
/** The memory bound of issue 33, and a CPU bound far over what any command takes (a hang burns none: see `ended`). */
const MAX_RSS_MIB = 200;
const MAX_CPU_S = 60;

let repo: HostileRepo;
let scratch: string;
beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'bundle')), 'run npm run build first').toBe(true);
  repo = buildHostileRepo();
  scratch = mkdtempSync(join(tmpdir(), 'tollgate-hostile-out-'));
});
afterAll(() => {
  if (repo) rmSync(repo.root, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  rssMiB: number;
  cpuS: number;
}

let runs = 0;
/**
 * Runs the built CLI with the env canary set; `input` goes to its stdin. A command that never ends fails the
 * test by the test's own timeout. `started` sees the child and what it printed so far, as it prints.
 */
function cli(
  args: string[],
  input?: Buffer,
  started?: (child: ChildProcess, printed: () => string) => void,
): Promise<Run> {
  const usage = join(scratch, `rusage-${runs++}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...args], {
      cwd: repo.root,
      env: { ...process.env, TOLLGATE_CANARY: repo.envCanary, TOLLGATE_RUSAGE_OUT: usage, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    if (started) started(child, () => Buffer.concat(chunks).toString('utf8'));
    else child.stdin.end(input ?? Buffer.alloc(0));
    child.on('close', (code, signal) => {
      const u = existsSync(usage)
        ? (JSON.parse(readFileSync(usage, 'utf8')) as { maxRssKiB: number; cpuMicros: number })
        : { maxRssKiB: Infinity, cpuMicros: Infinity };
      resolve({
        code,
        signal,
        out: Buffer.concat(chunks).toString('utf8'),
        rssMiB: u.maxRssKiB / 1024,
        cpuS: u.cpuMicros / 1e6,
      });
    });
  });
}

function clean(what: string, text: string): void {
  expect(text.includes(repo.fileCanary), `${what}: a file outside the base reached the output`).toBe(false);
  expect(text.includes(repo.envCanary), `${what}: the environment reached the output`).toBe(false);
  const raw = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(text);
  expect(
    raw ? `U+${raw[0].charCodeAt(0).toString(16)} at ${raw.index}` : null,
    `${what}: a raw control character`,
  ).toBe(null);
}

function bounded(what: string, r: Run, maxRssMiB = MAX_RSS_MIB): void {
  expect(r.signal, `${what} was killed`).toBe(null);
  expect(r.out, `${what} crashed`).not.toMatch(/internal error|Invalid string length|heap out of memory/);
  expect(r.rssMiB, `${what}: peak memory in MiB`).toBeLessThan(maxRssMiB);
  expect(r.cpuS, `${what}: CPU seconds`).toBeLessThan(MAX_CPU_S);
}

describe('a hostile repository (links out of the base, /proc, devices, FIFOs, loops, zip bombs, huge and deep files, control characters)', () => {
  for (const format of ['stylish', 'json', 'sarif', 'github']) {
    it(`lint --profile cis -f ${format} reads nothing outside the base and ends bounded`, async () => {
      const r = await cli(['lint', 'base', '--profile', 'cis', '-f', format, '--workers', '0']);
      bounded(`lint -f ${format}`, r);
      expect(r.code).toBe(1);
      clean(`lint -f ${format}`, r.out);
      // What was not read is said, and why.
      expect(r.out).toMatch(/kernel or device file/);
      expect(r.out).toMatch(/outside the base/);
      expect(r.out).toMatch(/not a regular file/);
      expect(r.out).toMatch(/inflates past the 100 bytes it declares/);
    }, 300_000);
  }

  it('lint echoes hostile values in every format escaped (json and sarif as \\u escapes, the same values to a parser)', async () => {
    for (const format of ['stylish', 'json', 'sarif', 'github']) {
      const r = await cli(['lint', 'audit', '-f', format, '--workers', '0']);
      bounded(`lint audit -f ${format}`, r);
      clean(`lint audit -f ${format}`, r.out);
      // The messages do quote the values: the check above is not vacuous.
      expect(r.out, format).toMatch(/pwned/);
      if (format === 'json') {
        const parsed = JSON.stringify(JSON.parse(r.out));
        expect(parsed).toContain('\u202e');
      }
    }
  }, 300_000);

  it('lint with worker threads reads nothing outside the base either', async () => {
    const r = await cli(['lint', 'base', '-f', 'json', '--workers', '2']);
    bounded('lint --workers 2', r);
    clean('lint --workers 2', r.out);
  }, 300_000);

  for (const [benchmark, format] of [
    ['cis-tomcat-10.1', 'html'],
    ['stig-tomcat', 'text'],
  ] as const) {
    it(`audit --benchmark ${benchmark} -f ${format} ends bounded with nothing from outside`, async () => {
      const r = await cli(['audit', 'base', '--benchmark', benchmark, '-f', format]);
      bounded(`audit ${benchmark}`, r);
      clean(`audit ${benchmark}`, r.out);
    }, 300_000);
  }

  it('report --benchmark writes a page with nothing from outside', async () => {
    const out = join(scratch, 'report.html');
    const r = await cli(['report', 'base', '--benchmark', 'cis-tomcat-10.1', '--out', out]);
    bounded('report', r);
    expect(r.code).toBe(0);
    clean('report stdout', r.out);
    clean('report page', readFileSync(out, 'utf8'));
  }, 300_000);

  it('report of a 3 MB one-line web.xml with thousands of findings is a page of bounded size', async () => {
    const out = join(scratch, 'big.html');
    // The base itself is ~10,000 filters: its model, plan and chains are what take the memory, not the page.
    const r = await cli(['report', 'big', '--out', out]);
    bounded('report of the 3 MB line', r, 2 * MAX_RSS_MIB);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    // At most 200 findings per file are shown, each frame cut to 120 characters around its span.
    expect(html).toMatch(/more findings? in this file not shown/);
    expect(html.length).toBeLessThan(12 * 1024 * 1024);
  }, 300_000);

  it('serve answers every hostile path over HTTP without a byte from outside, without hanging, and stops', async () => {
    let port = 0;
    const answers: { path: string; status: number; text: string; bytes: number }[] = [];
    let failure: unknown = null;
    const r = await cli(
      ['serve', '--base', 'serve', '--port', '0', '--address', '127.0.0.1'],
      undefined,
      (child, printed) => {
        void (async () => {
          try {
            for (;;) {
              const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(printed());
              if (m) {
                port = Number(m[1]);
                break;
              }
              if (child.exitCode !== null) throw new Error(`serve ended before listening:\n${printed()}`);
              await new Promise((ok) => setTimeout(ok, 100));
            }
            // One after another: a FIFO or a device that blocked the server would leave the next request unanswered.
            for (const { path } of repo.requests) answers.push({ path, ...(await get(port, path)) });
            // And all at once, twice over (the second round from the cache).
            for (let round = 0; round < 2; round++) {
              const all = await Promise.all(repo.requests.map(({ path }) => get(port, path)));
              all.forEach((a, i) => answers.push({ path: repo.requests[i]!.path, ...a }));
            }
          } catch (err) {
            failure = err;
          } finally {
            child.kill('SIGTERM');
          }
        })();
      },
    );
    expect(failure).toBe(null);
    bounded('serve', r);
    clean('serve output', r.out);
    expect(r.out).toMatch(/tollgate serve: stopped/);
    expect(answers).toHaveLength(3 * repo.requests.length);
    for (const a of answers) {
      const want = repo.requests.find((q) => q.path === a.path)!.status;
      expect({ path: a.path, status: a.status }).toEqual({ path: a.path, status: want });
      expect(a.text.includes(repo.fileCanary), `GET ${a.path}: a file outside the base was served`).toBe(false);
      expect(a.text.includes(repo.envCanary), `GET ${a.path}: the environment was served`).toBe(false);
      if (a.path === '/huge.bin') expect(a.bytes).toBe(HUGE_STATIC_BYTES);
      else if (a.status !== 200) clean(`GET ${a.path}`, a.text);
    }
  }, 300_000);

  for (const benchmark of ['cis-tomcat-10.1', 'stig-tomcat'] as const) {
    it(`audit --benchmark ${benchmark} exports every format of a hostile base with nothing from outside`, async () => {
      const etc = join(scratch, 'etc');
      for (const format of ['text', 'json', 'html', 'hdf', 'xccdf', 'ckl']) {
        const r = await cli([
          'audit',
          'audit',
          '--benchmark',
          benchmark,
          '-f',
          format,
          '--etc',
          etc,
          '--date',
          '2026-01-01',
        ]);
        bounded(`audit ${benchmark} -f ${format}`, r);
        // The audit ran (0 or 1: controls failed), not refused the base (2).
        expect(r.code, `audit ${benchmark} -f ${format}: ${r.out.slice(0, 500)}`).toBeLessThan(2);
        clean(`audit ${benchmark} -f ${format}`, r.out);
        // The hostile values reach the export, escaped.
        if (format !== 'hdf' && format !== 'xccdf' && format !== 'ckl')
          expect(r.out).toMatch(/\\u202e|&#x202e;|\\u202E/i);
      }
    }, 300_000);
  }

  it('a packed WAR or a binary named on the command line gets one line, and a conf/ folder a hint', async () => {
    const war = await cli(['lint', join('base', 'webapps', 'packed.war')]);
    expect(war.code).toBe(2);
    expect(war.out.trim().split('\n')).toHaveLength(1);
    expect(war.out).toMatch(/packed web application archive.*unpack it/);
    const jar = await cli(['lint', join('base', 'lib', 'catalina.jar')]);
    expect(jar.code).toBe(2);
    expect(jar.out).toMatch(/is an archive, not a configuration file/);
    const conf = await cli(['lint', join('base', 'conf')]);
    expect(conf.code).toBe(2);
    expect(conf.out).toMatch(/looks like a conf\/ folder; lint the CATALINA_BASE that holds it/);
    const dev = await cli(['lint', join('base', 'conf', 'Catalina', 'localhost', 'zero.xml')]);
    expect(dev.code).toBe(2);
    expect(dev.out).toMatch(/kernel or device file/);
  }, 300_000);

  it('the language server answers over the same files with nothing from outside, and closes on a malformed frame', async () => {
    const frame = (msg: object): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...msg });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const uri = (rel: string): string => `file://${join(repo.base, rel)}`;
    const open = (rel: string) =>
      frame({
        method: 'textDocument/didOpen',
        params: {
          textDocument: {
            uri: uri(rel),
            languageId: 'xml',
            version: 1,
            text: readFileSync(join(repo.base, rel), 'utf8'),
          },
        },
      });
    const auditWebXml = join(
      repo.root,
      'audit',
      'webapps',
      readdirSync(join(repo.root, 'audit', 'webapps'))[0]!,
      'WEB-INF',
      'web.xml',
    );
    const openAt = (file: string) =>
      frame({
        method: 'textDocument/didOpen',
        params: {
          textDocument: { uri: `file://${file}`, languageId: 'xml', version: 1, text: readFileSync(file, 'utf8') },
        },
      });
    const hoverAt = (id: number, file: string, line: number, character: number) =>
      frame({
        id,
        method: 'textDocument/hover',
        params: { textDocument: { uri: `file://${file}` }, position: { line, character } },
      });
    const hover = (id: number, rel: string) =>
      frame({
        id,
        method: 'textDocument/hover',
        params: { textDocument: { uri: uri(rel) }, position: { line: 0, character: 200 } },
      });
    const input = [
      frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }),
      frame({ method: 'initialized', params: {} }),
      open('conf/server.xml'),
      open('webapps/controls/WEB-INF/web.xml'),
      hover(2, 'webapps/controls/WEB-INF/web.xml'),
      openAt(auditWebXml),
      hoverAt(3, auditWebXml, 0, 90),
      hoverAt(4, auditWebXml, 0, 120),
      // A header without Content-Length: the server says so and closes, it does not stay deaf.
      'X-Junk: 1\r\n\r\n{}',
    ].join('');
    const r = await cli(['lsp', '--stdio'], Buffer.from(input));
    bounded('lsp', r);
    clean('lsp', r.out.replace(/"[^"]*malformed message[^"]*"/g, ''));
    expect(r.out).toMatch(
      /malformed message from the client \(Header must provide a Content-Length property\.\): closing the connection/,
    );
    expect(r.code).toBe(1);
  }, 300_000);
});

/** What 127.0.0.1:`port` answers to GET `path`: the status, the head and at most 1 MiB of the body as text, and the body's length. */
function get(port: number, path: string): Promise<{ status: number; text: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { Host: 'localhost' } }, (res) => {
      const kept: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (bytes < 1024 * 1024) kept.push(c);
        bytes += c.length;
      });
      res.on('end', () => {
        const head = Object.entries(res.headers)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n');
        resolve({ status: res.statusCode ?? 0, text: `${head}\n\n${Buffer.concat(kept).toString('utf8')}`, bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    // Far over any answer on a loaded machine: only a request the server never answers reaches it.
    req.setTimeout(120_000, () => req.destroy(new Error(`GET ${path}: no answer`)));
    req.end();
  });
}
