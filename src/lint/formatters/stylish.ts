import type { Diagnostic, SourceFile, Span } from '../../model/index.js';
import { benchmarkLabels, counts, groupByFile, lineText, rel, type FormatInput } from './common.js';

const SEVERITY_LABEL = { error: 'error', warning: 'warning', info: 'info' } as const;

const FRAME = 120;

/**
 * The part of a source line to show, at most FRAME characters around the span
 * (a descriptor written on one line can be thousands long), with the span's
 * start and end in the shown text. Tabs become one space, so columns still line up.
 */
function window(line: string, from: number, to: number): { text: string; start: number; end: number } {
  // Tabs are replaced in the shown part only (same length, so columns hold): replacing them in the whole
  // line made a copy of it per finding, which the shown slice kept alive. 50,000 findings on one 100 KB
  // line (found by the fuzzer) ran the stylish output out of memory at 4 GB.
  if (line.length <= FRAME) return { text: line.replace(/\t/g, ' '), start: from, end: Math.min(to, line.length) };
  const lead = Math.max(0, Math.min(from - 20, line.length - FRAME));
  const cut = Math.min(line.length, lead + FRAME);
  const head = lead > 0 ? '…' : '';
  const text = head + line.slice(lead, cut).replace(/\t/g, ' ') + (cut < line.length ? '…' : '');
  return { text, start: from - lead + head.length, end: Math.min(to, cut) - lead + head.length };
}

/** Human output: grouped by file, each problem with a code frame and a caret under its span. */
export function formatStylish(input: FormatInput): string {
  const c = (code: number, s: string): string => (input.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const colorOf = (d: Diagnostic): number => (d.severity === 'error' ? 31 : d.severity === 'warning' ? 33 : 36);
  const out: string[] = [];
  const frameOf = (source: SourceFile | undefined, s: Span, color: number): void => {
    const text = lineText(source, s.line);
    if (text === null) return;
    const gutter = String(s.line).padStart(6);
    const frame = window(text, s.column - 1, s.endLine === s.line ? s.endColumn - 1 : text.length);
    out.push(c(90, `${gutter} | `) + frame.text);
    out.push(
      c(90, `${' '.repeat(gutter.length)} | `) +
        ' '.repeat(frame.start) +
        c(color, '^'.repeat(Math.max(1, frame.end - frame.start))),
    );
  };
  for (const [file, list] of groupByFile(input.diagnostics)) {
    out.push(c(4, rel(input.cwd, file)));
    const source = input.files.get(file);
    for (const d of list) {
      const s = d.span;
      const controls = benchmarkLabels(d);
      out.push(
        `  ${s.line}:${s.column}  ${c(colorOf(d), SEVERITY_LABEL[d.severity])}  ${d.message}  ${c(90, controls ? `${d.ruleId} (${controls})` : d.ruleId)}`,
      );
      frameOf(source, s, colorOf(d));
      // A related place gets its own frame: the finding is where the user acts, and this is the other half
      // of the cause (often in another file, such as the conf/web.xml filter an application's chain merges with).
      for (const r of d.related ?? []) {
        out.push(c(90, `         note: ${r.message} (${rel(input.cwd, r.span.file)}:${r.span.line}:${r.span.column})`));
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
