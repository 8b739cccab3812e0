import type { Diagnostic, FilterDef, Located, Param, Severity, Span, TextEdit } from '../model/index.js';
import { isExpiresParam } from './expires.js';
import { translateJavaRegex } from './java-regex.js';
import { findFilterSpec } from './index.js';
import type { FilterSpec, TomcatTarget } from './spec.js';

export interface ValidatedFilter {
  spec: FilterSpec | null;
  /** The typed config, or null when a problem stops the filter from starting. */
  config: unknown | null;
  diagnostics: Diagnostic[];
}

interface IssueLike {
  path: PropertyKey[];
  message: string;
  params?: { severity?: Severity; offset?: number; length?: number; ruleId?: string };
}

const TARGET_ORDER: TomcatTarget[] = ['9.0', '10.1', '11.0'];

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length]![b.length]!;
}

/** The known names closest to an unknown one (case-insensitive match first). */
export function suggestParam(name: string, known: string[]): string[] {
  const lower = name.toLowerCase();
  const exactCase = known.filter((k) => k.toLowerCase() === lower);
  if (exactCase.length) return exactCase;
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).filter((x) => x.d <= Math.max(2, Math.floor(x.k.length / 4)));
  const best = Math.min(...scored.map((x) => x.d));
  return scored.filter((x) => x.d === best).map((x) => x.k);
}

function subSpan(value: Located<string>, offset: number | undefined, length: number | undefined): Span {
  const s = value.span;
  if (offset === undefined || s.endOffset - s.offset !== value.value.length || s.line !== s.endLine) return s;
  const start = s.offset + offset;
  const len = Math.max(1, Math.min(length ?? 1, value.value.length - offset));
  return { ...s, column: s.column + offset, endColumn: s.column + offset + len, offset: start, endOffset: start + len };
}

/**
 * Validates a <filter> (its class and init-params) against tollgate's spec of
 * that filter: the typed config the runtime will run on, and diagnostics whose
 * severity says whether Tomcat would refuse to start the application.
 * Classes that are not container filters get no spec and no diagnostic.
 */
export function validateFilterDef(
  def: Pick<FilterDef, 'className' | 'initParams' | 'span' | 'name'>,
  opts: { target?: TomcatTarget } = {},
): ValidatedFilter {
  const className = def.className?.value ?? '';
  const spec = findFilterSpec(className) ?? null;
  if (!spec) return { spec: null, config: null, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const classSpan = def.className?.span ?? def.span;
  const target = opts.target ?? '10.1';
  if (spec.removedIn && TARGET_ORDER.indexOf(target) >= TARGET_ORDER.indexOf(spec.removedIn)) {
    diagnostics.push({ ruleId: 'filter-not-in-target', severity: 'error', message: `${spec.simpleName} was removed in Tomcat ${spec.removedIn}: the class does not exist on ${target}.`, span: classSpan });
  }
  if (spec.addedIn && TARGET_ORDER.indexOf(target) < TARGET_ORDER.indexOf(spec.addedIn)) {
    diagnostics.push({ ruleId: 'filter-not-in-target', severity: 'error', message: `${spec.simpleName} was added in Tomcat ${spec.addedIn}: the class does not exist on ${target}.`, span: classSpan });
  }

  const raw: Record<string, string> = {};
  const byName = new Map<string, Param>();
  const known = Object.keys(spec.params);
  for (const p of def.initParams) {
    const name = p.name.value;
    const prior = byName.get(name);
    if (prior) {
      diagnostics.push({
        ruleId: 'filter-param-duplicate',
        severity: 'warning',
        message: `init-param "${name}" is set twice; Tomcat keeps the first value ("${prior.value.value}") and ignores this one.`,
        span: p.name.span,
        related: [{ message: 'the value Tomcat uses', span: prior.value.span }],
      });
      continue;
    }
    byName.set(name, p);
    raw[name] = p.value.value;
    const isKnown = name in spec.params || (spec.id === 'expires' && isExpiresParam(name));
    const removedIn = spec.params[name]?.removedIn;
    if (removedIn && TARGET_ORDER.indexOf(target) >= TARGET_ORDER.indexOf(removedIn)) {
      diagnostics.push({
        ruleId: 'filter-not-in-target',
        severity: spec.unknownParams === 'fatal' ? 'error' : 'warning',
        message: `${spec.simpleName} has no parameter "${name}" from Tomcat ${removedIn} on${spec.unknownParams === 'fatal' ? ': on ' + target + ' Tomcat refuses to start the application' : ''}. Remove it.`,
        span: p.name.span,
      });
    } else if (!isKnown) diagnostics.push(unknownParam(spec, p, known));
    else if (spec.paramKinds[name] === 'regex') {
      // Approximations are warnings, not parse failures: the config is still built.
      for (const w of translateJavaRegex(p.value.value).problems.filter((x) => x.severity === 'warning')) {
        diagnostics.push({ ruleId: 'filter-param-regex', severity: 'warning', message: `${name}: ${w.message}.`, span: subSpan(p.value, w.offset, w.length) });
      }
    } else if (spec.paramKinds[name] === 'boolean') {
      const v = p.value.value.trim().toLowerCase();
      if (v !== 'true' && v !== 'false') {
        diagnostics.push({
          ruleId: 'filter-param-boolean-spelling',
          severity: 'warning',
          message: `"${p.value.value}" is not true or false: Tomcat reads every value but "true" as false, so ${name} is false here. Write true or false.`,
          span: p.value.span,
        });
      }
    }
  }

  const result = spec.schema.safeParse(raw);
  if (result.success) return { spec, config: result.data, diagnostics };
  for (const issue of result.error.issues as unknown as IssueLike[]) {
    const paramName = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
    const p = paramName ? byName.get(paramName) : undefined;
    const severity: Severity = issue.params?.severity ?? (spec.valueProblemsAreFatal ? 'error' : 'warning');
    const consequence = severity === 'error' && !/Tomcat/.test(issue.message) ? (spec.valueProblemsAreFatal ? ' Tomcat refuses to start the application.' : '') : '';
    diagnostics.push({
      ruleId: issue.params?.ruleId ?? 'filter-param-invalid',
      severity,
      message: `${paramName ? `${paramName}: ` : ''}${issue.message}${/[.)]$/.test(issue.message) ? '' : '.'}${consequence}`,
      span: p ? subSpan(p.value, issue.params?.offset, issue.params?.length) : classSpan,
    });
  }
  return { spec, config: null, diagnostics };
}

function unknownParam(spec: FilterSpec, p: Param, known: string[]): Diagnostic {
  const name = p.name.value;
  const suggestions = suggestParam(name, known);
  const severity: Severity = spec.unknownParams === 'fatal' ? 'error' : 'warning';
  const effect =
    spec.unknownParams === 'fatal'
      ? `${spec.simpleName} treats an unknown parameter as a configuration error, so Tomcat refuses to start the application`
      : spec.unknownParams === 'logged'
        ? 'Tomcat ignores it with a warning in the log'
        : `${spec.simpleName} ignores it silently`;
  let fix: TextEdit[] | undefined;
  if (suggestions.length === 1 && p.name.span.endOffset - p.name.span.offset === name.length) {
    fix = [{ file: p.name.span.file, offset: p.name.span.offset, endOffset: p.name.span.endOffset, text: suggestions[0]! }];
  }
  return {
    ruleId: 'filter-param-unknown',
    severity,
    message: `${spec.simpleName} has no parameter "${name}"${suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''} (${effect}).`,
    span: p.name.span,
    ...(fix ? { fix } : {}),
  };
}
