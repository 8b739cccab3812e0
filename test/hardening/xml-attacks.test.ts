/**
 * Hostile XML against the whole CLI (lint, chain, compile, serve), each run in a
 * child process so a hang, a crash or memory growth shows as such:
 * - external entities (general, parameter, external DTD subset) naming a canary
 *   FIFO and a loopback HTTP server: the FIFO is never opened (a reader would
 *   block until a writer comes, so a non-blocking open for writing succeeds
 *   exactly while someone has it open for reading, which is polled throughout)
 *   and the server sees no connection;
 * - billion laughs, a quadratic blowup, 100,000 levels of nesting (with and
 *   without a DOCTYPE) and a 50 MB file: each finishes with its diagnostic and
 *   a peak RSS under a fixed bound;
 * - a FIFO or a directory where a descriptor should be: refused, no hang.
 * The numbers these runs give are in docs/security.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../conformance/processes.js';
import { hostileShapes } from '../fuzz/hostile.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repo, 'bin', 'tollgate.js');
const preload = fileURLToPath(new URL('./maxrss.mjs', import.meta.url));
/** Peak RSS allowed for any run here: node and tollgate take 70-95 MB on an ordinary base. */
const RSS_BOUND_MB = 300;

const dirs: string[] = [];
function base(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-xml-attack-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'conf'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  maxRssMb: number;
  ms: number;
}

/** Runs the CLI; `during` is polled every 2 ms while it runs (for the FIFO check). */
function cli(args: string[], opts: { during?: () => void; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', preload, bin, ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const poll = opts.during ? setInterval(opts.during, 2) : null;
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      const rss = /TOLLGATE_MAXRSS_KB=(\d+)/.exec(stderr);
      resolve({
        code,
        signal,
        stdout,
        stderr,
        maxRssMb: rss ? Number(rss[1]) / 1024 : NaN,
        ms: performance.now() - started,
      });
    });
  });
}

interface Finding {
  ruleId: string;
  severity: number;
  message: string;
}
function findings(run: Run): Finding[] {
  const doc = JSON.parse(run.stdout) as { messages: Finding[] }[];
  return doc.flatMap((f) => f.messages);
}

const WEB_APP = 'xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"';

describe('external entities are never read', () => {
  let fifo = '';
  let opened = 0;
  let http: Server;
  let port = 0;
  const connections: Socket[] = [];
  const watchFifo = (): void => {
    try {
      // Succeeds only while a reader has the FIFO open; ENXIO otherwise.
      const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      opened++;
      closeSync(fd);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO') throw err;
    }
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-canary-'));
    dirs.push(dir);
    fifo = join(dir, 'canary');
    const mk = spawnSync('mkfifo', [fifo]);
    if (mk.status !== 0) throw new Error(`mkfifo failed: ${mk.stderr}`);
    http = createServer((s) => {
      connections.push(s);
      s.destroy();
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    port = (http.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => http.close(r));
  });

  const attacks = (): Record<string, string> => {
    const url = `http://127.0.0.1:${port}`;
    return {
      'general entity, file URL': `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x SYSTEM "file://${fifo}">]><web-app ${WEB_APP}><display-name>&x;</display-name></web-app>`,
      'general entity, plain path': `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x SYSTEM "${fifo}">]><web-app ${WEB_APP}><display-name>&x;</display-name></web-app>`,
      'general entity, loopback URL': `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x SYSTEM "${url}/general">]><web-app ${WEB_APP}><display-name>&x;</display-name></web-app>`,
      'parameter entity, loopback URL': `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY % p SYSTEM "${url}/parameter"> %p;]><web-app ${WEB_APP}/>`,
      'parameter entity, canary': `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY % p SYSTEM "file://${fifo}"> %p;]><web-app ${WEB_APP}/>`,
      'external DTD subset, loopback URL': `<?xml version="1.0"?><!DOCTYPE web-app SYSTEM "${url}/dtd"><web-app ${WEB_APP}/>`,
      'external DTD subset, canary': `<?xml version="1.0"?><!DOCTYPE web-app PUBLIC "-//x//y//EN" "${fifo}"><web-app ${WEB_APP}/>`,
      'unparsed entity with notation': `<?xml version="1.0"?><!DOCTYPE web-app [<!NOTATION n SYSTEM "${url}/n"><!ENTITY u SYSTEM "${url}/u" NDATA n>]><web-app ${WEB_APP}/>`,
    };
  };

  it('lint, chain and compile of web.xml, server.xml, tomcat-users.xml and context files open no canary and connect nowhere', async () => {
    const a = attacks();
    const files: Record<string, string> = {};
    let i = 0;
    for (const text of Object.values(a)) files[`webapps/app${i++}/WEB-INF/web.xml`] = text;
    files['conf/web.xml'] = a['general entity, file URL']!;
    files['conf/server.xml'] =
      `<?xml version="1.0"?><!DOCTYPE Server [<!ENTITY x SYSTEM "http://127.0.0.1:${port}/server">]><Server port="-1"><Service name="C"><Engine name="C" defaultHost="localhost"><Host name="localhost" appBase="webapps">&x;</Host></Engine></Service></Server>`;
    files['conf/tomcat-users.xml'] =
      `<?xml version="1.0"?><!DOCTYPE tomcat-users [<!ENTITY x SYSTEM "file://${fifo}">]><tomcat-users>&x;</tomcat-users>`;
    files['conf/Catalina/localhost/ctx.xml'] =
      `<?xml version="1.0"?><!DOCTYPE Context SYSTEM "http://127.0.0.1:${port}/context"><Context docBase="${fifo}"/>`;
    const dir = base(files);
    const out = join(dir, 'out');
    const runs = [
      await cli(['lint', dir, '--format', 'json'], { during: watchFifo }),
      await cli(['chain', '--base', dir, '--path', '/app0/x'], { during: watchFifo }),
      await cli(['compile', '--base', dir, '--out', out], { during: watchFifo }),
    ];
    for (const r of runs) {
      expect(r.signal, r.stderr).toBeNull();
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(opened).toBe(0);
    expect(connections.length).toBe(0);
    const lint = findings(runs[0]!);
    // Every descriptor is refused as Tomcat refuses it, and the file-level external entities are named.
    expect(lint.filter((f) => f.ruleId === 'xml-external-entity').length).toBeGreaterThanOrEqual(4);
    expect(runs[0]!.code).toBe(1);
  });

  it('serve starts on such a base, answers, and still never opens the canary or connects', async () => {
    const a = attacks();
    const files: Record<string, string> = { 'webapps/ROOT/index.html': 'root' };
    let i = 0;
    for (const text of Object.values(a)) files[`webapps/app${i++}/WEB-INF/web.xml`] = text;
    const dir = base(files);
    const listen = await freePort();
    const child = spawn(process.execPath, [bin, 'serve', '--base', dir, '--port', String(listen)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      child.stdout.on('data', (d) => (log += d));
      child.stderr.on('data', (d) => (log += d));
      const poll = setInterval(watchFifo, 2);
      const deadline = Date.now() + 120_000;
      while (!log.includes('listening on') && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 20));
      expect(log).toContain('listening on');
      const root = await fetch(`http://127.0.0.1:${listen}/`);
      expect(root.status).toBe(200);
      // The refused applications are not started: their paths fall to ROOT, which has no such file.
      expect((await fetch(`http://127.0.0.1:${listen}/app0/`)).status).toBe(404);
      clearInterval(poll);
      expect(opened).toBe(0);
      expect(connections.length).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('serve with hostile descriptors (issue 25: a 5,000-deep namespaced web.xml kept serve from listening for 27 s)', () => {
  it('listens, with webapps of the hostile parser shapes of test/fuzz/hostile.ts, and answers', async () => {
    const shapes = [
      'ns-nested-8mib-saxes',
      'ns-nested-8mib',
      'entities-300k',
      'entity-chain-200k',
      'siblings-1m-saxes',
      'prefixed-attributes-100k-saxes',
    ];
    const files: Record<string, string> = { 'webapps/ROOT/index.html': 'root' };
    for (const shape of hostileShapes().filter((h) => shapes.includes(h.name)))
      files[`webapps/${shape.name}/WEB-INF/web.xml`] = shape.make();
    const dir = base(files);
    const listen = await freePort();
    const started = Date.now();
    const child = spawn(process.execPath, [bin, 'serve', '--base', dir, '--port', String(listen)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      child.stdout.on('data', (d) => (log += d));
      child.stderr.on('data', (d) => (log += d));
      // Six 4-8 MiB descriptors, each parsed in under a second of CPU (bench/hostile.ts); generous for a loaded machine.
      const deadline = started + 240_000;
      while (!log.includes('listening on') && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 20));
      expect(log).toContain('listening on');
      expect((await fetch(`http://127.0.0.1:${listen}/`)).status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('entity expansion, nesting and size attacks finish fast with a diagnostic and bounded memory', () => {
  const laughs = (() => {
    let dtd = '<!ENTITY l0 "lol">';
    for (let i = 1; i <= 9; i++) dtd += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
    return `<?xml version="1.0"?><!DOCTYPE web-app [${dtd}]><web-app ${WEB_APP}><display-name>&l9;</display-name></web-app>`;
  })();
  const quadratic = `<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x "${'a'.repeat(50_000)}">]><web-app ${WEB_APP}><display-name>${'&x;'.repeat(50_000)}</display-name></web-app>`;
  const deep = (doctype: string): string =>
    `<?xml version="1.0"?>${doctype}<web-app ${WEB_APP}>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</web-app>`;
  const filters = (bytes: number): string => {
    const parts = [`<?xml version="1.0"?><web-app ${WEB_APP}>\n`];
    let size = parts[0]!.length;
    for (let i = 0; size < bytes; i++) {
      const f = `<filter><filter-name>f${i}</filter-name><filter-class>org.apache.catalina.filters.CorsFilter</filter-class></filter><filter-mapping><filter-name>f${i}</filter-name><url-pattern>/x${i}/*</url-pattern></filter-mapping>\n`;
      parts.push(f);
      size += f.length;
    }
    parts.push('</web-app>\n');
    return parts.join('');
  };

  const cases: [string, () => string, string, RegExp][] = [
    ['billion laughs (10^9 expansions in 1 KB)', () => laughs, 'xml-entity-expansion', /64000 entity expansions/],
    [
      'quadratic blowup (50,000 references to a 50,000-character entity)',
      () => quadratic,
      'xml-entity-expansion',
      /JAXP00010004/,
    ],
    ['100,000 levels of nesting', () => deep(''), 'xml-deep-nesting', /10000 levels/],
    [
      '100,000 levels of nesting behind a DOCTYPE (the parser path that resolved namespaces per open tag)',
      () => deep('<!DOCTYPE web-app>'),
      'xml-deep-nesting',
      /10000 levels/,
    ],
    ['a 50 MB descriptor of 236,000 filters', () => filters(50 * 1024 * 1024), 'file-too-large', /8\.0 MiB/],
  ];
  for (const [name, make, ruleId, message] of cases) {
    it(name, async () => {
      const dir = base({ 'webapps/app/WEB-INF/web.xml': make() });
      const r = await cli(['lint', dir, '--format', 'json']);
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code).toBe(1);
      const hit = findings(r).filter((f) => f.ruleId === ruleId && f.severity === 2);
      expect(hit.length, JSON.stringify(findings(r).slice(0, 3))).toBeGreaterThan(0);
      expect(hit[0]!.message).toMatch(message);
      expect(r.maxRssMb).toBeLessThan(RSS_BOUND_MB);
    });
  }

  it('a FIFO or a directory in place of web.xml is refused without blocking', async () => {
    const dir = base({ 'webapps/b/WEB-INF/web.xml/x': 'x' });
    mkdirSync(join(dir, 'webapps', 'a', 'WEB-INF'), { recursive: true });
    expect(spawnSync('mkfifo', [join(dir, 'webapps', 'a', 'WEB-INF', 'web.xml')]).status).toBe(0);
    const r = await cli(['lint', dir, '--format', 'json'], { timeoutMs: 120_000 });
    expect(r.signal, 'killed: the FIFO blocked the read').toBeNull();
    const unreadable = findings(r).filter((f) => f.ruleId === 'file-unreadable');
    expect(unreadable.map((f) => f.message).join('\n')).toMatch(/not a regular file/);
    expect(unreadable.map((f) => f.message).join('\n')).toMatch(/directory/);
  });
});
