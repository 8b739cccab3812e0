/**
 * Every rule's failing fixtures on real Tomcat 10.1, recorded again (test/conformance/rule-observe.ts,
 * all fixtures in about 25 Tomcat runs) and held to the committed recordings
 * (test/fixtures/tomcat-observed/rules.json, which the rule pages show) and to tollgate's verdict:
 * a rule whose effect is `refuses` finds a server, context or connector Tomcat did not start, any
 * other a server and contexts it started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failFixtures } from './rule-fixtures.js';
import { observeAll, type FixtureObservation } from './rule-observe.js';
import { disagreement, readRecordings, verdictsOf } from './rule-verdicts.js';
import { recordStep } from './harness.js';

const fixtures = failFixtures();
const committed = readRecordings();
const fresh = new Map<string, FixtureObservation>();

/** What must be the same on every run: start-up, the lines logged, the answers. */
const comparable = (o: FixtureObservation) => ({
  server: o.server,
  serverLog: o.serverLog,
  contexts: o.contexts,
  probes: o.probes.map((p) => ({ request: p.request, status: p.status, headers: p.headers, log: p.log })),
});

describe("every rule's failing fixture on Tomcat 10.1, again", () => {
  beforeAll(async () => {
    for (const o of await observeAll(fixtures, { parallel: 2 })) fresh.set(`${o.rule}/${o.n}`, o);
  }, 900_000);
  afterAll(() => fresh.clear());

  it.each(fixtures.map((f) => [`${f.rule}/${f.n}`, f] as const))('%s', (key, f) => {
    recordStep('rules-observed', key);
    const now = fresh.get(key)!;
    const then = committed.fixtures.find((o) => `${o.rule}/${o.n}` === key);
    expect(then, `no committed recording: npx tsx scripts/observe-rules.ts --only ${f.rule}`).toBeDefined();
    expect(comparable(now)).toEqual(comparable(then!));
    if (!f.target) expect(disagreement(verdictsOf(f), now)).toBeNull();
  });
});
