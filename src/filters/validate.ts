import type { Diagnostic, FilterDef, Located, Param, Severity, Span, TextEdit } from '../model/index.js';
import { boundedMemo } from '../protocol/memo.js';
import type { IssueParams } from './define.js';
import { findFilterSpec } from './registry.js';
import { TOMCAT_TARGETS, type FilterSpec, type ParamNote, type TomcatTarget } from './spec.js';

export interface ValidatedFilter {
  spec: FilterSpec | null;
  /**
   * The typed config, or null when Tomcat would not start the filter (an error
   * diagnostic says why) or tollgate cannot run a value Tomcat accepts (a
   * warning says so).
   */
  config: unknown | null;
  diagnostics: Diagnostic[];
  /**
   * The diagnostics that stop Tomcat from starting the filter, and so the context (a class the target
   * lacks, an unknown parameter where isConfigProblemFatal, a value its init refuses). Decided by what
   * Tomcat does, not by severity: notes (what the schema cannot fail on) never refuse, whatever
   * severity the lint policy gives them, and a value Tomcat accepts but tollgate cannot run is not one.
   */
  refusals: Diagnostic[];
}

const atLeast = (target: TomcatTarget, version: TomcatTarget) =>
  TOMCAT_TARGETS.indexOf(target) >= TOMCAT_TARGETS.indexOf(version);

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The known names closest to an unknown one: a case-insensitive match first, else the nearest by edit distance. */
export function suggestParam(name: string, known: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const sameLetters = known.filter((k) => k.toLowerCase() === lower);
  if (sameLetters.length) return sameLetters;
  // The length difference bounds the distance from below: names far longer than any known one (a
  // 100,000-character init-param name) are not compared at all, which cost seconds (found by test/fuzz).
  const within = (k: string): number => Math.max(2, Math.floor(k.length / 4));
  const scored = known
    .filter((k) => Math.abs(lower.length - k.length) <= within(k))
    .map((k) => ({ k, d: distance(lower, k.toLowerCase()) }))
    .filter((x) => x.d <= within(x.k));
  if (scored.length) {
    const best = Math.min(...scored.map((x) => x.d));
    return scored.filter((x) => x.d === best).map((x) => x.k);
  }
  // A truncated or extended name (hstsMaxAge for hstsMaxAgeSeconds), when only one known name fits.
  const affix =
    lower.length >= 4
      ? known.filter((k) => k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase()))
      : [];
  return affix.length === 1 ? affix : [];
}

/**
 * The span of `length` characters at `offset` inside a value, when the value
 * is the file's text verbatim (no entity or CDATA, no line-end normalisation);
 * otherwise the whole value.
 */
/** The options spec.notes is called with, one object per target rather than one per filter validated. */
const NOTE_OPTS: Partial<Record<TomcatTarget, { readonly target: TomcatTarget }>> = Object.fromEntries(
  TOMCAT_TARGETS.map((target) => [target, Object.freeze({ target })]),
);

/** Findings of one rule listed per parameter value; the rest are counted in one more. */
const MAX_PER_PARAM = 50;

/** Offsets of the newlines of a value (remembered: findings come value by value, often many per value). */
const newlinesOf = boundedMemo((v: string): number[] => {
  const out: number[] = [];
  for (let i = v.indexOf('\n'); i >= 0; i = v.indexOf('\n', i + 1)) out.push(i);
  return out;
}, 64);

export function subSpan(value: Located<string>, offset: number | undefined, length: number | undefined): Span {
  const s = value.span;
  if (offset === undefined || s.endOffset - s.offset !== value.value.length || offset > value.value.length) return s;
  const len = Math.max(offset === value.value.length ? 0 : 1, Math.min(length ?? 1, value.value.length - offset));
  const nls = newlinesOf(value.value);
  const at = (i: number) => {
    // Newlines before i (binary search): slicing the value per finding made a 100,000-character
    // list with thousands of bad entries take seconds (found by test/fuzz).
    let lo = 0;
    let hi = nls.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nls[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    const nl = lo > 0 ? nls[lo - 1]! : -1;
    return { line: s.line + lo, column: nl < 0 ? s.column + i : i - nl };
  };
  const start = at(offset);
  const end = at(offset + len);
  return {
    ...s,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    offset: s.offset + offset,
    endOffset: s.offset + offset + len,
  };
}

function exactEdit(loc: Located<string>, span: Span, text: string): TextEdit[] | undefined {
  const s = loc.span;
  return s.endOffset - s.offset === loc.value.length
    ? [{ file: span.file, offset: span.offset, endOffset: span.endOffset, text }]
    : undefined;
}

function consequence(spec: FilterSpec): string {
  return spec.unknownParams === 'fatal'
    ? `${spec.simpleName} treats it as a configuration error, so Tomcat does not start the application`
    : spec.unknownParams === 'logged'
      ? 'Tomcat ignores it with a warning in the log'
      : `${spec.simpleName} ignores it silently`;
}

function unknownParam(spec: FilterSpec, p: Param, target: TomcatTarget): Diagnostic {
  const name = p.name.value;
  const known = Object.entries(spec.params)
    .filter(([, d]) => !d.ignoredByTomcat && !(d.removedIn && atLeast(target, d.removedIn)))
    .map(([k]) => k);
  const lower = name.toLowerCase();
  let suggestions = Object.entries(spec.params)
    .filter(([, d]) => d.seenAs?.some((s) => s.toLowerCase() === lower))
    .map(([k]) => k);
  for (const prefix of Object.keys(spec.dynamicParams ?? {})
    .filter((k) => k.endsWith(' '))
    .map((k) => k.trim())) {
    if (!suggestions.length && lower.startsWith(prefix.toLowerCase()))
      suggestions = [prefix + name.slice(prefix.length)];
  }
  if (!suggestions.length) suggestions = suggestParam(name, known);
  const seen = suggestions.length === 1 && spec.params[suggestions[0]!]?.seenAs?.some((s) => s.toLowerCase() === lower);
  const fix = suggestions.length === 1 ? exactEdit(p.name, p.name.span, suggestions[0]!) : undefined;
  const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
  return {
    ruleId: 'filter-param-unknown',
    severity: spec.unknownParams === 'fatal' ? 'error' : 'warning',
    message: `${spec.simpleName} has no parameter "${name}"${seen ? ' (a spelling from old documentation samples that Tomcat never reads)' : ''}: ${consequence(spec)}.${hint}`,
    span: p.name.span,
    ...(fix ? { fix } : {}),
  };
}

function noteDiagnostic(n: ParamNote, p: Param, name: string): Diagnostic {
  const loc = n.on === 'name' ? p.name : p.value;
  const span = subSpan(loc, n.offset, n.length);
  const fix = n.replacement !== undefined ? exactEdit(loc, span, n.replacement) : undefined;
  return { ruleId: n.ruleId, severity: n.severity, message: `${name}: ${n.message}.`, span, ...(fix ? { fix } : {}) };
}

/**
 * Validates a <filter> (its class and init-params) against tollgate's spec of
 * that filter: the typed config the runtime will run on, and diagnostics whose
 * severity says whether Tomcat would refuse to start the application (error)
 * or starts and does something you may not expect (warning).
 * Classes that are not container filters get no spec and no diagnostic.
 */
export function validateFilterDef(
  def: Pick<FilterDef, 'className' | 'initParams' | 'span' | 'name'>,
  opts: { target?: TomcatTarget } = {},
): ValidatedFilter {
  const spec = findFilterSpec(def.className?.value ?? '') ?? null;
  if (!spec) return { spec: null, config: null, diagnostics: [], refusals: [] };
  const target = opts.target ?? '10.1';
  const diagnostics: Diagnostic[] = [];
  const refusals: Diagnostic[] = [];
  const fatal = spec.unknownParams === 'fatal';
  const classSpan = def.className?.span ?? def.span;
  if (spec.removedIn && atLeast(target, spec.removedIn)) {
    diagnostics.push({
      ruleId: 'filter-not-in-target',
      severity: 'error',
      message: `${spec.simpleName} was removed in Tomcat ${spec.removedIn}: on ${target} the class does not exist and the application does not start.`,
      span: classSpan,
    });
    refusals.push(diagnostics[diagnostics.length - 1]!);
  }
  if (spec.addedIn && !atLeast(target, spec.addedIn)) {
    diagnostics.push({
      ruleId: 'filter-not-in-target',
      severity: 'error',
      message: `${spec.simpleName} was added in Tomcat ${spec.addedIn}: on ${target} the class does not exist and the application does not start.`,
      span: classSpan,
    });
    refusals.push(diagnostics[diagnostics.length - 1]!);
  }

  const raw: Record<string, string> = {};
  const byParam = new Map<string, Param>();
  const byName = new Map<string, Param>();
  for (const p of def.initParams) {
    const name = p.name.value;
    const first = byName.get(name);
    if (first) {
      // FilterDef.addInitParameter keeps the first definition (the TCK expects it).
      diagnostics.push({
        ruleId: 'filter-param-duplicate',
        severity: 'warning',
        message: `init-param "${name}" is given twice; Tomcat keeps the first value ("${first.value.value}") and ignores this one.`,
        span: p.name.span,
        related: [{ message: 'the value Tomcat uses', span: first.value.span }],
      });
      continue;
    }
    byName.set(name, p);
    const canonical = spec.resolveParam(name);
    const doc = canonical === null ? undefined : spec.params[canonical];
    if (doc?.removedIn && atLeast(target, doc.removedIn)) {
      diagnostics.push({
        ruleId: 'filter-param-not-in-target',
        severity: spec.unknownParams === 'fatal' ? 'error' : 'warning',
        message: `${spec.simpleName} has no parameter "${name}" from Tomcat ${doc.removedIn} on: ${consequence(spec)}. Remove it.`,
        span: p.name.span,
      });
      if (fatal) refusals.push(diagnostics[diagnostics.length - 1]!);
      continue;
    }
    if (canonical === null) {
      diagnostics.push(unknownParam(spec, p, target));
      if (fatal) refusals.push(diagnostics[diagnostics.length - 1]!);
      continue;
    }
    if (doc?.ignoredByTomcat) {
      diagnostics.push({
        ruleId: 'filter-param-unknown',
        severity: spec.unknownParams === 'fatal' ? 'error' : 'warning',
        message: `${doc.ignoredByTomcat}. Remove it.`,
        span: p.name.span,
      });
      if (fatal) refusals.push(diagnostics[diagnostics.length - 1]!);
      continue;
    }
    const other = byParam.get(canonical);
    if (other) {
      diagnostics.push({
        ruleId: 'filter-param-duplicate',
        severity: 'warning',
        message: `"${name}" and "${other.name.value}" both set ${canonical}; which value Tomcat keeps depends on hash order. Keep one.`,
        span: p.name.span,
        related: [{ message: 'the other one', span: other.name.span }],
      });
      continue;
    }
    if (doc?.removedIn) {
      diagnostics.push({
        ruleId: 'filter-param-not-in-target',
        severity: 'info',
        message: `${canonical} is deprecated and gone in Tomcat ${doc.removedIn}; there ${consequence(spec)}.`,
        span: p.name.span,
      });
    }
    raw[canonical] = p.value.value;
    byParam.set(canonical, p);
  }

  const fast = spec.parseText?.(raw);
  const result = fast ? { success: true as const, data: fast.data } : spec.schema.safeParse(raw);
  if (!result.success) {
    // Past MAX_PER_PARAM findings of one rule in one parameter, the rest become one summary: 50,004 findings in one
    // 100 KB value (a fuzz input) cost a second of lint under load and megabytes of output nobody reads.
    const perParam = new Map<
      string,
      { count: number; more: number; worst: Severity; span: Diagnostic['span']; label: string; ruleId: string }
    >();
    for (const issue of result.error.issues) {
      const params = (issue as { params?: IssueParams }).params ?? {};
      const name = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const p = name ? byParam.get(name) : undefined;
      const severity: Severity = params.severity ?? 'error';
      const ruleId = params.ruleId ?? 'filter-param-invalid';
      const key = `${ruleId}\u0000${name ?? ''}`;
      let seen = perParam.get(key);
      if (!seen) {
        seen = {
          count: 0,
          more: 0,
          worst: severity,
          span: p ? p.value.span : (def.className?.span ?? def.span),
          label: p ? p.name.value : (name ?? ''),
          ruleId,
        };
        perParam.set(key, seen);
      }
      if (++seen.count > MAX_PER_PARAM) {
        seen.more++;
        if (severity === 'error' || (severity === 'warning' && seen.worst === 'info')) seen.worst = severity;
        continue;
      }
      const message = issue.message.replace(/[.]$/, '');
      const issued = diagnostics.length;
      diagnostics.push({
        ruleId: params.ruleId ?? 'filter-param-invalid',
        severity,
        message: `${p ? `${p.name.value}: ` : name ? `${name}: ` : ''}${message}${severity === 'error' ? '; Tomcat does not start the application' : ''}.`,
        span: p ? subSpan(p.value, params.offset, params.length) : (def.className?.span ?? def.span),
      });
      if (severity === 'error') refusals.push(diagnostics[issued]!);
    }
    for (const seen of perParam.values()) {
      if (seen.more === 0) continue;
      diagnostics.push({
        ruleId: seen.ruleId,
        severity: seen.worst,
        message: `${seen.label ? `${seen.label}: ` : ''}${seen.more} more problem${seen.more === 1 ? '' : 's'} like the ${MAX_PER_PARAM} above in this value, not listed one by one${seen.worst === 'error' ? '; Tomcat does not start the application' : ''}.`,
        span: seen.span,
      });
      if (seen.worst === 'error') refusals.push(diagnostics[diagnostics.length - 1]!);
    }
  }
  // Notes never stop the filter: an error among them is a filter Tomcat starts and then runs wrongly.
  for (const n of spec.notes(raw, NOTE_OPTS[target] ?? { target })) {
    const p = byParam.get(n.param);
    const d = p
      ? noteDiagnostic(n, p, p.name.value)
      : { ruleId: n.ruleId, severity: n.severity, message: `${n.message}.`, span: def.className?.span ?? def.span };
    diagnostics.push(n.severity === 'error' ? { ...d, effect: 'misbehaves' } : d);
  }
  const starts = result.success && refusals.length === 0;
  return { spec, config: starts ? result.data : null, diagnostics, refusals };
}
