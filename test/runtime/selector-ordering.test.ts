/**
 * The runtime's chain selector (what compiled modules and `tollgate serve`
 * run) against the orders real Tomcat 10.1 produced for every scenario under
 * test/fixtures/ordering: the same expectations test/chain/ordering.test.ts
 * holds the chain stage to, so the two cannot drift.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findContext, mergedOf, selectorTableOf } from '../../src/chain/index.js';
import type { Dispatcher } from '../../src/model/index.js';
import { loadBase } from '../../src/parser/index.js';
import { createChainSelector } from '../../src/protocol/chain-selector.js';

interface Observed {
  scenario: string;
  failedContexts: { context: string }[];
  requests: { host: string; path: string; order: string[]; dispatches: { dispatcher: Dispatcher; path: string }[] }[];
}

const root = join(import.meta.dirname, '..', 'fixtures', 'ordering');
const scenarios = readdirSync(root)
  .filter((d) => existsSync(join(root, d, 'observed.json')))
  .sort();

describe('the runtime selector runs the filters real Tomcat ran', () => {
  for (const scenario of scenarios) {
    const observed = JSON.parse(readFileSync(join(root, scenario, 'observed.json'), 'utf8')) as Observed;
    const base = loadBase({ base: join(root, scenario) });
    for (const r of observed.requests) {
      // Includes and forwards a servlet makes are not requests the selector sees: those are checked in test/chain.
      const dispatched = new Set(r.dispatches.map((d) => d.dispatcher));
      if (r.order.length === 0 || r.order.some((o) => !dispatched.has(o.slice(o.lastIndexOf('@') + 1) as Dispatcher)))
        continue;
      it(`${scenario}: ${r.host} ${r.path}`, () => {
        const match = findContext(base, r.host, r.path);
        expect(match).not.toBeNull();
        const { host, context } = match as unknown as {
          host: Parameters<typeof mergedOf>[1];
          context: Parameters<typeof mergedOf>[2];
        };
        const merged = mergedOf(base, host, context);
        const { filters, table } = selectorTableOf(merged);
        const select = createChainSelector(table, { exists: (p) => existsSync(join(context.docBase, p)) });
        const got: string[] = [];
        for (const d of r.dispatches) {
          for (const i of select(d.path, d.dispatcher).chain) got.push(`${filters[i]!.name}@${d.dispatcher}`);
        }
        expect(got).toEqual(r.order.map((o) => o.replace(/\[[^\]]*\]/, '')));
      });
    }
  }
});
