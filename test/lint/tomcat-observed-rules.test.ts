import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, ruleById } from '../../src/lint/rules/index.js';
import { failFixtures, fixtureHash, NOT_DEPLOYED } from '../conformance/rule-fixtures.js';
import { disagreement, observedBlock, readRecordings, verdictsOf } from '../conformance/rule-verdicts.js';

/**
 * Every rule's failing fixtures as recorded on real Tomcat 10.1 (test/fixtures/tomcat-observed/rules.json,
 * by scripts/observe-rules.ts; npm run conformance records them again): the recordings are of today's
 * fixtures, tollgate's verdict on each agrees with what Tomcat did, and each rule page shows them.
 */
const rec = readRecordings();
const fixtures = failFixtures();
const recorded = new Map(rec.fixtures.map((o) => [`${o.rule}/${o.n}`, o]));
const RERUN = (id: string) =>
  `record it with: npx tsx scripts/observe-rules.ts --only ${id} && npx tsx scripts/severity-doc.ts --rules`;

describe("what Tomcat 10.1 did with every rule's failing fixture", () => {
  it('was recorded on a Tomcat 10.1, with the date', () => {
    expect(rec.tomcat).toMatch(/^Apache Tomcat\/10\.1\.\d+/);
    expect(rec.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('every rule but base-unreadable (a CLI usage error) and those NOT_DEPLOYED names (each with its reason) has failing fixtures, and every fixture a recording of its current files', () => {
    const withFixtures = new Set(fixtures.map((f) => f.rule));
    expect(
      RULES.map((r) => r.meta.id).filter(
        (id) => !withFixtures.has(id) && id !== 'base-unreadable' && !NOT_DEPLOYED.has(id),
      ),
    ).toEqual([]);
    for (const [id, why] of NOT_DEPLOYED) expect(ruleById(id) && why.length > 40, id).toBe(true);
    const stale = fixtures
      .filter((f) => recorded.get(`${f.rule}/${f.n}`)?.hash !== fixtureHash(f))
      .map((f) => `${f.rule}/${f.n}: ${RERUN(f.rule)}`);
    expect(stale).toEqual([]);
    const gone = rec.fixtures
      .filter((o) => !fixtures.some((f) => f.rule === o.rule && f.n === o.n))
      .map((o) => `${o.rule}/${o.n}`);
    expect(gone).toEqual([]);
  });

  for (const f of fixtures) {
    // The rules about Tomcat 11.0 (--target 11.0) are recorded on 10.1 for their pages, not judged by it.
    if (f.target) continue;
    it(`${f.rule} (fixture ${f.n + 1}): tollgate's verdict is what Tomcat did`, () => {
      const o = recorded.get(`${f.rule}/${f.n}`);
      expect(o, RERUN(f.rule)).toBeDefined();
      expect(disagreement(verdictsOf(f), o!)).toBeNull();
    });
  }

  it('every rule page shows what was observed (npx tsx scripts/severity-doc.ts --rules writes it)', () => {
    const drifted = RULES.map((r) => r.meta.id).filter(
      (id) =>
        !readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules', `${id}.md`), 'utf8').includes(
          observedBlock(id, rec),
        ),
    );
    expect(drifted).toEqual([]);
  });

  it("a rule about tollgate's own reading says it is not a statement about Tomcat", () => {
    const id = RULES.find((r) => r.meta.effect === 'tollgate')!.meta.id;
    expect(ruleById(id)!.meta.effect).toBe('tollgate');
    expect(observedBlock(id, rec)).toContain('Not a statement about Tomcat');
  });
});
