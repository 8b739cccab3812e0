import { createHash } from 'node:crypto';
import type { Profile } from '../../src/lint/config.js';
import { RULES } from '../../src/lint/rules/index.js';
import { fixtureFiles, HARDENING_APP_CASE_IDS } from '../lint/hardening-app-cases.js';
import { baseFiles, CASES } from '../lint/hardening-cases.js';
import { MORE_FAILS, ON_TOMCAT_11, RULE_CASES, type Files } from '../lint/rule-cases.js';

/**
 * Every failing fixture of every rule, from the three places the lint tests keep them
 * (test/lint/rule-cases.ts, test/lint/hardening-cases.ts, test/fixtures/hardening/rules/<rule>/fail),
 * numbered per rule in that order, with the lint options its test lints it with.
 */
export interface FailFixture {
  rule: string;
  /** 0, 1, …: the rule's fixtures in the order above. */
  n: number;
  files: Files;
  profile?: Profile;
  target?: '11.0';
  /** Where the fixture is written, for the rule page and for people. */
  source: string;
}

/**
 * Rules whose failing fixtures are not deployed on Tomcat, and why: what they configure would listen
 * beyond 127.0.0.1, which no test may do. Their lint tests keep the fixtures; their pages say so.
 */
export const NOT_DEPLOYED: ReadonlyMap<string, string> = new Map([
  [
    'jmx-remote-unprotected',
    "the fixture opens remote JMX, and Java 17's agent binds one of its RMI ports on every interface even with com.sun.management.jmxremote.host=127.0.0.1 (observed with ss -ltn: *:<port> beside 127.0.0.1:<port>)",
  ],
]);

export function failFixtures(): FailFixture[] {
  const out: FailFixture[] = [];
  const count = new Map<string, number>();
  const add = (f: Omit<FailFixture, 'n'>) => {
    const n = count.get(f.rule) ?? 0;
    count.set(f.rule, n + 1);
    out.push({ ...f, n });
  };
  for (const [rule, { fail }] of Object.entries(RULE_CASES)) {
    add({
      rule,
      files: fail,
      source: 'test/lint/rule-cases.ts',
      ...(ON_TOMCAT_11.has(rule) ? { target: '11.0' as const } : {}),
    });
    for (const more of MORE_FAILS[rule] ?? [])
      add({ rule, files: more, source: 'test/lint/rule-cases.ts (MORE_FAILS)' });
  }
  for (const c of CASES)
    add({
      rule: c.rule,
      files: baseFiles(c.bad),
      source: 'test/lint/hardening-cases.ts',
      ...(c.profile ? { profile: c.profile } : {}),
    });
  for (const rule of [...HARDENING_APP_CASE_IDS].sort())
    add({ rule, files: fixtureFiles(rule, 'fail'), source: `test/fixtures/hardening/rules/${rule}/fail` });
  const known = new Set(RULES.map((r) => r.meta.id));
  return out.filter((f) => known.has(f.rule) && !NOT_DEPLOYED.has(f.rule));
}

/** A fingerprint of the fixture's files: a recording of other files than today's is stale. */
export function fixtureHash(f: Pick<FailFixture, 'files'>): string {
  const sorted = Object.keys(f.files)
    .sort()
    .map((k) => [k, f.files[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16);
}
