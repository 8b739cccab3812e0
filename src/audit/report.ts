import type { CatalinaBase, Diagnostic, SetenvFile, Severity, SourceFile, Span } from '../model/index.js';
import { toolVersion } from '../lint/docs.js';
import { lintBase, type LintResult } from '../lint/engine.js';
import { profileLevel } from '../lint/profiles.js';
import { RULES } from '../lint/rules/index.js';
import type { SuppressedDiagnostic } from '../lint/suppressions.js';
import type { Accounts, AuditFacts, RuleLevel } from '../lint/config.js';
import type { TomcatTarget } from '../filters/index.js';
import {
  CATALOGUE,
  RELEASES,
  type Applicability,
  type Benchmark,
  type BenchmarkId,
  type Control,
} from './catalogue.js';
import { EXAMINERS, type AuditContext, type Examination } from './checks.js';
import { conflictsOf } from './conflicts.js';
import { waiverMatcher } from './waivers.js';

/**
 * A control's outcome, as an assessor records it:
 * - `pass`: decided from the files, nothing found (the evidence says what was examined and found);
 * - `fail`: decided from the files, a finding (or an expired waiver);
 * - `accepted`: a finding the site accepted, by a suppression comment or a waiver of
 *   tollgate.config.json, with its justification (never shown as a bare pass);
 * - `not-reviewed`: the files cannot decide it without a site fact the `audit` section of
 *   tollgate.config.json did not give (the question says which);
 * - `not-applicable`: the base lacks what the control is about (the manager);
 * - `manual`: no rule decides it from the files: to check by hand.
 */
export type ControlStatus = 'pass' | 'fail' | 'accepted' | 'not-reviewed' | 'not-applicable' | 'manual';

export const CONTROL_STATUSES: readonly ControlStatus[] = [
  'pass',
  'fail',
  'accepted',
  'not-reviewed',
  'not-applicable',
  'manual',
];

/** One thing the audit examined for a control and the value it found there. */
export interface Evidence {
  /** What was examined: `Connector[port=8443]`, `webapps/examples`, `JAVA_OPTS`. */
  subject: string;
  /** The value found, as written (`protocols="TLSv1.2+TLSv1.3"`), or what is there (`absent`, `file absent`). */
  found: string;
  /** Where it was found; absent for what is not in a file (a folder that is not there). */
  span?: Span;
}

/** A finding the site accepted: by a suppression comment in the file, or a waiver of tollgate.config.json. */
export interface Acceptance {
  diagnostic: Diagnostic;
  source: 'comment' | 'waiver';
  justification: string;
  /** Who accepted it (waivers). */
  by?: string;
  /** The ISO date the acceptance ends (waivers); an expired one fails the control. */
  expires?: string;
  expired: boolean;
  /** Where the waiver is declared (tollgate.config.json), or the suppression comment. */
  declared?: Span;
}

/** Another benchmark's control that asks the opposite of this one on the same setting. */
export interface Conflict {
  benchmark: BenchmarkId;
  control: string;
  /** What the two ask, in a line. */
  note: string;
}

export interface ControlResult {
  benchmark: BenchmarkId;
  control: Control;
  status: ControlStatus;
  /** The rules that decide the control from the files (none: manual, or not applicable). */
  rules: string[];
  /** The findings that fail the control (fail), expired waivers' findings included. */
  findings: Diagnostic[];
  /** Findings the site accepted (accepted; an expired acceptance is listed here and fails). */
  accepted: Acceptance[];
  /** @deprecated the accepted suppressions, as before: read `accepted`. */
  suppressed: SuppressedDiagnostic[];
  /** What was examined and the value found, for every status a rule decides. */
  evidence: Evidence[];
  /**
   * Remarks an assessor must see beside the status: "passes on Tomcat's default; the check text
   * asks for the setting", where start-up options came from, why a control is not reviewed.
   */
  notes: string[];
  /** not-reviewed: the site fact to give (`audit.behindProxy` in tollgate.config.json) and the question it answers. */
  question?: string;
  /** Why the control does not apply to this base (not-applicable). */
  reason?: string;
  /** Controls of the other benchmark that ask the opposite. */
  conflicts: Conflict[];
  /** One line: the status and why, for formats that have a single message per control. */
  message: string;
}

export interface AuditResult {
  benchmark: BenchmarkId;
  /** The benchmark release audited against (`V3R4`, `v1.1.0`) with its title and date. */
  release: Pick<Benchmark, 'title' | 'release' | 'version' | 'releaseDate' | 'source'>;
  results: ControlResult[];
  lint: LintResult;
  /** The CATALINA_BASE audited, as given. */
  target: string;
  /** The CATALINA_HOME used (the base when none was given). */
  home: string;
  /** When the audit ran. */
  date: Date;
  tool: { name: 'tollgate'; version: string };
  /** `--letter`: settings left to Tomcat's default fail where the check text asks for them. */
  letter: boolean;
}

/** The rule ids that decide each control of a benchmark, from RuleMeta.benchmarks. */
export function rulesByControl(benchmark: BenchmarkId): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const prefix = `${benchmark}:`;
  for (const rule of RULES) {
    for (const ref of rule.meta.benchmarks ?? []) {
      if (!ref.startsWith(prefix)) continue;
      const id = ref.slice(prefix.length);
      const list = out.get(id);
      if (list) list.push(rule.meta.id);
      else out.set(id, [rule.meta.id]);
    }
  }
  return out;
}

const MANAGER_PATHS = new Set(['/manager', '/host-manager']);

/** Whether the base deploys Tomcat's manager or host manager, under its own name or another (CIS 10.5 asks to rename it). */
function managerDeployed(base: CatalinaBase): boolean {
  return base.hosts.some((h) =>
    h.contexts.some(
      (c) =>
        MANAGER_PATHS.has(c.path) ||
        /(^|[/\\])(host-)?manager[/\\]?$/.test(c.docBase) ||
        (c.webXml?.servlets.some((s) => s.className?.value.startsWith('org.apache.catalina.manager.')) ?? false),
    ),
  );
}

const NOT_APPLICABLE: Record<Applicability, { applies: (base: CatalinaBase) => boolean; reason: string }> = {
  manager: {
    applies: managerDeployed,
    reason: 'the base deploys neither the manager nor the host-manager application',
  },
};

const LEVEL_OF: Record<Severity, RuleLevel> = { error: 'error', warning: 'warn', info: 'info' };

/** The findings of a file that could not be read into a model (other xml-* rules, such as xml-external-dtd, judge a file that was read). */
const UNREAD = new Set([
  'file-unreadable',
  'file-too-large',
  'xml-malformed',
  'xml-encoding',
  'xml-wrong-root',
  'xml-deep-nesting',
  'xml-entity-expansion',
  'xml-external-entity',
]);

/** Fatal reading problems: a file the audit cannot judge would let its controls pass unseen. */
export function unreadable(lint: LintResult): Diagnostic[] {
  return lint.diagnostics.filter((d) => d.severity === 'error' && UNREAD.has(d.ruleId));
}

export interface AuditOptions {
  target?: TomcatTarget;
  inlineConfig?: boolean;
  accounts?: Accounts;
  /** The site's facts and waivers (tollgate.config.json `audit`). */
  facts?: AuditFacts;
  /** Where tollgate.config.json is, for the waivers' places. */
  configPath?: string | null;
  /** `--letter`: a setting the check text asks for fails when left to Tomcat's default. */
  letter?: boolean;
  /** `--benchmark-version`: an older release (default: the newest). */
  version?: string;
  /**
   * The service's start-up configuration (systemd unit, /etc/default, /etc/sysconfig, bin/setenv.sh,
   * as src/parser's readStartup reads it): its options replace the base's setenv for the audit.
   */
  startup?: {
    setenv: SetenvFile | null;
    sources: readonly SourceFile[];
    examined: readonly { file: string; found: boolean }[];
  };
  /** How the report names the base (default: its path). */
  label?: string;
  /** When the audit ran (default: now). */
  date?: Date;
  /** tollgate's version (default: the package's). */
  toolVersion?: string;
}

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The one-line message of a control: its status and the reason an assessor reads first. */
function messageOf(r: Omit<ControlResult, 'message'>): string {
  switch (r.status) {
    case 'fail': {
      const expired = r.accepted.filter((a) => a.expired);
      const first = r.findings[0]?.message ?? '';
      return `${plural(r.findings.length, 'finding')}${expired.length ? ` (${expired.length} under an expired waiver)` : ''}: ${first}`;
    }
    case 'accepted':
      return `accepted deviation: ${r.accepted.map((a) => `${a.justification || '(no reason given)'}${a.by ? ` (${a.by}${a.expires ? `, until ${a.expires}` : ''})` : ''}`).join('; ')}`;
    case 'not-reviewed':
      return `not reviewed: ${r.question ?? ''}`;
    case 'not-applicable':
      return `not applicable: ${r.reason ?? ''}`;
    case 'manual':
      return `check by hand: ${r.control.check}`;
    case 'pass': {
      const seen = r.evidence
        .slice(0, 3)
        .map((e) => `${e.subject} ${e.found}`)
        .join('; ');
      return `pass${seen ? `: ${seen}${r.evidence.length > 3 ? `; and ${r.evidence.length - 3} more` : ''}` : ''}${r.notes.length ? ` (${r.notes[0]})` : ''}`;
    }
  }
}

/** The benchmark release an audit reports against: the newest, or the one `--benchmark-version` names. */
export function releaseOf(benchmark: BenchmarkId, version?: string): Benchmark {
  const list = RELEASES[benchmark];
  if (version === undefined) return list[0]!;
  const want = version.replace(/^v/i, '').toLowerCase();
  const hit = list.find((b) => b.version === want || b.release.toLowerCase() === version.toLowerCase());
  if (!hit)
    throw new RangeError(
      `${benchmark} has no release "${version}": ${list.map((b) => `${b.version} (${b.release})`).join(', ')}`,
    );
  return hit;
}

/**
 * Audits a loaded base against a benchmark: the base is linted under the benchmark's profile with
 * every rule that decides one of its controls switched on (whatever the profile's level); each
 * control is then examined (src/audit/checks.ts: what the check text looks at, with the value
 * found), failed by its rules' findings and the examination's own, accepted where a suppression
 * or a waiver covers every finding, not reviewed where a site fact is missing, manual when nothing
 * decides it, not applicable when the base lacks what it is about.
 */
export function auditBase(input: CatalinaBase, benchmark: BenchmarkId, opts: AuditOptions = {}): AuditResult {
  const base: CatalinaBase = opts.startup
    ? {
        ...input,
        setenv: opts.startup.setenv,
        files: new Map([...input.files, ...opts.startup.sources.map((f) => [f.path, f] as const)]),
      }
    : input;
  const release = releaseOf(benchmark, opts.version);
  const deciding = rulesByControl(benchmark);
  const profile = benchmark === 'cis-tomcat-10.1' ? 'cis' : 'stig';
  const ruleLevels: Record<string, RuleLevel> = {};
  for (const rule of RULES) {
    if (!rule.meta.benchmarks?.some((b) => b.startsWith(`${benchmark}:`))) continue;
    if (profileLevel(rule.meta, profile) === 'off') ruleLevels[rule.meta.id] = LEVEL_OF[rule.meta.defaultSeverity];
  }
  const lint = lintBase(base, {
    profile,
    ruleLevels,
    ...(opts.target ? { target: opts.target } : {}),
    ...(opts.inlineConfig === false ? { inlineConfig: false } : {}),
    ...(opts.accounts ? { accounts: opts.accounts } : {}),
  });
  const byRule = new Map<string, Diagnostic[]>();
  for (const d of lint.diagnostics) {
    const list = byRule.get(d.ruleId);
    if (list) list.push(d);
    else byRule.set(d.ruleId, [d]);
  }
  const date = opts.date ?? new Date();
  const letter = opts.letter === true;
  const facts = opts.facts ?? {};
  const ctx: AuditContext = {
    base,
    benchmark,
    facts,
    letter,
    lint,
    ...(opts.startup ? { startup: { examined: opts.startup.examined } } : {}),
  };
  const waive = waiverMatcher(facts.waivers ?? [], base.base, opts.configPath ?? null, date);
  const results = release.controls.map((control): ControlResult => {
    const rules = deciding.get(control.id) ?? [];
    const ref = `${benchmark}:${control.id}`;
    const conflicts = conflictsOf(benchmark, control.id);
    const done = (r: Omit<ControlResult, 'message'>): ControlResult => ({ ...r, message: messageOf(r) });
    const empty = {
      benchmark,
      control,
      rules,
      findings: [] as Diagnostic[],
      accepted: [] as Acceptance[],
      suppressed: [] as SuppressedDiagnostic[],
      evidence: [] as Evidence[],
      notes: conflicts.map(
        (c) => `conflicts with ${CATALOGUE[c.benchmark].title.split(' (')[0]} ${c.control}: ${c.note}`,
      ),
      conflicts,
    };
    const condition = control.appliesWhen ? NOT_APPLICABLE[control.appliesWhen] : undefined;
    if (condition && !condition.applies(base))
      return done({ ...empty, status: 'not-applicable', reason: condition.reason });
    const examine = EXAMINERS[ref];
    if (rules.length === 0 && !examine) return done({ ...empty, status: 'manual' });
    const exam: Examination = examine ? examine(ctx) : { evidence: [] };
    if (exam.notApplicable)
      return done({ ...empty, evidence: exam.evidence, status: 'not-applicable', reason: exam.notApplicable });
    // A finding that names the controls it fails counts for those only (Diagnostic.benchmarks).
    const fails = (d: Diagnostic): boolean =>
      (d.benchmarks === undefined || d.benchmarks.includes(ref)) && (exam.keep?.(d) ?? true);
    const ruled = rules.flatMap((r) => byRule.get(r) ?? []).filter(fails);
    const defaulted = letter ? (exam.defaulted ?? []) : [];
    const own = [...(exam.findings ?? []), ...defaulted];
    const found = [...ruled, ...own];
    const suppressed = lint.suppressed.filter((s) => rules.includes(s.diagnostic.ruleId) && fails(s.diagnostic));
    const accepted: Acceptance[] = suppressed.map((s) => ({
      diagnostic: s.diagnostic,
      source: 'comment',
      justification: s.justification,
      expired: false,
    }));
    const findings: Diagnostic[] = [];
    for (const d of found) {
      const w = waive(ref, d);
      if (!w) findings.push(d);
      else {
        accepted.push(w);
        if (w.expired) findings.push(d);
      }
    }
    const evidence = [
      ...exam.evidence,
      ...findings.filter((d) => !exam.evidence.some((e) => e.span === d.span)).map(evidenceOf),
    ];
    if (evidence.length === 0)
      evidence.push({ subject: rules.join(', '), found: `no finding in ${examinedFiles(lint)}` });
    const notes = [...empty.notes, ...(exam.notes ?? [])];
    if (!letter && findings.length === 0 && (exam.defaulted?.length ?? 0) > 0) notes.unshift(DEFAULT_NOTE);
    const result = { ...empty, findings, accepted, suppressed, evidence, notes };
    if (findings.length > 0) return done({ ...result, status: 'fail' });
    if (accepted.length > 0) return done({ ...result, status: 'accepted' });
    if (exam.question) return done({ ...result, status: 'not-reviewed', question: exam.question });
    return done({ ...result, status: 'pass' });
  });
  return {
    benchmark,
    release: {
      title: release.title,
      release: release.release,
      version: release.version,
      releaseDate: release.releaseDate,
      source: release.source,
    },
    results,
    lint,
    target: opts.label ?? base.base,
    home: base.home,
    date,
    tool: { name: 'tollgate', version: opts.toolVersion ?? toolVersion() },
    letter,
  };
}

/** The note beside a pass that rests on Tomcat's default where the check text asks for the setting. */
export const DEFAULT_NOTE =
  "passes on Tomcat's default; the check text asks for the setting (--letter judges by the text)";

function evidenceOf(d: Diagnostic): Evidence {
  return { subject: d.ruleId, found: d.message, span: d.span };
}

/** The configuration files the lint read, for the evidence of a pass no examiner describes. */
function examinedFiles(lint: LintResult): string {
  const names = [...lint.files.keys()].map((f) => f.split(/[\\/]/).slice(-2).join('/'));
  return names.length
    ? names.slice(0, 6).join(', ') + (names.length > 6 ? `, and ${names.length - 6} more` : '')
    : 'no file';
}

/** Controls per status, for summaries. */
export function tally(results: readonly ControlResult[]): Record<ControlStatus, number> {
  const out: Record<ControlStatus, number> = {
    pass: 0,
    fail: 0,
    accepted: 0,
    'not-reviewed': 0,
    'not-applicable': 0,
    manual: 0,
  };
  for (const r of results) out[r.status]++;
  return out;
}
