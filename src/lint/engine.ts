import { contextsOf, mergedOf, type MergedFilter, type ResolvedContext } from '../chain/index.js';
import { validateFilterDef, type TomcatTarget, type ValidatedFilter } from '../filters/index.js';
import type { CatalinaBase, Diagnostic, FilterDef, LoadedContext, Severity, SourceFile } from '../model/index.js';
import type { Accounts, Profile, RuleLevel } from './config.js';
import { profileLevel } from './profiles.js';
import { RULES, ruleById } from './rules/index.js';
import { applySuppressions, type SuppressedDiagnostic } from './suppressions.js';
import type { CheckedFilter, DescriptorRef, FilterUse, LintContext, RuleVisitor } from './types.js';

export interface LintOptions {
  target?: TomcatTarget;
  /** The rule set (default recommended): which rules run, at which levels, before ruleLevels. */
  profile?: Profile;
  /** Per-rule levels from the config file and --rule (later wins), over the profile's. */
  ruleLevels?: Record<string, RuleLevel>;
  /** false ignores suppression comments (--no-inline-config). */
  inlineConfig?: boolean;
  /** Only report diagnostics in files this accepts (ignore globs). */
  includeFile?: (file: string) => boolean;
  /** For one part of a base split between workers: hosts that deploy contexts in some part (see BasePartition). */
  hostsWithContexts?: ReadonlySet<string>;
  /** The account names the file-owner rule expects (config `accounts`); defaults per profile. */
  accounts?: Accounts;
}

export interface LintResult {
  diagnostics: Diagnostic[];
  files: Map<string, SourceFile>;
  /** Findings suppression comments silenced (after levels and ignore globs), with their reasons. */
  suppressed: SuppressedDiagnostic[];
}

/** A descriptor as the engine walks it. */
interface Walked extends DescriptorRef {
  /**
   * For the descriptor of one application alone (its web.xml or tomcat-web.xml): its position among the
   * contexts of every host, in host order (as contextsOf lists them); -1 for one that several contexts share.
   */
  owner: number;
  /** Where its filters start in ctx.filters, once walked; -1 before. */
  first: number;
}

interface Descriptors {
  list: Walked[];
  /** The loaded context at each position. */
  loaded: LoadedContext[];
  /** For the context at each position: how many descriptors of the list come up to its own (every one it sees). */
  upTo: number[];
  /** The descriptors the context at each position sees, besides conf/web.xml: its host's web.xml.default, its web.xml, its tomcat-web.xml. */
  hostDefault: (Walked | undefined)[];
  app: (Walked | undefined)[];
  tomcatWeb: (Walked | undefined)[];
  global: Walked | undefined;
}

function descriptorsOf(base: CatalinaBase): Descriptors {
  // By identity, not file: a JSON chain document holds the global part and every context in one file.
  const byWebXml = new Map<DescriptorRef['webXml'], Walked>();
  const out: Descriptors = {
    list: [],
    loaded: [],
    upTo: [],
    hostDefault: [],
    app: [],
    tomcatWeb: [],
    global: undefined,
  };
  const add = (
    webXml: DescriptorRef['webXml'] | null | undefined,
    role: DescriptorRef['role'],
    at: number,
  ): Walked | undefined => {
    if (!webXml) return undefined;
    let d = byWebXml.get(webXml);
    if (d) {
      if (d.owner !== at) d.owner = -1;
      return d;
    }
    d = { webXml, role, owner: at, first: -1 };
    byWebXml.set(webXml, d);
    out.list.push(d);
    return d;
  };
  out.global = add(base.globalWebXml, 'global', -1);
  for (const h of base.hosts) {
    const hostDefault = add(h.webXmlDefault, 'host-default', -1);
    for (const c of h.contexts) {
      const at = out.loaded.push(c) - 1;
      out.hostDefault.push(hostDefault);
      out.app.push(add(c.webXml, 'app', at));
      out.tomcatWeb.push(add(c.tomcatWebXml, 'tomcat-web', at));
      out.upTo.push(out.list.length);
    }
  }
  return out;
}

/**
 * Hosts without applications (a lone conf/web.xml or web.xml.default, a base
 * whose apps live elsewhere) still get their defaults merged and checked, as
 * the application Tomcat would merge them into: every problem there stops
 * every application the host will ever deploy.
 */
function defaultsOnly(base: CatalinaBase, hostsWithContexts?: ReadonlySet<string>): ResolvedContext[] {
  const out: ResolvedContext[] = [];
  for (const host of base.hosts) {
    if (host.contexts.length > 0 || hostsWithContexts?.has(host.name) || (!base.globalWebXml && !host.webXmlDefault))
      continue;
    const context: LoadedContext = {
      path: '',
      version: '',
      name: '',
      docBase: host.appBase,
      source: 'app-dir',
      contextDef: null,
      webXml: null,
    };
    out.push({ host, context, merged: mergedOf(base, host, context) });
  }
  return out;
}

/** Up to this many mappings, an application's own mappings are scanned for the uses of its filters. */
const SCAN_LIMIT = 16;

/**
 * Every mapping, in every context, that applies a definition. A filter of one application's own
 * descriptor can only run in that application: its few mappings are scanned. Others (the defaults'
 * filters, descriptors several contexts share, long mapping lists) are looked up in an index of
 * every context's mappings, built on the first such question (building it cost more than all the
 * scans in a lint of 1,000 applications, which asks for the uses of one filter in four).
 */
function usesIndex(contexts: ResolvedContext[], loaded: LoadedContext[]): (f: CheckedFilter) => FilterUse[] {
  let index: Map<FilterDef, FilterUse[]> | null = null;
  return (f) => {
    const at = (f.descriptor as Partial<Walked>).owner ?? -1;
    const c = at >= 0 ? contexts[at] : undefined;
    if (c && c.context === loaded[at] && c.merged.filterMappings.length <= SCAN_LIMIT) {
      const out: FilterUse[] = [];
      for (const mapping of c.merged.filterMappings) {
        if (c.merged.filters.get(mapping.mapping.filterName.value)?.def === f.def) out.push({ context: c, mapping });
      }
      return out;
    }
    index ??= indexUses(contexts);
    return index.get(f.def) ?? [];
  };
}

/** Which mappings apply each definition: one pass over every context, instead of one per filter. */
function indexUses(contexts: ResolvedContext[]): Map<FilterDef, FilterUse[]> {
  const out = new Map<FilterDef, FilterUse[]>();
  for (const context of contexts) {
    for (const mapping of context.merged.filterMappings) {
      const def = context.merged.filters.get(mapping.mapping.filterName.value)?.def;
      if (!def) continue;
      const list = out.get(def);
      if (list) list.push({ context, mapping });
      else out.set(def, [{ context, mapping }]);
    }
  }
  return out;
}

/** The order findings are reported in: by file, then offset, then rule. */
export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.span.file < b.span.file
    ? -1
    : a.span.file > b.span.file
      ? 1
      : a.span.offset - b.span.offset || a.ruleId.localeCompare(b.ruleId);
}

/**
 * Whether two declarations filed under the same class and first value (see cachedValidation) have the
 * same init-params, in the same order: the class and the first value are not compared again (each
 * string compared reads the text of its file, at 10,000 applications mostly from memory).
 */
function sameDeclaration(a: FilterDef, b: FilterDef): boolean {
  const n = a.initParams.length;
  if (n !== b.initParams.length) return false;
  if (n === 0) return true;
  if (a.initParams[0]!.name.value !== b.initParams[0]!.name.value) return false;
  for (let i = 1; i < n; i++) {
    const p = a.initParams[i]!;
    const q = b.initParams[i]!;
    if (p.name.value !== q.name.value || p.value.value !== q.value.value) return false;
  }
  return true;
}

/** How many clean declarations are kept per class and first value: past that, the oldest is validated again when it recurs. */
const PER_KEY = 8;

/**
 * validateFilterDef for one run, remembering clean results by class and params: applications
 * copy the same filter declarations, and a result without diagnostics depends on nothing else
 * (the spans only appear in diagnostics). Results with diagnostics are recomputed for their spans.
 * Declarations are filed by class and first value and compared string by string: building a key
 * of every string of every filter (and hashing it) was most of what a lint of 1,000 applications
 * allocated (2.5 MB of 18).
 */
function cachedValidation(target: TomcatTarget): (def: FilterDef) => ValidatedFilter {
  const clean = new Map<string, Map<string, { def: FilterDef; v: ValidatedFilter }[]>>();
  const opts = { target };
  return (def) => {
    const cls = def.className?.value ?? '';
    let byFirst = clean.get(cls);
    if (!byFirst) clean.set(cls, (byFirst = new Map()));
    const first = def.initParams[0]?.value.value ?? '';
    let list = byFirst.get(first);
    if (list) {
      for (const r of list) if (sameDeclaration(r.def, def)) return r.v;
    } else byFirst.set(first, (list = []));
    const v = validateFilterDef(def, opts);
    if (v.diagnostics.length > 0) return v;
    if (list.length === PER_KEY) list.pop();
    list.unshift({ def, v });
    return v;
  };
}

const NO_PROBLEMS: Diagnostic[] = [];
const NO_FILTERS: readonly CheckedFilter[] = [];

/** The validated filters of one kind (spec id), and the rules shown each. */
interface Kind {
  filters: CheckedFilter[];
  visitors: RuleVisitor[];
}

/** Whether every merged param is one of the definition's own (the merge keeps its objects). */
function inheritsNothing(
  merged: readonly FilterDef['initParams'][number][],
  own: readonly FilterDef['initParams'][number][],
): boolean {
  // The merge copies the definition's list in order: compare in place first, search only on a mismatch.
  for (let i = 0; i < merged.length; i++) if (merged[i] !== own[i] && !own.includes(merged[i]!)) return false;
  return true;
}

/**
 * A definition that overrides a same-named filter of conf/web.xml or web.xml.default
 * runs with the class and init-params it inherits (Tomcat 10.1.60: an application
 * filter "cors" with cors.support.credentials=true under a global one with
 * cors.allowed.origins="*" is refused). The errors of that merged configuration
 * which the definition alone does not have are reported on the definition, each
 * pointing at the inherited value it comes from.
 */
function inheritedProblems(
  m: MergedFilter,
  validate: (def: FilterDef) => ValidatedFilter,
  target: TomcatTarget,
): Diagnostic[] {
  const own = m.def;
  if (m.className === own.className && inheritsNothing(m.initParams, own.initParams)) return NO_PROBLEMS;
  if (validate(own).diagnostics.some((d) => d.severity === 'error')) return [];
  const merged = validateFilterDef({ ...own, className: m.className, initParams: m.initParams }, { target });
  const at = own.className?.span ?? own.name.span;
  const inherited = m.initParams.find((p) => !own.initParams.includes(p))?.value.span ?? m.className?.span ?? at;
  return merged.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const mine = d.span.file === own.span.file;
      return {
        ...d,
        span: mine ? d.span : at,
        message: `With what it inherits from the same-named filter in ${inherited.file}: ${d.message}`,
        related: [{ message: 'inherited from here', span: mine ? inherited : d.span }],
      };
    });
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const LEVEL_TO_SEVERITY: Record<Exclude<RuleLevel, 'off'>, Severity> = {
  info: 'info',
  warn: 'warning',
  error: 'error',
};

/**
 * Each rule's level in this run: the profile's, under the config file's and --rule's. Only rules
 * whose level is not 'reported' (keep each finding's severity) are listed.
 */
function levelsOf(profile: Profile, ruleLevels: Record<string, RuleLevel> | undefined): Map<string, Severity | 'off'> {
  const out = new Map<string, Severity | 'off'>();
  for (const rule of RULES) {
    const level = profileLevel(rule.meta, profile);
    if (level !== 'reported') out.set(rule.meta.id, level);
  }
  for (const [id, level] of Object.entries(ruleLevels ?? {}))
    out.set(id, level === 'off' ? 'off' : LEVEL_TO_SEVERITY[level]);
  return out;
}

/**
 * Findings that only follow from a descriptor the parser could not read to its end (issue 17: one root
 * cause, one finding): Tomcat's parser stops at the first error and refuses the file, and what this
 * parse did not reach (a mapping, a class, a parameter below the error) is not missing, only unread.
 */
const FOLLOWS_FROM_DAMAGE = new Set([
  'filter-never-mapped',
  'filter-mapping-undefined-filter',
  'servlet-mapping-undefined-servlet',
  'webxml-missing-element',
  'cors-no-allowed-origins',
  'unused-suppression',
]);

function withoutDamageEchoes(diagnostics: Diagnostic[], base: CatalinaBase): Diagnostic[] {
  const damaged = new Set<string>();
  const note = (xml: { file: string; malformed?: unknown } | null | undefined): void => {
    if (xml?.malformed) damaged.add(xml.file);
  };
  note(base.globalWebXml);
  for (const h of base.hosts) {
    note(h.webXmlDefault);
    for (const c of h.contexts) {
      note(c.webXml);
      note(c.tomcatWebXml);
    }
  }
  if (damaged.size === 0) return diagnostics;
  return diagnostics.filter(
    (d) =>
      !FOLLOWS_FROM_DAMAGE.has(d.ruleId) ||
      !(damaged.has(d.span.file) || d.related?.some((r) => damaged.has(r.span.file))),
  );
}

/** Lints a loaded CATALINA_BASE: the parser's, merge's and validation's findings plus every rule's. */
export function lintBase(base: CatalinaBase, opts: LintOptions = {}): LintResult {
  const target = opts.target ?? '10.1';
  const profile = opts.profile ?? 'recommended';
  const levels = levelsOf(profile, opts.ruleLevels);
  const raw: Diagnostic[] = [...base.diagnostics];
  const described = descriptorsOf(base);
  const descriptors = described.list;
  const filters: CheckedFilter[] = [];
  const validate = cachedValidation(target);
  const contexts = [...contextsOf(base), ...defaultsOnly(base, opts.hostsWithContexts)];
  const usesOf = usesIndex(contexts, described.loaded);
  // By definition, for the questions a context cannot answer from its own descriptors (below); filled up to
  // the filters walked so far when asked. An index of every filter cost more than the rest of the walk at
  // 10,000 applications, and the chain rules ask only about the filters of the context at hand.
  let byDef: Map<FilterDef, CheckedFilter> | null = null;
  let indexed = 0;
  const lookup = (def: FilterDef): CheckedFilter | undefined => {
    byDef ??= new Map();
    for (; indexed < filters.length; indexed++) byDef.set(filters[indexed]!.def, filters[indexed]!);
    return byDef.get(def);
  };
  const checked = (m: MergedFilter, at?: number): CheckedFilter | undefined => {
    if (at !== undefined && at < described.loaded.length && contexts[at]!.context === described.loaded[at]) {
      const found =
        within(described.app[at], m.def) ??
        within(described.tomcatWeb[at], m.def) ??
        within(described.hostDefault[at], m.def) ??
        within(described.global, m.def);
      if (found) return found;
    }
    return lookup(m.def);
  };
  /** The filter of a walked descriptor with few filters (larger ones are looked up). */
  const within = (d: Walked | undefined, def: FilterDef): CheckedFilter | undefined => {
    if (d === undefined || d.first < 0) return undefined;
    const defs = d.webXml.filters;
    if (defs.length > SCAN_LIMIT) return undefined;
    for (let j = 0; j < defs.length; j++) if (defs[j] === def) return filters[d.first + j];
    return undefined;
  };
  const source = (file: string): SourceFile | undefined => base.files.get(file);

  // Each rule reports into a list of its own, read in RULES order after the stages' findings: the order
  // the rules running one after another gave, whatever order the walk below shows them their items in.
  const found: Diagnostic[][] = [];
  const checks: (() => void)[] = [];
  const everyFilter: RuleVisitor[] = [];
  const kinds = new Map<string, Kind>();
  const kindOf = (id: string): Kind => {
    let k = kinds.get(id);
    if (!k) kinds.set(id, (k = { filters: [], visitors: [] }));
    return k;
  };
  const ofKind = (id: string): readonly CheckedFilter[] => kinds.get(id)?.filters ?? NO_FILTERS;
  const perDescriptor: RuleVisitor[] = [];
  const perContext: RuleVisitor[] = [];
  for (const rule of RULES) {
    if ((!rule.check && !rule.visit) || levels.get(rule.meta.id) === 'off') continue;
    const out: Diagnostic[] = [];
    found.push(out);
    const { id, defaultSeverity } = rule.meta;
    const ctx: LintContext = {
      base,
      target,
      profile,
      accounts: opts.accounts ?? {},
      descriptors,
      contexts,
      filters,
      ofKind,
      checked,
      usesOf,
      source,
      report: (d) =>
        void out.push({
          ruleId: id,
          severity: d.severity ?? defaultSeverity,
          message: d.message,
          span: d.span,
          ...(d.fix ? { fix: d.fix } : {}),
          ...(d.related ? { related: d.related } : {}),
          ...(d.benchmarks ? { benchmarks: d.benchmarks } : {}),
          ...(d.effect ? { effect: d.effect } : {}),
        }),
    };
    if (!rule.visit) {
      const check = rule.check!;
      checks.push(() => check(ctx));
      continue;
    }
    const v = rule.visit(ctx);
    if (v.filter && !v.kinds) everyFilter.push(v);
    if (v.filter) for (const kind of v.kinds ?? []) kindOf(kind).visitors.push(v);
    if (v.descriptor) perDescriptor.push(v);
    if (v.context) perContext.push(v);
  }

  // One walk of the base, application by application: each descriptor's filters are validated and shown
  // to the rules, then the descriptor; once every descriptor a context sees is done, the context.
  let done = 0;
  const walkDescriptors = (upTo: number): void => {
    for (; done < upTo; done++) {
      const descriptor = descriptors[done]!;
      descriptor.first = filters.length;
      for (const def of descriptor.webXml.filters) {
        const v = validate(def);
        const f: CheckedFilter = { def, spec: v.spec, config: v.config, descriptor };
        filters.push(f);
        for (const d of v.diagnostics) raw.push(d);
        for (const r of everyFilter) r.filter!(f);
        if (v.spec === null) continue;
        const kind = kindOf(v.spec.id);
        kind.filters.push(f);
        for (const r of kind.visitors) r.filter!(f);
      }
      for (const r of perDescriptor) r.descriptor!(descriptor);
    }
  };
  // The stages' findings keep their order: every validation's, then every merge's, then what definitions inherit.
  const merged: Diagnostic[] = [];
  const inherited: Diagnostic[] = [];
  const inherits = (m: MergedFilter): void => {
    for (const d of inheritedProblems(m, validate, target)) inherited.push(d);
  };
  for (let i = 0; i < contexts.length; i++) {
    const c = contexts[i]!;
    // The merge's findings, what overriding definitions inherit, the context rules.
    walkDescriptors(c.context === described.loaded[i] ? described.upTo[i]! : descriptors.length);
    for (const d of c.merged.diagnostics) merged.push(d);
    c.merged.filters.forEach(inherits);
    for (const r of perContext) r.context!(c, i);
  }
  walkDescriptors(descriptors.length);
  for (const d of merged) raw.push(d);
  for (const d of inherited) raw.push(d);
  for (const check of checks) check();

  // The same finding reaches us once per context that shares a descriptor, and a
  // rule may see what a stage already reported: one finding per rule and span,
  // the most severe (a rule that knows the base may confirm what a stage could only suspect).
  const unique = new Map<string, Diagnostic>();
  for (const list of [raw, ...found]) {
    for (const d of list) {
      const key = `${d.ruleId}\0${d.span.file}\0${d.span.offset}\0${d.span.endOffset}`;
      const seen = unique.get(key);
      if (!seen || SEVERITY_RANK[d.severity] > SEVERITY_RANK[seen.severity]) unique.set(key, d);
    }
  }
  let diagnostics = withoutDamageEchoes([...unique.values()], base);
  let suppressed: SuppressedDiagnostic[] = [];
  if (opts.inlineConfig !== false) {
    ({ kept: diagnostics, suppressed } = applySuppressions(diagnostics, base.files, {
      isRule: (id) => ruleById(id) !== undefined,
      isOff: (id) => levels.get(id) === 'off',
    }));
  }
  // After suppressions, so that a suppression in an ignored file is not reported as unused either.
  const included = (d: Diagnostic): boolean => !opts.includeFile || opts.includeFile(d.span.file);
  const leveled = (d: Diagnostic): Diagnostic[] => {
    if (!included(d)) return [];
    const level = levels.get(d.ruleId);
    if (level === 'off') return [];
    if (level && level !== d.severity) return [{ ...d, severity: level }];
    return [d];
  };
  diagnostics = diagnostics.flatMap(leveled).sort(byPosition);
  suppressed = suppressed.flatMap((s) =>
    leveled(s.diagnostic).map((diagnostic) => ({ diagnostic, justification: s.justification })),
  );
  suppressed.sort((a, b) => byPosition(a.diagnostic, b.diagnostic));
  return { diagnostics, files: base.files, suppressed };
}
