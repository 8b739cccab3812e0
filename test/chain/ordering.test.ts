import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveChain, findContext, findHost, mergedOf, type ChainEntry, type MergedWebApp } from '../../src/chain/index.js';
import type { Dispatcher } from '../../src/model/index.js';
import { loadBase } from '../../src/parser/index.js';

/** Orders observed on real Tomcat 10.1 by test/tomcat/observe-ordering.ts with a probe filter. */
const dir = join(import.meta.dirname, '..', 'fixtures', 'ordering');
const observed = JSON.parse(readFileSync(join(dir, 'observed.json'), 'utf8')) as {
  tomcat: string;
  results: { host: string; path: string; status: number; order: string[]; errorPage?: string }[];
};
const base = loadBase({ base: join(dir, 'base') });

function label(e: ChainEntry, dispatcher: Dispatcher): string {
  const probe = e.filter.initParams.find((p) => p.name.value === 'probe');
  return `${e.filter.name}${probe ? `=${probe.value.value}` : ''}@${dispatcher}`;
}

function contextFails(merged: MergedWebApp): boolean {
  return merged.diagnostics.some((d) => d.severity === 'error');
}

describe(`filter order as observed on ${observed.tomcat}`, () => {
  it('covers at least 15 scenarios', () => {
    expect(new Set(observed.results.map((r) => r.path.split('/')[1])).size).toBeGreaterThanOrEqual(15);
  });

  for (const r of observed.results) {
    it(`${r.host} ${r.path} runs ${r.order.join(', ') || 'nothing (context not started)'}`, () => {
      const host = findHost(base, r.host)!;
      const ctx = findContext(host, r.path)!;
      const merged = mergedOf(base, host, ctx);
      if (r.status === 404 && r.order.length === 0) {
        expect(contextFails(merged)).toBe(true);
        return;
      }
      expect(contextFails(merged)).toBe(false);
      const inContext = r.path.slice(ctx.path.length) || '/';
      const exists = (p: string): boolean => existsSync(join(ctx.docBase, p));
      const got = effectiveChain(merged, inContext, 'REQUEST', exists).entries.map((e) => label(e, 'REQUEST'));
      if (r.errorPage) got.push(...effectiveChain(merged, r.errorPage, 'ERROR', exists).entries.map((e) => label(e, 'ERROR')));
      expect(got).toEqual(r.order);
    });
  }
});
