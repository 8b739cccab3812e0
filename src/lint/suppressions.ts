import type { Diagnostic, Located, SourceFile } from '../model/index.js';

interface Suppression {
  kind: 'next-line' | 'range';
  ids: string[] | null;
  comment: Located<string>;
  fromLine: number;
  toLine: number;
  used: boolean;
}

/**
 * `tollgate-disable[-next-line] ids :: reason`. ESLint's "-- reason" is read too, but
 * XML forbids "--" inside a comment (Tomcat's parser rejects the file), so "::" is the form to use.
 */
const DIRECTIVE = /^\s*tollgate-(disable-next-line|disable|enable)\b([^]*?)(?:(?:--|::)[^]*)?$/;

function parseIds(text: string): string[] | null {
  const ids = text.split(/[\s,]+/).filter((s) => s !== '');
  return ids.length ? ids : null;
}

function suppressionsOf(source: SourceFile): Suppression[] {
  const out: Suppression[] = [];
  const open: Suppression[] = [];
  for (const c of source.comments ?? []) {
    const m = DIRECTIVE.exec(c.value);
    if (!m) continue;
    const ids = parseIds(m[2]!);
    const endLine = c.span.endLine;
    if (m[1] === 'disable-next-line') {
      out.push({ kind: 'next-line', ids, comment: c, fromLine: endLine + 1, toLine: endLine + 1, used: false });
    } else if (m[1] === 'disable') {
      const s: Suppression = { kind: 'range', ids, comment: c, fromLine: endLine, toLine: Number.MAX_SAFE_INTEGER, used: false };
      open.push(s);
      out.push(s);
    } else {
      for (const s of open) {
        if (s.toLine !== Number.MAX_SAFE_INTEGER) continue;
        if (ids === null || s.ids === null || ids.some((id) => s.ids!.includes(id))) s.toLine = c.span.line;
      }
    }
  }
  return out;
}

/**
 * Drops diagnostics silenced by `<!-- tollgate-disable-next-line id -- reason -->`
 * or a `tollgate-disable id` ... `tollgate-enable id` block, and reports every
 * suppression that silenced nothing.
 */
export function applySuppressions(diagnostics: Diagnostic[], files: Map<string, SourceFile>): Diagnostic[] {
  const byFile = new Map<string, Suppression[]>();
  for (const [path, source] of files) byFile.set(path, suppressionsOf(source));
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    const list = byFile.get(d.span.file);
    const hit = list?.find((s) => d.span.line >= s.fromLine && d.span.line <= s.toLine && (s.ids === null || s.ids.includes(d.ruleId)));
    if (hit) hit.used = true;
    else kept.push(d);
  }
  for (const list of byFile.values()) {
    for (const s of list) {
      if (s.used) continue;
      kept.push({
        ruleId: 'unused-suppression',
        severity: 'warning',
        message: `This suppression (${s.ids ? s.ids.join(', ') : 'all rules'}) suppresses nothing: remove it.`,
        span: s.comment.span,
      });
    }
  }
  return kept;
}
