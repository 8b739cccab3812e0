import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The failing and passing configuration of each web.xml / tomcat-users.xml hardening rule, as
 * files under test/fixtures/hardening/rules/<rule>/{fail,pass}: test/lint/hardening-app.test.ts
 * runs them, and test/lint/rules.test.ts counts these rules as covered.
 */
export const RULE_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hardening', 'rules');

export const HARDENING_APP_CASE_IDS: ReadonlySet<string> = new Set(readdirSync(RULE_FIXTURES));

/** The files of one side of a rule's fixture, by path relative to the base. */
export function fixtureFiles(rule: string, side: 'fail' | 'pass'): Record<string, string> {
  const root = join(RULE_FIXTURES, rule, side);
  const out: Record<string, string> = {};
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[relative(root, join(e.parentPath, e.name))] = readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}
