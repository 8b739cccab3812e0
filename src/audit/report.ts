import type { CatalinaBase, Diagnostic, Severity } from '../model/index.js';
import { lintBase, type LintResult } from '../lint/engine.js';
import { profileLevel } from '../lint/profiles.js';
import { RULES } from '../lint/rules/index.js';
import type { SuppressedDiagnostic } from '../lint/suppressions.js';
import type { Accounts, RuleLevel } from '../lint/config.js';
import type { TomcatTarget } from '../filters/index.js';
import { CATALOGUE, type Applicability, type BenchmarkId, type Control } from './catalogue.js';

export type ControlStatus = 'pass' | 'fail' | 'manual' | 'not-applicable';

export interface ControlResult {
  benchmark: BenchmarkId;
  control: Control;
  status: ControlStatus;
  /** The rules that decide the control from the files (none: manual, or not applicable). */
  rules: string[];
  /** The findings of those rules (fail). */
  findings: Diagnostic[];
  /** Findings of those rules that a suppression comment accepted, with its reason. */
  suppressed: SuppressedDiagnostic[];
  /** Why the control does not apply to this base (not-applicable). */
  reason?: string;
}

export interface AuditResult {
  benchmark: BenchmarkId;
  results: ControlResult[];
  lint: LintResult;
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

/**
 * Audits a loaded base against a benchmark: the base is linted under the benchmark's profile with
 * every rule that decides one of its controls switched on (whatever the profile's level), and each
 * control is then pass or fail by its rules' findings, manual when no rule decides it, or not
 * applicable when the base lacks what it is about.
 */
export function auditBase(
  base: CatalinaBase,
  benchmark: BenchmarkId,
  opts: { target?: TomcatTarget; inlineConfig?: boolean; accounts?: Accounts } = {},
): AuditResult {
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
  const results = CATALOGUE[benchmark].controls.map((control): ControlResult => {
    const rules = deciding.get(control.id) ?? [];
    const base_ = { benchmark, control, rules, findings: [] as Diagnostic[], suppressed: [] as SuppressedDiagnostic[] };
    const condition = control.appliesWhen ? NOT_APPLICABLE[control.appliesWhen] : undefined;
    if (condition && !condition.applies(base)) return { ...base_, status: 'not-applicable', reason: condition.reason };
    if (rules.length === 0) return { ...base_, status: 'manual' };
    const ref = `${benchmark}:${control.id}`;
    // A finding that names the controls it fails counts for those only (Diagnostic.benchmarks).
    const fails = (d: Diagnostic): boolean => d.benchmarks === undefined || d.benchmarks.includes(ref);
    const findings = rules.flatMap((r) => byRule.get(r) ?? []).filter(fails);
    const suppressed = lint.suppressed.filter((s) => rules.includes(s.diagnostic.ruleId) && fails(s.diagnostic));
    return { ...base_, findings, suppressed, status: findings.length > 0 ? 'fail' : 'pass' };
  });
  return { benchmark, results, lint };
}

/** Controls per status, for summaries. */
export function tally(results: readonly ControlResult[]): Record<ControlStatus, number> {
  const out: Record<ControlStatus, number> = { pass: 0, fail: 0, manual: 0, 'not-applicable': 0 };
  for (const r of results) out[r.status]++;
  return out;
}
