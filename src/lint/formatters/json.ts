import type { Diagnostic, SourceFile } from '../../model/index.js';
import { effectOf } from '../severity.js';
import { benchmarksOf, groupByFile, type FormatInput } from './common.js';
import { jsonSafe } from '../printable.js';

/** ESLint's message severities: 2 error, 1 warning; tollgate's infos are reported as 1 with "[info]" in front. */
function eslintSeverity(d: Diagnostic): 1 | 2 {
  return d.severity === 'error' ? 2 : 1;
}

function fixOf(d: Diagnostic, source: SourceFile | undefined): { range: [number, number]; text: string } | undefined {
  const edit = d.fix?.[0];
  // ESLint's fix is one range of this file's text: a fix of several edits, or of another file, has no such form.
  if (!edit || !source || d.fix!.length !== 1 || edit.file !== d.span.file) return undefined;
  return { range: [edit.offset, edit.endOffset], text: edit.text };
}

function messageOf(d: Diagnostic, source: SourceFile | undefined) {
  const fix = fixOf(d, source);
  const benchmarks = benchmarksOf(d);
  return {
    ruleId: d.ruleId,
    severity: eslintSeverity(d),
    message: d.severity === 'info' ? `[info] ${d.message}` : d.message,
    line: d.span.line,
    column: d.span.column,
    nodeType: null,
    endLine: d.span.endLine,
    endColumn: d.span.endColumn,
    ...(fix ? { fix } : {}),
    // Not ESLint's (formatters may add properties): what Tomcat does with it, so a CI consumer tells a
    // refusal from a misbehaviour without the rule table (refuses, misbehaves, ignores, weakens, notes, tollgate).
    effect: effectOf(d) ?? 'tollgate',
    // Not ESLint's: the benchmark controls the finding fails (cis-tomcat-10.1:<n>, stig-tomcat:V-<id>), only when there are some.
    ...(benchmarks.length ? { benchmarks } : {}),
  };
}

/** Exactly ESLint's JSON result format (one entry per linted file), so existing tools can read it. */
export function formatJson(input: FormatInput): string {
  const grouped = groupByFile(input.diagnostics);
  const silenced = groupByFile((input.suppressed ?? []).map((s) => s.diagnostic));
  const reasons = new Map((input.suppressed ?? []).map((s) => [s.diagnostic, s.justification]));
  const files = [...new Set([...input.lintedFiles, ...grouped.keys(), ...silenced.keys()])].sort();
  const results = files.map((filePath) => {
    const list = grouped.get(filePath) ?? [];
    const source = input.files.get(filePath);
    const messages = list.map((d) => messageOf(d, source));
    // ESLint's shape for a message a comment silenced: kind "directive" and the comment's reason.
    const suppressedMessages = (silenced.get(filePath) ?? []).map((d) => ({
      ...messageOf(d, source),
      suppressions: [{ kind: 'directive', justification: reasons.get(d) ?? '' }],
    }));
    const errorCount = messages.filter((m) => m.severity === 2).length;
    const warningCount = messages.length - errorCount;
    return {
      filePath,
      messages,
      suppressedMessages,
      errorCount,
      fatalErrorCount: list.filter(
        (d) => d.ruleId.startsWith('xml-') || d.ruleId === 'file-unreadable' || d.ruleId === 'file-too-large',
      ).length,
      warningCount,
      fixableErrorCount: messages.filter((m) => m.severity === 2 && 'fix' in m).length,
      fixableWarningCount: messages.filter((m) => m.severity === 1 && 'fix' in m).length,
      usedDeprecatedRules: [],
    };
  });
  return jsonSafe(JSON.stringify(results)) + '\n';
}
