/**
 * Chain order, live: every scenario under test/fixtures/ordering runs on real
 * Tomcat 10.1 with the probe filters (test/tomcat-observe/*.java, compiled
 * here with javac against servlet-api.jar; each appends its name to
 * X-Probe-Order). `tollgate serve` cannot run a Java probe (a context with a
 * filter it has no Node implementation for is not started), so the tollgate
 * side of each step is the plan it runs: effectiveChain, the same merge and
 * selection `tollgate chain` prints and the compiler turns into the selector
 * table. Each step compares Tomcat's X-Probe-Order for one request with
 * tollgate's chain for it, and with observed.json (the snapshot the unit
 * tests in test/chain/ordering.test.ts hold tollgate to), so a Tomcat update
 * that changes an order is caught too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { effectiveChain, findContext, findHost, type ChainEntry } from '../../src/chain/index.js';
import type { Dispatcher, Param } from '../../src/model/index.js';
import { loadBase } from '../../src/parser/index.js';
import { headerValues, recordStep, REPO, send, startTomcatOnly, type Side } from './harness.js';

interface ObservedRequest {
  host: string;
  path: string;
  status: number;
  order: string[];
}
const root = join(REPO, 'test', 'fixtures', 'ordering');
const probes = join(REPO, 'test', 'tomcat-observe');
const scenarios = readdirSync(root)
  .filter((d) => existsSync(join(root, d, 'observed.json')))
  .sort();

function label(e: ChainEntry, dispatcher: Dispatcher): string {
  const kv = e.filter.initParams.map((p: Param) => `${p.name.value}=${p.value.value}`).sort();
  return `${kv.length ? `${e.filter.name}[${kv.join(',')}]` : e.filter.name}@${dispatcher}`;
}

let running: (Side & { stop(): Promise<void> }) | null = null;
afterAll(async () => {
  await running?.stop();
});

it('has the scenarios', () => {
  expect(scenarios.length).toBeGreaterThanOrEqual(15);
});

for (const scenario of scenarios) {
  const dir = join(root, scenario);
  const observed = JSON.parse(readFileSync(join(dir, 'observed.json'), 'utf8')) as {
    failedContexts: { context: string }[];
    requests: ObservedRequest[];
  };
  describe(scenario, () => {
    it('Tomcat runs the chains tollgate computes', async () => {
      running = await startTomcatOnly(dir, { javaSources: probes });
      try {
        const base = loadBase({ base: dir });
        const failed = new Set(observed.failedContexts.map((f) => f.context));
        for (const r of observed.requests) {
          const res = await send(running, { path: r.path, host: r.host });
          const included = headerValues(res, 'x-probe-included').map((e) => e.slice(0, e.indexOf(' ')));
          const live = [...headerValues(res, 'x-probe-order'), ...included];
          recordStep('ordering (chain plan)', `${scenario}: ${r.host} ${r.path}`);
          expect(
            { status: res.status, order: live },
            `${scenario} ${r.host} ${r.path}: live Tomcat against observed.json`,
          ).toEqual({ status: r.status, order: r.order });
          const uri = decodeURIComponent(r.path);
          const match = findContext(base, r.host, uri);
          const host = findHost(base, r.host)!;
          const named = findContext(host, uri);
          if (!match || failed.has(match.context.path || '/') || (named && failed.has(named.path || '/'))) continue;
          const ctxDir = match.context.docBase;
          if (existsSync(join(ctxDir, 'WEB-INF', 'tomcat-web.xml'))) continue;
          const exists = (p: string): boolean => existsSync(join(ctxDir, p)) && !p.endsWith('/');
          const plan = effectiveChain(match.merged, match.path, 'REQUEST', exists).entries.map((e) =>
            label(e, 'REQUEST'),
          );
          expect(plan, `${scenario} ${r.host} ${r.path}: tollgate's chain against live Tomcat (REQUEST)`).toEqual(
            live.filter((l) => l.endsWith('@REQUEST')),
          );
        }
      } finally {
        await running.stop();
        running = null;
      }
    });
  });
}
