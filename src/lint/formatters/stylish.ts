import type { Diagnostic } from '../../model/index.js';
import { counts, groupByFile, lineText, rel, type FormatInput } from './common.js';

const SEVERITY_LABEL = { error: 'error', warning: 'warning', info: 'info' } as const;

/** Human output: grouped by file, each problem with a code frame and a caret under its span. */
export function formatStylish(input: FormatInput): string {
  const c = (code: number, s: string): string => (input.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const colorOf = (d: Diagnostic): number => (d.severity === 'error' ? 31 : d.severity === 'warning' ? 33 : 36);
  const out: string[] = [];
  for (const [file, list] of groupByFile(input.diagnostics)) {
    out.push(c(4, rel(input.cwd, file)));
    const source = input.files.get(file);
    for (const d of list) {
      const s = d.span;
      out.push(`  ${s.line}:${s.column}  ${c(colorOf(d), SEVERITY_LABEL[d.severity])}  ${d.message}  ${c(90, d.ruleId)}`);
      const text = lineText(source, s.line);
      if (text !== null && text.length <= 400) {
        const gutter = String(s.line).padStart(6);
        out.push(c(90, `${gutter} | `) + text.replace(/\t/g, ' '));
        const width = s.endLine === s.line ? Math.max(1, s.endColumn - s.column) : Math.max(1, text.length - s.column + 1);
        out.push(c(90, `${' '.repeat(gutter.length)} | `) + ' '.repeat(Math.max(0, s.column - 1)) + c(colorOf(d), '^'.repeat(width)));
      }
      for (const r of d.related ?? []) out.push(c(90, `         note: ${r.message} (${rel(input.cwd, r.span.file)}:${r.span.line}:${r.span.column})`));
    }
    out.push('');
  }
  const { errors, warnings, infos } = counts(input.diagnostics);
  const total = errors + warnings + infos;
  if (total === 0) return '';
  const fixable = input.diagnostics.filter((d) => d.fix).length;
  out.push(
    c(errors ? 31 : warnings ? 33 : 36, `✖ ${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${infos} info${infos === 1 ? '' : 's'})`),
  );
  if (fixable) out.push(`  ${fixable} of them can be fixed with --fix.`);
  return out.join('\n') + '\n';
}
