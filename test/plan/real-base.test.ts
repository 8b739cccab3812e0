/**
 * The real base of issue 17: Debian's stock conf/ (with a global RemoteIpFilter mapped after a global
 * HttpHeaderSecurityFilter: a lint finding that stops nothing) and 69 generated applications, fatal and
 * non-fatal mistakes mixed. test/fixtures/real-base/observed.json is what Tomcat 10.1 did with it
 * (scripts/observe-real-base.mjs boots it); plan, compile and serve are held to that table here, without Tomcat.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { compileBase } from '../../src/compile/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadBase } from '../../src/parser/index.js';
import { planBase } from '../../src/plan/index.js';
import { startContainer, type Container } from '../../src/server/container.js';

interface Observed {
  tomcat: string;
  started: number;
  refused: number;
  contexts: { app: string; context: string; status: number; servedBy: string | null; started: boolean }[];
}

const fixture = join(import.meta.dirname, '..', 'fixtures', 'real-base');
const baseDir = join(fixture, 'base');
const observed = JSON.parse(readFileSync(join(fixture, 'observed.json'), 'utf8')) as Observed;
const byPath = new Map(observed.contexts.map((c) => [c.context === '/' ? '' : c.context, c]));
const started = observed.contexts
  .filter((c) => c.started)
  .map((c) => (c.context === '/' ? '' : c.context))
  .sort();

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: 'localhost' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("a real base (Debian's stock conf/ plus 69 applications): plan, compile and serve run what Tomcat 10.1 runs", () => {
  const base = loadBase({ base: baseDir });

  it('the recorded table is the one Tomcat gave for every application of the base, both ways', () => {
    expect(observed.tomcat).toMatch(/^Apache Tomcat\/10\.1\./);
    expect(base.hosts.flatMap((h) => h.contexts.map((c) => c.path)).sort()).toEqual([...byPath.keys()].sort());
    expect([observed.started, observed.refused]).toEqual([54, 15]);
  });

  it('lint finds errors Tomcat starts with, among them the global RemoteIpFilter mapped after an address filter in conf/web.xml', () => {
    const errors = lintBase(base).diagnostics.filter((d) => d.severity === 'error');
    const global = errors.filter(
      (d) => d.ruleId === 'remote-ip-after-address-filter' && d.span.file === join(baseDir, 'conf', 'web.xml'),
    );
    expect(global.length).toBeGreaterThan(0);
  });

  it('the plan starts exactly the contexts Tomcat starts, and gives each refusal a file:line:column in the file to change', () => {
    const plan = planBase(base);
    expect(plan.server.state).toBe('starts');
    for (const c of plan.contexts) {
      const o = byPath.get(c.contextPath)!;
      expect(c.state, `${o.app}: Tomcat ${o.started ? 'started' : 'refused'} it`).toBe(
        o.started ? 'starts' : 'refused',
      );
      if (c.state === 'refused') {
        const d = c.reasons[0]!;
        expect(d.span.file.startsWith(join(baseDir, 'webapps', o.app) + '/'), `${o.app}: ${d.span.file}`).toBe(true);
        expect(d.span.line).toBeGreaterThan(0);
      }
    }
    expect(plan.plans.map((p) => p.contextPath).sort()).toEqual(started);
  });

  it('compile writes a module for every context Tomcat starts and none for the others, and exits 1 naming each refused one with file:line:column', async () => {
    const r = compileBase(base);
    expect(r.modules.map((m) => m.contextPath).sort()).toEqual(started);
    const out = mkdtempSync(join(tmpdir(), 'tollgate-real-base-'));
    try {
      let stdout = '';
      let stderr = '';
      const code = await main(['compile', '--base', baseDir, '--out', out], {
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
        cwd: fixture,
      });
      expect(code).toBe(1);
      expect(readdirSync(join(out, 'localhost')).filter((f) => f.endsWith('.mjs')).length).toBe(observed.started);
      expect(stdout).toContain(`${observed.started} module(s) written, ${observed.refused} context(s) skipped`);
      for (const o of observed.contexts.filter((c) => !c.started)) {
        expect(stderr).toMatch(
          new RegExp(
            `^tollgate compile: localhost${o.context}: Tomcat does not start it: base/webapps/${o.app}/\\S+:\\d+:\\d+: `,
            'm',
          ),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('serve', () => {
    let c: Container;
    beforeAll(async () => {
      c = await startContainer({ base: baseDir, port: 0 });
    });
    afterAll(async () => {
      await c?.stop();
    });

    it.each(observed.contexts.map((o) => [o.app, o] as const))('%s answers as Tomcat did', async (_app, o) => {
      const r = await get(c.port, `${o.context === '/' ? '' : o.context}/index.html`);
      const servedBy = r.status === 200 ? (/<p>([^<]*)<\/p>/.exec(r.body)?.[1] ?? null) : null;
      expect({ status: r.status, servedBy }).toEqual({ status: o.status, servedBy: o.servedBy });
    });
  });
});
