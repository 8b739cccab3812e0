import { isAbsolute, relative, sep } from 'node:path';
import type { Diagnostic, SourceFile, Span } from '../model/index.js';
import { byPosition } from '../lint/engine.js';
import { lineText } from '../lint/formatters/common.js';
import {
  tally,
  type Acceptance,
  type AuditResult,
  type ControlResult,
  type ControlStatus,
  type Evidence,
} from './report.js';
import { frameWindow, jsonSafe, printable } from '../lint/printable.js';

export interface AuditFormatInput {
  audit: AuditResult;
  /** Paths are printed relative to this. */
  cwd: string;
  /** The audited path, as given. */
  target: string;
  version: string;
  /** When the report was made (the HTML page an auditor keeps says so). */
  date: Date;
}

/** A file as the report names it: relative to the working directory when inside it, else absolute (an auditor reads ../../../etc/tomcat10 worse than /etc/tomcat10). */
function rel(cwd: string, file: string): string {
  if (!isAbsolute(file)) return file;
  const r = relative(cwd, file);
  return r === '' || r.startsWith('..') || isAbsolute(r) ? file : r.split(sep).join('/');
}

const at = (cwd: string, span: Span): string => `${rel(cwd, span.file)}:${span.line}:${span.column}`;

const sorted = (r: ControlResult): Diagnostic[] => [...r.findings].sort(byPosition);

const place = (cwd: string, span: Span | undefined): { file: string; line: number; column: number } | undefined =>
  span ? { file: rel(cwd, span.file), line: span.line, column: span.column } : undefined;

/**
 * The audit as JSON: who audited what against which release and when, then one entry per control
 * with its status, one-line message, severity (CAT and CCI/NIST for the STIG), evidence, notes,
 * accepted deviations with their justification, and findings with file, line, column, rule and message.
 */
export function formatAuditJson(input: AuditFormatInput): string {
  const { audit, cwd } = input;
  const controls = audit.results.map((r) => ({
    benchmark: r.benchmark,
    control: r.control.id,
    title: r.control.title,
    level: r.control.level,
    severity: r.control.severity,
    ...(r.control.cat ? { cat: r.control.cat } : {}),
    ...(r.control.stigId ? { stigId: r.control.stigId } : {}),
    ...(r.control.cci ? { cci: r.control.cci } : {}),
    ...(r.control.nist ? { nist: r.control.nist } : {}),
    status: r.status,
    message: r.message,
    ...(r.question ? { question: r.question } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    check: r.control.check,
    ...(r.control.fix ? { fix: r.control.fix } : {}),
    rules: r.rules,
    evidence: r.evidence.map((e) => ({
      subject: e.subject,
      found: e.found,
      ...(e.span ? { at: place(cwd, e.span) } : {}),
    })),
    notes: r.notes,
    conflicts: r.conflicts,
    accepted: r.accepted.map((a) => ({
      ...place(cwd, a.diagnostic.span),
      ruleId: a.diagnostic.ruleId,
      message: a.diagnostic.message,
      source: a.source,
      justification: a.justification,
      ...(a.by ? { by: a.by } : {}),
      ...(a.expires ? { expires: a.expires } : {}),
      expired: a.expired,
      ...(a.declared ? { declared: place(cwd, a.declared) } : {}),
    })),
    findings: sorted(r).map((d) => ({
      file: rel(cwd, d.span.file),
      line: d.span.line,
      column: d.span.column,
      ruleId: d.ruleId,
      severity: d.severity,
      message: d.message,
    })),
  }));
  const out = {
    tool: audit.tool,
    date: audit.date.toISOString(),
    target: input.target,
    home: rel(cwd, audit.home),
    benchmark: audit.benchmark,
    release: audit.release,
    letter: audit.letter,
    summary: tally(audit.results),
    controls,
  };
  return jsonSafe(JSON.stringify(out, null, 2)) + '\n';
}

const LABEL: Record<ControlStatus, string> = {
  pass: 'pass',
  fail: 'FAIL',
  accepted: 'accept',
  'not-reviewed': 'review',
  'not-applicable': 'n/a',
  manual: 'manual',
};

function summary(results: readonly ControlResult[]): string {
  const t = tally(results);
  return `${results.length} controls: ${t.pass} pass, ${t.fail} fail, ${t.accepted} accepted, ${t['not-reviewed']} not reviewed, ${t.manual} manual, ${t['not-applicable']} not applicable`;
}

const shown = (cwd: string, e: Evidence): string => `${e.subject}${e.span ? ` (${at(cwd, e.span)})` : ''}: ${e.found}`;

function acceptedText(cwd: string, a: Acceptance): string {
  const who =
    a.source === 'waiver'
      ? `waiver${a.by ? ` by ${a.by}` : ''}${a.expires ? `${a.expired ? ', EXPIRED' : ', until'} ${a.expires}` : ''}`
      : 'suppression';
  return `${at(cwd, a.diagnostic.span)} accepted by ${who}: ${a.justification || '(no reason given)'}`;
}

/** One line per control: status, number, title, and the reason; under it the evidence, notes and accepted deviations. */
export function formatAuditText(input: AuditFormatInput): string {
  const { audit, cwd } = input;
  const width = Math.max(...audit.results.map((r) => r.control.id.length));
  const lines = [
    `${audit.release.title}: ${input.target}`,
    `tollgate ${audit.tool.version}, ${audit.date.toISOString().replace(/\.\d+Z$/, 'Z')}${audit.letter ? ', judged by the letter of the check text' : ''}`,
  ];
  for (const r of audit.results) {
    const head = `${LABEL[r.status].padEnd(6)}  ${r.control.id.padEnd(width)}  ${r.control.title}`;
    let tail: string;
    if (r.status === 'fail')
      tail = sorted(r)
        .map((d) => `${at(cwd, d.span)} ${d.ruleId}`)
        .join(', ');
    else if (r.status === 'manual') tail = `check by hand: ${r.control.check}`;
    else if (r.status === 'not-applicable') tail = r.reason ?? '';
    else if (r.status === 'not-reviewed') tail = r.question ?? '';
    else if (r.status === 'accepted') tail = r.accepted.map((a) => acceptedText(cwd, a)).join('; ');
    else tail = r.evidence.map((e) => shown(cwd, e)).join('; ');
    // Paths, values and reasons come from the user's files: escaped for the terminal.
    lines.push(printable(tail ? `${head}  —  ${tail}` : head));
    const pad = ' '.repeat(8 + width + 2);
    if (r.status === 'fail')
      for (const a of r.accepted.filter((x) => x.expired)) lines.push(printable(`${pad}${acceptedText(cwd, a)}`));
    for (const n of r.notes) lines.push(printable(`${pad}note: ${n}`));
  }
  lines.push('', summary(audit.results));
  return lines.join('\n') + '\n';
}

/** HTML-escaped, after printable(): a file's control characters and bidi overrides are shown, never obeyed. */
function esc(s: string): string {
  return printable(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const CSS = `
:root{--pass:#1a7f37;--accepted:#0969da;--fail:#cf222e;--manual:#9a6700;--na:#57606a;--line:#d0d7de}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;margin:0;padding:28px 36px;background:#fff}
h1{font-size:22px;margin:0 0 4px}
.meta{color:#57606a;margin:0 0 18px}
.meta code{font-size:13px}
.cards{display:flex;gap:12px;margin:0 0 22px;flex-wrap:wrap}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:130px}
.card b{display:block;font-size:24px}
.card.pass b{color:var(--pass)}.card.fail b{color:var(--fail)}.card.accepted b{color:var(--accepted)}.card.not-reviewed b{color:var(--manual)}.card.manual b{color:var(--manual)}.card.not-applicable b{color:var(--na)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:7px 10px;border-bottom:1px solid var(--line)}
th{background:#f6f8fa;font-weight:600;position:sticky;top:0}
td.id{white-space:nowrap;font-variant-numeric:tabular-nums}
.badge{display:inline-block;min-width:98px;text-align:center;border-radius:12px;padding:1px 8px;font-size:12px;font-weight:600;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.accepted{background:var(--accepted)}.badge.not-reviewed{background:var(--manual)}.badge.manual{background:var(--manual)}.badge.not-applicable{background:var(--na)}
tr.fail td{background:#fff5f5}
.level{color:#57606a;white-space:nowrap}
ul{margin:4px 0 0;padding-left:18px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre{margin:3px 0 6px;padding:4px 8px;background:#f6f8fa;border-radius:4px;white-space:pre-wrap;word-break:break-all}
.rule{color:#57606a}
.note{color:#57606a}
@media print{body{padding:0}th{position:static}tr{break-inside:avoid}}
`;

function findingHtml(input: AuditFormatInput, d: Diagnostic, files: Map<string, SourceFile>): string {
  const line = lineText(files.get(d.span.file), d.span.line);
  // At most FRAME characters around the span: a one-line file of megabytes is not quoted whole per finding.
  const shown = line === null ? null : frameWindow(line, d.span.column - 1, d.span.column - 1).text.trim();
  return `<li><code>${esc(at(input.cwd, d.span))}</code> <span class="rule">${esc(d.ruleId)}</span>: ${esc(d.message)}${shown !== null ? `<pre>${esc(shown)}</pre>` : ''}</li>`;
}

function evidenceHtml(input: AuditFormatInput, r: ControlResult): string {
  if (r.evidence.length === 0) return '';
  return `<span class="note">Examined:</span><ul>${r.evidence
    .map(
      (e) =>
        `<li>${esc(e.subject)}${e.span ? ` <code>${esc(at(input.cwd, e.span))}</code>` : ''}: <code>${esc(e.found)}</code></li>`,
    )
    .join('')}</ul>`;
}

function detailHtml(input: AuditFormatInput, r: ControlResult): string {
  const files = input.audit.lint.files;
  const notes = r.notes.map((n) => `<br><span class="note">Note: ${esc(n)}</span>`).join('');
  const accepted = r.accepted.length
    ? `<span class="note">Accepted deviations:</span><ul>${r.accepted
        .map(
          (a) =>
            `<li><code>${esc(at(input.cwd, a.diagnostic.span))}</code> ${esc(a.diagnostic.message)} <b>${a.source === 'waiver' ? 'Waiver' : 'Suppression'}${a.by ? ` by ${esc(a.by)}` : ''}${a.expires ? `${a.expired ? ', expired' : ', until'} ${esc(a.expires)}` : ''}:</b> ${esc(a.justification || '(none)')}</li>`,
        )
        .join('')}</ul>`
    : '';
  if (r.status === 'fail')
    return `<ul>${sorted(r)
      .map((d) => findingHtml(input, d, files))
      .join('')}</ul>${accepted}${notes}`;
  if (r.status === 'manual') return `<span class="note">Check by hand:</span> ${esc(r.control.check)}${notes}`;
  if (r.status === 'not-applicable') return `<span class="note">Not applicable:</span> ${esc(r.reason ?? '')}${notes}`;
  if (r.status === 'not-reviewed')
    return `<span class="note">Not reviewed, the site must answer:</span> ${esc(r.question ?? '')}${evidenceHtml(input, r)}${notes}`;
  return `${accepted}${evidenceHtml(input, r)}<span class="note">Decided by</span> ${r.rules.map((id) => `<code>${esc(id)}</code>`).join(', ')}${notes}`;
}

/** A self-contained page (inline CSS, no script, nothing fetched) an auditor can keep or print. */
export function formatAuditHtml(input: AuditFormatInput): string {
  const { audit } = input;
  const bench = audit.release;
  const t = tally(audit.results);
  const card = (s: ControlStatus, label: string): string => `<div class="card ${s}"><b>${t[s]}</b>${label}</div>`;
  const rows = audit.results.map(
    (r) =>
      `<tr class="${r.status}"><td class="id">${esc(r.control.id)}${r.control.stigId ? `<br><span class="level">${esc(r.control.stigId)}</span>` : ''}</td>` +
      `<td>${esc(r.control.title)}</td><td class="level">${esc(r.control.level)}</td>` +
      `<td><span class="badge ${r.status}">${r.status.replace('-', ' ')}</span></td><td>${detailHtml(input, r)}</td></tr>`,
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(bench.title)}: ${esc(input.target)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${esc(bench.title)}</h1>
<p class="meta">Configuration audited: <code>${esc(input.target)}</code> · ${esc(input.date.toISOString().replace(/\.\d+Z$/, 'Z'))} · tollgate ${esc(input.version)} · ${esc(bench.release)}${bench.releaseDate ? ` (${esc(bench.releaseDate)})` : ''}${audit.letter ? ' · judged by the letter of the check text' : ''}<br>
Pass and fail are decided from the configuration files; manual controls name what to check by hand on the host. Controls: ${esc(bench.source)}.</p>
<div class="cards">${card('pass', 'pass')}${card('fail', 'fail')}${card('accepted', 'accepted')}${card('not-reviewed', 'not reviewed')}${card('manual', 'manual')}${card('not-applicable', 'not applicable')}</div>
<table>
<thead><tr><th>Control</th><th>Title</th><th>Level</th><th>Status</th><th>Details</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</body>
</html>
`;
}
