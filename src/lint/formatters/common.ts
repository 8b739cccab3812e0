import { relative } from 'node:path';
import type { Diagnostic, SourceFile } from '../../model/index.js';
import type { SuppressedDiagnostic } from '../suppressions.js';

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

/** The text of a 1-based line of a file. */
export function lineText(source: SourceFile | undefined, line: number): string | null {
  if (!source) return null;
  return source.text.split(/\r\n|\r|\n/)[line - 1] ?? null;
}
