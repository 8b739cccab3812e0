import type { ResolvedContext } from '../chain/index.js';
import type { MergedFilter, MergedFilterMapping } from '../chain/index.js';
import type { FilterSpec, TomcatTarget } from '../filters/index.js';
import type {
  CatalinaBase,
  Diagnostic,
  FilterDef,
  Severity,
  SourceFile,
  Span,
  TextEdit,
  TomcatEffect,
  WebXml,
} from '../model/index.js';
import type { Accounts, Profile } from '../schema/config-document.js';

export type { Profile };

export type RuleCategory = 'correctness' | 'security' | 'compatibility' | 'hygiene';

export interface RuleMeta {
  /** Readable id, also what users write in suppressions and config. */
  id: string;
  description: string;
  defaultSeverity: Severity;
  /**
   * What real Tomcat 10.1 does with what this rule finds, which decides defaultSeverity (README's
   * policy; SEVERITY_OF_EFFECT). docs/severity.md is generated from this, reason and variants.
   */
  effect: TomcatEffect;
  /** One line: why that effect, as observed on Tomcat 10.1 where it is about start-up or behaviour. */
  reason: string;
  /** Findings of this rule that get another severity (or effect), and when. */
  variants?: readonly { severity: Severity; effect: TomcatEffect; when: string }[];
  category: RuleCategory;
  /** SARIF security-severity (0-10) for security rules. */
  securitySeverity?: number;
  fixable?: boolean;
  /**
   * The benchmark controls this rule decides, as `<benchmark>:<control>`: `cis-tomcat-10.1:2.5`
   * (the CIS Apache Tomcat 10.1 Benchmark's recommendation number) or `stig-tomcat:V-222935`
   * (the DISA STIG vulnerability id). A finding of the rule fails the control; no finding passes it.
   */
  benchmarks?: readonly string[];
  /**
   * The rule's level in each profile (`tollgate lint --profile`, see src/lint/profiles.ts) where it
   * differs from the default. A level given here replaces the severity of every finding. Absent:
   * `recommended` runs the rule at its reported severities; `cis` and `stig` run what `recommended`
   * runs, plus (at defaultSeverity) the rules off in `recommended` whose `benchmarks` name a control
   * of their benchmark. A hardening rule that only a benchmark asks for (Tomcat's own default is
   * sensible) writes `profiles: { recommended: 'off' }`.
   */
  profiles?: Partial<Record<Profile, Severity | 'off'>>;
}

/** One descriptor with its role in the base. */
export interface DescriptorRef {
  webXml: WebXml;
  /** conf/web.xml, a host's web.xml.default, an app's WEB-INF/tomcat-web.xml or its WEB-INF/web.xml. */
  role: 'global' | 'host-default' | 'tomcat-web' | 'app';
}

/** A filter definition as validated once for the whole run. */
export interface CheckedFilter {
  def: FilterDef;
  spec: FilterSpec | null;
  config: unknown | null;
  descriptor: DescriptorRef;
}

/** One place a filter definition runs: a merged mapping of a context that resolves its name to that definition. */
export interface FilterUse {
  context: ResolvedContext;
  mapping: MergedFilterMapping;
}

export interface LintContext {
  base: CatalinaBase;
  target: TomcatTarget;
  /** The profile being linted for: a rule whose limit differs between benchmarks (the STIG's 600 s lockout, CIS's 300 s) reads it. */
  profile: Profile;
  /** The account names file ownership is judged against (config `accounts`; unset names take the profile's default). */
  accounts: Accounts;
  descriptors: DescriptorRef[];
  contexts: ResolvedContext[];
  /** Every <filter> of every descriptor, validated once. */
  filters: CheckedFilter[];
  /**
   * The validated filters of one kind (by spec id), in the order of ctx.filters. During the walk
   * (RuleVisitor) these are the filters validated so far: for a context hook, that includes every
   * filter its context sees, so a kind with no filter here is a kind the context does not have.
   */
  ofKind(specId: string): readonly CheckedFilter[];
  /**
   * The validated filter behind a merged filter of a context; `at`, the context's position in
   * ctx.contexts, lets the answer come from that context's own descriptors.
   */
  checked(filter: MergedFilter, at?: number): CheckedFilter | undefined;
  /** Every mapping, in every context, that applies this definition (indexed once per run). */
  usesOf(filter: CheckedFilter): FilterUse[];
  source(file: string): SourceFile | undefined;
  /** `benchmarks`: the controls of the rule's RuleMeta.benchmarks this finding fails, when not all of them (see Diagnostic). */
  report(d: {
    message: string;
    span: Span;
    severity?: Severity;
    fix?: TextEdit[];
    related?: Diagnostic['related'];
    benchmarks?: readonly string[];
    effect?: Diagnostic['effect'];
  }): void;
}

/**
 * What a rule checks while the engine walks the base once, application by application
 * (lintBase): every rule that looks at filters, descriptors or contexts one at a time is
 * shown each while its data is at hand, instead of walking the whole base itself (at
 * 10,000 applications, each walk of the base cost as much again in memory access).
 * Hooks see items in the order of ctx.filters, ctx.descriptors and ctx.contexts; a rule
 * uses one kind of hook, so its findings come in the order its own walk gave them.
 */
export interface RuleVisitor {
  /** The spec ids of the filters `filter` is shown; every filter when absent. */
  kinds?: readonly string[];
  /**
   * Each validated filter, as it is validated: ctx.filters and ofKind are not complete yet.
   * ctx.contexts, usesOf and isMapped are.
   */
  filter?(f: CheckedFilter): void;
  /** Each descriptor, after its filters. */
  descriptor?(d: DescriptorRef): void;
  /**
   * Each context with its position in ctx.contexts, as soon as every descriptor it sees has
   * been walked (so ctx.checked answers for each of its filters; ctx.filters is not complete).
   */
  context?(c: ResolvedContext, i: number): void;
}

export interface Rule {
  meta: RuleMeta;
  /** Rules that only own diagnostics produced by the parser, merge or validation have neither check nor visit. */
  check?: (ctx: LintContext) => void;
  /** The per-item form of check (see RuleVisitor), started once per run. */
  visit?: (ctx: LintContext) => RuleVisitor;
}
