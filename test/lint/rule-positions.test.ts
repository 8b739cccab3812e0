/**
 * What a user sees of each rule with fixtures (test/fixtures/hardening/rules/<rule>/{fail,pass}): every
 * finding's file, line, column, end line, end column, severity and message, pinned in
 * rule-positions.golden.txt as actionlint pins its output in golden files. A rule that reports the right
 * thing at the wrong place, or with another message, fails its own test here. After a deliberate change:
 * TOLLGATE_WRITE_GOLDEN=1 npx vitest run test/lint/rule-positions.test.ts, and read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileLevel, PROFILE_BENCHMARK } from '../../src/lint/profiles.js';
import { ruleById } from '../../src/lint/rules/index.js';
import type { Profile } from '../../src/lint/types.js';
import { fixtureFiles, HARDENING_APP_CASE_IDS } from './hardening-app-cases.js';
import { cleanup, lintFiles } from './helpers.js';

afterAll(cleanup);

const GOLDEN = join(import.meta.dirname, 'rule-positions.golden.txt');

/** The profile a rule is judged in: recommended, unless only a benchmark asks for it. */
function profileOf(rule: string): Profile {
  const meta = ruleById(rule)!.meta;
  if (profileLevel(meta, 'recommended') !== 'off') return 'recommended';
  return (Object.keys(PROFILE_BENCHMARK) as (keyof typeof PROFILE_BENCHMARK)[]).find(
    (p) => profileLevel(meta, p) !== 'off',
  )!;
}

/** One line per finding of `rule`: file (from the base on):line:column-endLine:endColumn severity message. */
function seen(rule: string, side: 'fail' | 'pass'): string[] {
  return lintFiles(fixtureFiles(rule, side), { profile: profileOf(rule) })
    .filter((d) => d.ruleId === rule)
    .map((d) => {
      const s = d.span;
      const line = `${s.file}:${s.line}:${s.column}-${s.endLine}:${s.endColumn} ${d.severity} ${d.message}`;
      // The fixture is copied to a fresh temporary base: its path reads <base>.
      return line.replace(/\/[^ ]*?\/tollgate-lint-[A-Za-z0-9]+/g, '<base>');
    });
}

/** The golden file's sections: "## rule side" and the lines under it. */
function readGolden(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(GOLDEN)) return out;
  let key = '';
  for (const line of readFileSync(GOLDEN, 'utf8').split('\n')) {
    if (line.startsWith('## ')) out.set((key = line.slice(3)), []);
    else if (line !== '' && key !== '') out.get(key)!.push(line);
  }
  return out;
}

// Modes and owners are the copier's (umask, account), not the fixture's: hardening-files.test.ts judges them.
const ON_DISK = new Set(['file-mode-too-open', 'file-owner-unexpected']);
const rules = [...HARDENING_APP_CASE_IDS].filter((r) => !ON_DISK.has(r)).sort();
const golden = readGolden();

if (process.env['TOLLGATE_WRITE_GOLDEN'] === '1') {
  const text = rules
    .flatMap((r) => (['fail', 'pass'] as const).map((side) => [`## ${r} ${side}`, ...seen(r, side), ''].join('\n')))
    .join('\n');
  writeFileSync(GOLDEN, text);
}

describe('each rule with fixtures reports exactly what rule-positions.golden.txt pins', () => {
  it('has a section for every rule with fixtures, and none for another', () => {
    expect([...readGolden().keys()].sort()).toEqual(rules.flatMap((r) => [`${r} fail`, `${r} pass`]).sort());
  });
  for (const rule of rules) {
    it(`${rule}: the failing configuration's findings, at their lines and columns, with their messages`, () => {
      const want = golden.get(`${rule} fail`) ?? [];
      expect(want.length).toBeGreaterThan(0);
      expect(seen(rule, 'fail')).toEqual(want);
    });
    it(`${rule}: nothing on the passing one`, () => {
      expect(golden.get(`${rule} pass`)).toEqual([]);
      expect(seen(rule, 'pass')).toEqual([]);
    });
  }
});
