/** How compile and serve print what the plan left out and what lint found. */
import { relative } from 'node:path';
import { formatStylish } from '../lint/formatters/stylish.js';
import type { CatalinaBase, Diagnostic } from '../model/index.js';
import type { SkippedContext } from '../plan/index.js';
import type { Io } from './command.js';

/** Lint findings that keep compile and serve from running a context Tomcat starts (see PlanOptions.unsafe). */
export const UNSAFE_RULES: ReadonlySet<string> = new Set(['regex-redos']);

/** Findings as stylish prints them (code frame, caret), paths relative to the working directory. */
export function stylish(diagnostics: Diagnostic[], base: CatalinaBase, io: Io): string {
  return formatStylish({
    diagnostics,
    files: base.files,
    lintedFiles: [],
    cwd: io.cwd,
    repoRoot: io.cwd,
    color: false,
    version: '',
  });
}

/** One line per context left out: its file:line:column first, so editors and terminals can jump to it. */
export function skippedLine(command: string, s: SkippedContext, io: Io): string {
  const label = `${s.host}${s.contextPath || '/'}`;
  const d = s.diagnostics[0];
  if (!d) return `tollgate ${command}: ${label}: ${s.reason}\n`;
  const more = s.diagnostics.length > 1 ? ` (and ${s.diagnostics.length - 1} more)` : '';
  return `tollgate ${command}: ${label}: Tomcat does not start it: ${relative(io.cwd, d.span.file) || d.span.file}:${d.span.line}:${d.span.column}: ${d.message}${more}\n`;
}
