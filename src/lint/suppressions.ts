import type { Diagnostic, Located, SourceFile } from '../model/index.js';

/** Whether a suppression is spent: shared by the pieces a partial `tollgate-enable` cuts a range into. */
interface Usage {
  comment: Located<string>;
  ids: string[] | null;
  /** The text after "::" (or "--"), if any. */
  justification: string;
  used: boolean;
}

/** A finding a suppression comment silenced, with the reason the comment gives. */
export interface SuppressedDiagnostic {
  diagnostic: Diagnostic;
  justification: string;
}

interface Suppression {
  ids: string[] | null;
  fromLine: number;
  toLine: number;
  usage: Usage;
}

export interface SuppressionOptions {
  /** Whether an id names a rule: a suppression naming no rule is reported as such. */
  isRule?: (id: string) => boolean;
  /** Rules turned off for this run: a suppression of those is not "unused". */
  isOff?: (id: string) => boolean;
}

/**
 * `tollgate-disable[-next-line] ids :: reason`. ESLint's "-- reason" is read too, but
 * XML forbids "--" inside a comment (Tomcat's parser rejects the file), so "::" is the form to use.
 */
const DIRECTIVE = /^\s*tollgate-(disable-next-line|disable|enable)\b([^]*?)(?:(?:--|::)([^]*))?$/;

const OPEN = Number.MAX_SAFE_INTEGER;

function parseIds(text: string): string[] | null {
  const ids = text.split(/[\s,]+/).filter((s) => s !== '');
  return ids.length ? ids : null;
}

/**
 * The last line of the start tag that begins on `line` (its first non-blank character is `<` and a
 * name), found by scanning to its `>` outside quoted attribute values; `line` itself otherwise. A
 * `disable-next-line` before a start tag written over several lines reaches its attributes on the
 * later lines (`<Host name="x"` / `autoDeploy="true">`).
 */
function startTagEnd(text: string | undefined, line: number): number {
  if (text === undefined) return line;
  let at = 0;
  for (let l = 1; l < line; l++) {
    at = text.indexOf('\n', at);
    if (at < 0) return line;
    at++;
  }
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  if (text[at] !== '<' || !/[A-Za-z_:]/.test(text[at + 1] ?? '')) return line;
  let end = line;
  let quote = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') end++;
    else if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return end;
    else if (c === '<') return line;
  }
  return line;
}

function suppressionsOf(comments: readonly Located<string>[], usages: Usage[], text?: string): Suppression[] {
  const list: Suppression[] = [];
  for (const c of comments) {
    // Every directive names "tollgate-": most comments are prose, which the regex need not read.
    if (!c.value.includes('tollgate-')) continue;
    const m = DIRECTIVE.exec(c.value);
    if (!m) continue;
    const ids = parseIds(m[2]!);
    if (m[1] === 'enable') {
      enable(list, ids, c.span.line);
      continue;
    }
    const usage: Usage = { comment: c, ids, justification: (m[3] ?? '').trim(), used: false };
    usages.push(usage);
    const next = c.span.endLine + 1;
    list.push(
      m[1] === 'disable-next-line'
        ? { ids, fromLine: next, toLine: startTagEnd(text, next), usage }
        : { ids, fromLine: c.span.endLine, toLine: OPEN, usage },
    );
  }
  return list;
}

/**
 * Ends the open ranges an enable names. Enabling some of a range's ids ends the
 * range and opens one for the ids left, so `disable a, b` ... `enable a` keeps b off.
 */
function enable(list: Suppression[], ids: string[] | null, line: number): void {
  for (const s of [...list]) {
    if (s.toLine !== OPEN) continue;
    if (ids === null) {
      s.toLine = line;
      continue;
    }
    if (s.ids === null) continue;
    const left = s.ids.filter((id) => !ids.includes(id));
    if (left.length === s.ids.length) continue;
    s.toLine = line;
    if (left.length) list.push({ ids: left, fromLine: line, toLine: OPEN, usage: s.usage });
  }
}

/**
 * Drops diagnostics silenced by `<!-- tollgate-disable-next-line id :: reason -->`
 * or a `tollgate-disable id` ... `tollgate-enable id` block, and reports every
 * suppression that silenced nothing, or names no rule.
 */
export function applySuppressions(
  diagnostics: Diagnostic[],
  files: Map<string, SourceFile>,
  opts: SuppressionOptions = {},
): { kept: Diagnostic[]; suppressed: SuppressedDiagnostic[] } {
  // Only files with a suppression are filed: a base of 10,000 applications has a few, or none.
  const byFile = new Map<string, Suppression[]>();
  const usages: Usage[] = [];
  files.forEach((source, path) => {
    if (!source.comments?.length) return;
    const list = suppressionsOf(source.comments, usages, source.text);
    if (list.length) byFile.set(path, list);
  });
  const kept: Diagnostic[] = [];
  const suppressed: SuppressedDiagnostic[] = [];
  for (const d of diagnostics) {
    const list = byFile.get(d.span.file);
    const hit = list?.find(
      (s) => d.span.line >= s.fromLine && d.span.line <= s.toLine && (s.ids === null || s.ids.includes(d.ruleId)),
    );
    if (hit) {
      hit.usage.used = true;
      suppressed.push({ diagnostic: d, justification: hit.usage.justification });
    } else kept.push(d);
  }
  for (const u of usages) {
    const unknown = opts.isRule ? (u.ids ?? []).filter((id) => !opts.isRule!(id)) : [];
    if (unknown.length) {
      kept.push({
        ruleId: 'unused-suppression',
        severity: 'warning',
        message: `This suppression names ${unknown.map((id) => `"${id}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a rule' : 'are not rules'}: check the spelling.`,
        span: u.comment.span,
      });
      continue;
    }
    if (u.used || (u.ids !== null && opts.isOff && u.ids.every((id) => opts.isOff!(id)))) continue;
    kept.push({
      ruleId: 'unused-suppression',
      severity: 'warning',
      message: `This suppression (${u.ids ? u.ids.join(', ') : 'all rules'}) suppresses nothing: remove it.`,
      span: u.comment.span,
    });
  }
  return { kept, suppressed };
}
