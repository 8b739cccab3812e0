/**
 * What a user sees of every rule: for each rule's failing configuration, every finding of that rule with its
 * file, line, column, end line, end column, severity and message, and the source text the span covers;
 * for its passing configuration, no finding of that rule. Pinned in golden files as actionlint pins its
 * output, one per family of cases:
 *
 *   rule-positions.golden.txt            web.xml / tomcat-users.xml hardening rules
 *                                        (test/fixtures/hardening/rules/<rule>/{fail,pass})
 *   rule-positions.cases.golden.txt      every other descriptor and chain rule (rule-cases.ts RULE_CASES)
 *   rule-positions.container.golden.txt  server.xml, context and properties rules (hardening-cases.ts CASES,
 *                                        each a tiny base, several cases for some rules: "<rule> #n")
 *   rule-positions.disk.golden.txt       the modes and owners of a base's files, set on a temporary base
 *
 * A rule that reports the right thing at the wrong place, or with another message or severity, fails its own
 * test here. Each finding is followed by the text its span covers (`> ...`), so a reviewer of the golden file
 * sees at once whether it points at the element or attribute the finding is about. After a deliberate change:
 * TOLLGATE_WRITE_GOLDEN=1 npx vitest run test/lint/rule-positions.test.ts, and read the diff.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase, type LintOptions } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { profileLevel, PROFILE_BENCHMARK } from '../../src/lint/profiles.js';
import { RULES, ruleById } from '../../src/lint/rules/index.js';
import type { Profile } from '../../src/lint/types.js';
import type { Diagnostic } from '../../src/model/index.js';
import { fixtureFiles, HARDENING_APP_CASE_IDS } from './hardening-app-cases.js';
import { baseFiles, CASES } from './hardening-cases.js';
import { ownAccounts } from './hardened-copy.js';
import { cleanup, lintFiles, tree } from './helpers.js';
import { ON_TOMCAT_11, RULE_CASES, type Files } from './rule-cases.js';

afterAll(cleanup);

/** The profile a rule is judged in: recommended, unless only a benchmark asks for it. */
function profileOf(rule: string): Profile {
  const meta = ruleById(rule)!.meta;
  if (profileLevel(meta, 'recommended') !== 'off') return 'recommended';
  return (Object.keys(PROFILE_BENCHMARK) as (keyof typeof PROFILE_BENCHMARK)[]).find(
    (p) => profileLevel(meta, p) !== 'off',
  )!;
}

/** One case: a rule, the options it is linted with, and the base that triggers it and the one that does not. */
interface PositionCase {
  key: string;
  rule: string;
  options: LintOptions;
  fail: Files;
  pass: Files;
  /** For the rules about the files themselves: each side's modes (paths relative to the base) and options. */
  onDisk?: Record<'fail' | 'pass', { modes: Record<string, number>; options?: LintOptions }>;
}

interface Family {
  golden: string;
  cases: PositionCase[];
}

// Modes and owners are the copier's (umask, account), not the fixture's: their cases set them (the last family).
const ON_DISK = new Set(['file-mode-too-open', 'file-owner-unexpected']);
// A base that cannot be read is a usage error of the CLI (exit 2), tested in test/cli.
const NOT_A_FINDING_IN_A_BASE = new Set(['base-unreadable']);

/** A base whose every path has a mode within both benchmarks (as hardening-files.test.ts lays it out). */
const DISK_FILES: Files = {
  'conf/server.xml':
    '<Server port="-1">\n  <Service name="C">\n    <Engine name="Catalina" defaultHost="localhost">\n      <Host name="localhost" appBase="webapps"/>\n    </Engine>\n  </Service>\n</Server>\n',
  'conf/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n',
  'logs/catalina.log': 'x',
  'webapps/.keep': '',
  'bin/bootstrap.jar': 'x',
};
const WITHIN: Record<string, number> = {
  conf: 0o750,
  'conf/server.xml': 0o600,
  'conf/web.xml': 0o400,
  logs: 0o750,
  'logs/catalina.log': 0o640,
  webapps: 0o750,
  bin: 0o750,
  'bin/bootstrap.jar': 0o640,
};
const OWN = ownAccounts();

const counted = new Map<string, number>();
const FAMILIES: Family[] = [
  {
    golden: 'rule-positions.golden.txt',
    cases: [...HARDENING_APP_CASE_IDS]
      .filter((r) => !ON_DISK.has(r))
      .sort()
      .map((rule) => ({
        key: rule,
        rule,
        options: { profile: profileOf(rule) },
        fail: fixtureFiles(rule, 'fail'),
        pass: fixtureFiles(rule, 'pass'),
      })),
  },
  {
    golden: 'rule-positions.cases.golden.txt',
    cases: Object.entries(RULE_CASES)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rule, { fail, pass }]) => ({
        key: rule,
        rule,
        options: ON_TOMCAT_11.has(rule) ? { target: '11.0' } : {},
        fail,
        pass,
      })),
  },
  {
    golden: 'rule-positions.container.golden.txt',
    cases: CASES.map((c) => {
      const n = (counted.get(c.rule) ?? 0) + 1;
      counted.set(c.rule, n);
      return {
        key: `${c.rule} #${n}`,
        rule: c.rule,
        options: { profile: c.profile ?? 'recommended' },
        fail: baseFiles(c.bad),
        pass: baseFiles(c.good),
      };
    }),
  },
  {
    golden: 'rule-positions.disk.golden.txt',
    cases: [
      {
        key: 'file-mode-too-open',
        rule: 'file-mode-too-open',
        options: { profile: 'cis', accounts: OWN },
        fail: DISK_FILES,
        pass: DISK_FILES,
        onDisk: { fail: { modes: { ...WITHIN, 'conf/server.xml': 0o666 } }, pass: { modes: WITHIN } },
      },
      {
        key: 'file-owner-unexpected',
        rule: 'file-owner-unexpected',
        options: { profile: 'stig', accounts: OWN },
        fail: DISK_FILES,
        pass: DISK_FILES,
        // logs/ is the service account's (V-222988): another name there is the finding.
        onDisk: {
          fail: { modes: WITHIN, options: { accounts: { ...OWN, service: 'no-such-account' } } },
          pass: { modes: WITHIN },
        },
      },
    ],
  },
];

/** The source text a span covers, on one line: its first line from the column, to the end column if on it. */
function covered(files: Files, d: Diagnostic): string {
  const rel = d.span.file.replace(/^.*?\/tollgate-lint-[A-Za-z0-9]+\//, '');
  const text = files[rel];
  if (text === undefined) return '(a file not in the fixture)';
  const line = text.split('\n')[d.span.line - 1];
  if (line === undefined) return '(past the end of the file)';
  const from = d.span.column - 1;
  const to = d.span.endLine === d.span.line ? d.span.endColumn - 1 : line.length;
  let shown = to > from ? line.slice(from, to) : `|${line.slice(from, from + 40)}`;
  if (d.span.endLine !== d.span.line) shown += ' ...';
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}

/** Each side of each case is linted once (its findings are read by more than one test). */
const lints = new Map<PositionCase, Partial<Record<'fail' | 'pass', Diagnostic[]>>>();
function linted(c: PositionCase, side: 'fail' | 'pass'): Diagnostic[] {
  const mine = lints.get(c) ?? {};
  lints.set(c, mine);
  return (mine[side] ??= c.onDisk ? onDisk(c, side) : lintFiles(c[side], c.options));
}

function onDisk(c: PositionCase, side: 'fail' | 'pass'): Diagnostic[] {
  const dir = tree(c[side]);
  const disk = c.onDisk![side];
  for (const [p, m] of Object.entries(disk.modes)) chmodSync(join(dir, p), m);
  return lintBase(loadInput(dir), { ...c.options, ...disk.options }).diagnostics;
}

/** Two lines per finding of the case's rule: file:line:column-endLine:endColumn severity message, and what it covers. */
function seen(c: PositionCase, side: 'fail' | 'pass'): string[] {
  const files = c[side];
  return linted(c, side)
    .filter((d) => d.ruleId === c.rule)
    .flatMap((d) => {
      const s = d.span;
      const line = `${s.file}:${s.line}:${s.column}-${s.endLine}:${s.endColumn} ${d.severity} ${d.message}`;
      // The fixture is copied to a fresh temporary base: its path reads <base>.
      const shown = line.replace(/\/[^ ]*?\/tollgate-lint-[A-Za-z0-9]+/g, '<base>');
      // The on-disk rules name the files' owner: the account running the tests, whatever it is called.
      const owned = c.onDisk
        ? shown.replaceAll(`${OWN.admin}:${OWN.group}`, '<user>:<group>').replaceAll(`:${OWN.group} `, ':<group> ')
        : shown;
      return [owned, `  > ${covered(files, d)}`];
    });
}

/** A golden file's sections: "## key side" and the lines under it. */
function readGolden(path: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(path)) return out;
  let key = '';
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('## ')) out.set((key = line.slice(3)), []);
    else if (line !== '' && key !== '') out.get(key)!.push(line);
  }
  return out;
}

const WRITE = process.env['TOLLGATE_WRITE_GOLDEN'] === '1';

describe('every rule is pinned here', () => {
  it('has a failing and a passing case in some family, but for base-unreadable (a CLI usage error)', () => {
    const pinned = new Set(FAMILIES.flatMap((f) => f.cases.map((c) => c.rule)));
    const missing = RULES.map((r) => r.meta.id).filter((id) => !pinned.has(id) && !NOT_A_FINDING_IN_A_BASE.has(id));
    expect(missing).toEqual([]);
  });
});

for (const family of FAMILIES) {
  const path = join(import.meta.dirname, family.golden);
  if (WRITE) {
    const text = family.cases
      .flatMap((c) =>
        (['fail', 'pass'] as const).map((side) => [`## ${c.key} ${side}`, ...seen(c, side), ''].join('\n')),
      )
      .join('\n');
    writeFileSync(path, text);
  }
  const golden = readGolden(path);

  describe(`each case reports exactly what ${family.golden} pins`, () => {
    it('has a section for every case, and none for another', () => {
      expect([...golden.keys()].sort()).toEqual(family.cases.flatMap((c) => [`${c.key} fail`, `${c.key} pass`]).sort());
    });
    for (const c of family.cases) {
      it(`${c.key}: the failing configuration's findings, at their lines and columns, with their messages`, () => {
        const want = golden.get(`${c.key} fail`) ?? [];
        expect(want.length).toBeGreaterThan(0);
        expect(seen(c, 'fail')).toEqual(want);
      });
      it(`${c.key}: offers fixes only from rules that say they are fixable`, () => {
        const fixed = linted(c, 'fail').filter((d) => d.fix?.length);
        expect(fixed.filter((d) => !ruleById(d.ruleId)?.meta.fixable).map((d) => d.ruleId)).toEqual([]);
      });
      it(`${c.key}: nothing on the passing one`, () => {
        expect(golden.get(`${c.key} pass`)).toEqual([]);
        expect(seen(c, 'pass')).toEqual([]);
      });
    }
  });
}
