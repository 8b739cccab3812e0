import type { Diagnostic, SourceFile, Span } from '../../model/index.js';
import { benchmarkLabels, counts, groupByFile, lineText, rel, type FormatInput } from './common.js';
import { frameWindow, printable } from '../printable.js';

const SEVERITY_LABEL = { error: 'error', warning: 'warning', info: 'info' } as const;

/** Human output: grouped by file, each problem with a code frame and a caret under its span. */
export function formatStylish(input: FormatInput): string {
  const c = (code: number, s: string): string => (input.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const colorOf = (d: Diagnostic): number => (d.severity === 'error' ? 31 : d.severity === 'warning' ? 33 : 36);
  const out: string[] = [];
  const frameOf = (source: SourceFile | undefined, s: Span, color: number): void => {
    const text = lineText(source, s.line);
    if (text === null) return;
    const gutter = String(s.line).padStart(6);
    const frame = frameWindow(text, s.column - 1, s.endLine === s.line ? s.endColumn - 1 : text.length);
    out.push(c(90, `${gutter} | `) + frame.text);
    out.push(
      c(90, `${' '.repeat(gutter.length)} | `) +
        ' '.repeat(frame.start) +
        c(color, '^'.repeat(Math.max(1, frame.end - frame.start))),
    );
  };
  for (const [file, list] of groupByFile(input.diagnostics)) {
    out.push(c(4, printable(rel(input.cwd, file))));
    const source = input.files.get(file);
    for (const d of list) {
      const s = d.span;
      const controls = benchmarkLabels(d);
      out.push(
        `  ${s.line}:${s.column}  ${c(colorOf(d), SEVERITY_LABEL[d.severity])}  ${printable(d.message)}  ${c(90, controls ? `${d.ruleId} (${controls})` : d.ruleId)}`,
      );
      frameOf(source, s, colorOf(d));
      // A related place gets its own frame: the finding is where the user acts, and this is the other half
      // of the cause (often in another file, such as the conf/web.xml filter an application's chain merges with).
      for (const r of d.related ?? []) {
        out.push(
          c(
            90,
            `         note: ${printable(r.message)} (${printable(rel(input.cwd, r.span.file))}:${r.span.line}:${r.span.column})`,
          ),
        );
        frameOf(input.files.get(r.span.file), r.span, 90);
      }
    }
    out.push('');
  }
  const { errors, warnings, infos } = counts(input.diagnostics);
  const total = errors + warnings + infos;
  if (total === 0) return '';
  const fixable = input.diagnostics.filter((d) => d.fix).length;
  out.push(
    c(
      errors ? 31 : warnings ? 33 : 36,
      `✖ ${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${infos} info${infos === 1 ? '' : 's'})`,
    ),
  );
  if (fixable) out.push(`  ${fixable} of them can be fixed with --fix.`);
  return out.join('\n') + '\n';
}
