import { relative } from 'node:path';
import type { Diagnostic, SourceFile } from '../../model/index.js';
import type { SuppressedDiagnostic } from '../suppressions.js';
import { lineStarts as lineStartsOf } from '../../parser/lines.js';
import { benchmarkLabel } from '../profiles.js';
import { ruleById } from '../rules/index.js';

export interface FormatInput {
  diagnostics: Diagnostic[];
  /** Findings suppression comments silenced (the JSON format lists them, as ESLint does). */
  suppressed?: SuppressedDiagnostic[];
  files: Map<string, SourceFile>;
  /** Files that were linted (listed even when clean, for JSON/SARIF). */
  lintedFiles: string[];
  cwd: string;
  /** Root for SARIF's repository-relative URIs. */
  repoRoot: string;
  color: boolean;
  version: string;
}

export function rel(cwd: string, file: string): string {
  const r = relative(cwd, file);
  return r === '' ? file : r;
}

export function groupByFile(diagnostics: Diagnostic[]): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = out.get(d.span.file) ?? [];
    list.push(d);
    out.set(d.span.file, list);
  }
  return out;
}

export function counts(diagnostics: Diagnostic[]): { errors: number; warnings: number; infos: number } {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}

/** Line start offsets per file text, built on the first quote: splitting the text per finding was quadratic (a 4,000-filter file with a finding per filter took 3.9 s, 2.0 s of it in split). */
const lineStarts = new WeakMap<SourceFile, number[]>();

function startsOf(source: SourceFile): number[] {
  let starts = lineStarts.get(source);
  if (!starts) {
    starts = lineStartsOf(source.text);
    lineStarts.set(source, starts);
  }
  return starts;
}

/** The text of a 1-based line of a file (without its line break). */
export function lineText(source: SourceFile | undefined, line: number): string | null {
  if (!source) return null;
  const starts = startsOf(source);
  if (line < 1 || line > starts.length) return null;
  const text = source.text;
  let end = line < starts.length ? starts[line]! : text.length;
  if (end > starts[line - 1]! && line < starts.length) {
    end--; // the \n or the lone \r
    if (text.charCodeAt(end) === 10 && end > starts[line - 1]! && text.charCodeAt(end - 1) === 13) end--;
  }
  return text.slice(starts[line - 1]!, end);
}

/** The benchmark controls a finding fails (its own, else its rule's RuleMeta.benchmarks), e.g. `cis-tomcat-10.1:2.5`. */
export function benchmarksOf(d: Diagnostic): readonly string[] {
  return d.benchmarks ?? ruleById(d.ruleId)?.meta.benchmarks ?? [];
}

/** The same for people: `CIS 2.5, STIG V-222935`, or '' when there are none. */
export function benchmarkLabels(d: Diagnostic): string {
  return benchmarksOf(d).map(benchmarkLabel).join(', ');
}
