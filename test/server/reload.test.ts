/**
 * SIGHUP reloads of `tollgate serve` (the built CLI as a real process, on
 * 127.0.0.1 and an ephemeral port), with one process and with `--workers 2`:
 * an application whose web.xml now has a fatal init-param keeps answering
 * with its previous chain and the log says why (file:line:column); once the
 * file is fixed, the next SIGHUP runs the new chain. The chain is seen in the
 * X-Frame-Options header its HttpHeaderSecurityFilter sets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort } from '../conformance/processes.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeBase, serverXml } from './harness.js';
import { waitFor } from './http.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'tollgate.js');

const running: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function shopWebXml(option: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>headers</filter-name>
    <filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class>
    <init-param><param-name>antiClickJackingOption</param-name><param-value>${option}</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>headers</filter-name><url-pattern>/*</url-pattern></filter-mapping>
</web-app>
`;
}

function shopBase(): { base: string; webXml: string } {
  const base = makeBase(serverXml());
  dirs.push(base);
  const app = join(base, 'webapps', 'shop');
  mkdirSync(join(app, 'WEB-INF'), { recursive: true });
  writeFileSync(join(app, 'index.html'), 'shop\n');
  const webXml = join(app, 'WEB-INF', 'web.xml');
  writeFileSync(webXml, shopWebXml('DENY'));
  return { base, webXml };
}

/** The Prometheus text of /metrics, on a connection of its own. */
function metrics(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Serve {
  child: ChildProcess;
  port: number;
  err(): string;
}

async function serve(base: string, args: string[]): Promise<Serve> {
  const child = spawn(process.execPath, [bin, 'serve', '--base', base, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1],
    120_000,
    () => `serve did not start:\n${out}\n${err}`,
  );
  return { child, port: Number(port), err: () => err };
}

/** The shop's status and X-Frame-Options, on a connection of its own (with workers, the next worker answers). */
function shop(port: number): Promise<{ status: number; frame: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/shop/index.html', agent: false, headers: { Host: 'localhost' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, frame: res.headers['x-frame-options'] as string | undefined }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends SIGHUP and waits for the reload's summary line number `n` (1-based). */
async function reload(s: Serve, n: number): Promise<void> {
  process.kill(s.child.pid!, 'SIGHUP');
  await waitFor(
    () => (s.err().match(/SIGHUP: reload done: /g) ?? []).length >= n,
    120_000,
    () => `no reload summary:\n${s.err()}`,
  );
}

describe.each([
  ['one process', [] as string[]],
  ['--workers 2', ['--workers', '2']],
])('SIGHUP with %s', (_name, args) => {
  it('keeps the previous chain of an application whose web.xml would now be refused, says why, and runs the fixed one', async () => {
    const { base, webXml } = shopBase();
    const ops = await freePort();
    const s = await serve(base, [...args, '--ops-port', String(ops)]);
    expect(await shop(s.port)).toEqual({ status: 200, frame: 'DENY' });

    // A fatal init-param: Tomcat would not start the application.
    writeFileSync(webXml, shopWebXml('BOGUS'));
    await reload(s, 1);
    expect(s.child.exitCode).toBeNull();
    for (let i = 0; i < 4; i++) expect(await shop(s.port)).toEqual({ status: 200, frame: 'DENY' });
    const line = s
      .err()
      .split('\n')
      .find((l) => l.includes('context [localhost/shop] would not start'));
    expect(line).toMatch(/^\S+Z SEVERE /);
    // The place of the fatal value: web.xml line 6, the column of its <param-value>.
    expect(line).toContain(`${webXml}:6:`);
    expect(line).toContain('BOGUS');
    expect(s.err()).toContain(
      'SIGHUP: reload done: 1 context(s) reloaded, 1 kept with their previous configuration, 0 failed',
    );

    // Fixed: the new chain runs.
    writeFileSync(webXml, shopWebXml('SAMEORIGIN'));
    await reload(s, 2);
    for (let i = 0; i < 4; i++) expect(await shop(s.port)).toEqual({ status: 200, frame: 'SAMEORIGIN' });
    expect(s.err()).toContain(
      'SIGHUP: reload done: 2 context(s) reloaded, 0 kept with their previous configuration, 0 failed',
    );
    // Every process that answers /metrics counts both reloads (a fresh worker counts the primary's).
    for (let i = 0; i < 2; i++) {
      const text = await metrics(ops);
      expect(text).toContain('tollgate_reloads_total{result="partial"} 1\n');
      expect(text).toContain('tollgate_reloads_total{result="reloaded"} 1\n');
    }
  });

  it('keeps running when server.xml is broken, with a SEVERE line naming the place', async () => {
    const { base } = shopBase();
    const ops = await freePort();
    const s = await serve(base, [...args, '--ops-port', String(ops)]);
    writeFileSync(join(base, 'conf', 'server.xml'), '<Server port="-1">\n  <Service>\n</Server>\n');
    process.kill(s.child.pid!, 'SIGHUP');
    const line = await waitFor(
      () =>
        s
          .err()
          .split('\n')
          .find((l) => l.includes('SIGHUP: Tomcat would not start')),
      60_000,
      () => `no SEVERE line:\n${s.err()}`,
    );
    expect(line).toMatch(/^\S+Z SEVERE /);
    expect(line).toContain(`${join(base, 'conf', 'server.xml')}:`);
    expect(s.child.exitCode).toBeNull();
    expect(await shop(s.port)).toEqual({ status: 200, frame: 'DENY' });
    if (args.length === 0) expect(await metrics(ops)).toContain('tollgate_reloads_total{result="refused"} 1\n');
  });
});
