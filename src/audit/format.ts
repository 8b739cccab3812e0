import { isAbsolute, relative, sep } from 'node:path';
import type { Diagnostic, SourceFile } from '../model/index.js';
import { byPosition } from '../lint/engine.js';
import { lineText } from '../lint/formatters/common.js';
import { CATALOGUE } from './catalogue.js';
import { tally, type AuditResult, type ControlResult, type ControlStatus } from './report.js';

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

const at = (cwd: string, d: Diagnostic): string => `${rel(cwd, d.span.file)}:${d.span.line}:${d.span.column}`;

const sorted = (r: ControlResult): Diagnostic[] => [...r.findings].sort(byPosition);

/** The JSON the issue specifies: one entry per control, findings with file, line, column and rule. */
export function formatAuditJson(input: AuditFormatInput): string {
  const out = input.audit.results.map((r) => ({
    benchmark: r.benchmark,
    control: r.control.id,
    title: r.control.title,
    status: r.status,
    findings: sorted(r).map((d) => ({
      file: rel(input.cwd, d.span.file),
      line: d.span.line,
      column: d.span.column,
      ruleId: d.ruleId,
    })),
  }));
  return JSON.stringify(out, null, 2) + '\n';
}

const LABEL: Record<ControlStatus, string> = { pass: 'pass', fail: 'FAIL', manual: 'manual', 'not-applicable': 'n/a' };

function summary(results: readonly ControlResult[]): string {
  const t = tally(results);
  return `${results.length} controls: ${t.pass} pass, ${t.fail} fail, ${t.manual} manual, ${t['not-applicable']} not applicable`;
}

/** One line per control: status, number, title, and where it fails, what to check by hand or why it does not apply. */
export function formatAuditText(input: AuditFormatInput): string {
  const { audit, cwd } = input;
  const width = Math.max(...audit.results.map((r) => r.control.id.length));
  const lines = [`${CATALOGUE[audit.benchmark].title}: ${input.target}`];
  for (const r of audit.results) {
    const head = `${LABEL[r.status].padEnd(6)}  ${r.control.id.padEnd(width)}  ${r.control.title}`;
    let tail = '';
    if (r.status === 'fail')
      tail = sorted(r)
        .map((d) => `${at(cwd, d)} ${d.ruleId}`)
        .join(', ');
    else if (r.status === 'manual') tail = `check by hand: ${r.control.check}`;
    else if (r.status === 'not-applicable') tail = r.reason ?? '';
    else if (r.suppressed.length > 0)
      tail = `accepted by suppression: ${r.suppressed.map((s) => `${at(cwd, s.diagnostic)} ${s.justification || '(no reason given)'}`).join(', ')}`;
    else tail = r.rules.join(', ');
    lines.push(tail ? `${head}  —  ${tail}` : head);
  }
  lines.push('', summary(audit.results));
  return lines.join('\n') + '\n';
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--manual:#9a6700;--na:#57606a;--line:#d0d7de}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;margin:0;padding:28px 36px;background:#fff}
h1{font-size:22px;margin:0 0 4px}
.meta{color:#57606a;margin:0 0 18px}
.meta code{font-size:13px}
.cards{display:flex;gap:12px;margin:0 0 22px;flex-wrap:wrap}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:130px}
.card b{display:block;font-size:24px}
.card.pass b{color:var(--pass)}.card.fail b{color:var(--fail)}.card.manual b{color:var(--manual)}.card.not-applicable b{color:var(--na)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:7px 10px;border-bottom:1px solid var(--line)}
th{background:#f6f8fa;font-weight:600;position:sticky;top:0}
td.id{white-space:nowrap;font-variant-numeric:tabular-nums}
.badge{display:inline-block;min-width:98px;text-align:center;border-radius:12px;padding:1px 8px;font-size:12px;font-weight:600;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.manual{background:var(--manual)}.badge.not-applicable{background:var(--na)}
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
  return `<li><code>${esc(at(input.cwd, d))}</code> <span class="rule">${esc(d.ruleId)}</span>: ${esc(d.message)}${line !== null ? `<pre>${esc(line.trim())}</pre>` : ''}</li>`;
}

function detailHtml(input: AuditFormatInput, r: ControlResult): string {
  const files = input.audit.lint.files;
  if (r.status === 'fail')
    return `<ul>${sorted(r)
      .map((d) => findingHtml(input, d, files))
      .join('')}</ul>`;
  if (r.status === 'manual') return `<span class="note">Check by hand:</span> ${esc(r.control.check)}`;
  if (r.status === 'not-applicable') return `<span class="note">Not applicable:</span> ${esc(r.reason ?? '')}`;
  const by = `<span class="note">Decided by</span> ${r.rules.map((id) => `<code>${esc(id)}</code>`).join(', ')}`;
  if (r.suppressed.length === 0) return by;
  const accepted = r.suppressed.map(
    (s) =>
      `<li><code>${esc(at(input.cwd, s.diagnostic))}</code> ${esc(s.diagnostic.message)} <b>Reason given:</b> ${esc(s.justification || '(none)')}</li>`,
  );
  return `${by}<br><span class="note">Deviations accepted by suppression comments:</span><ul>${accepted.join('')}</ul>`;
}

/** A self-contained page (inline CSS, no script, nothing fetched) an auditor can keep or print. */
export function formatAuditHtml(input: AuditFormatInput): string {
  const { audit } = input;
  const bench = CATALOGUE[audit.benchmark];
  const t = tally(audit.results);
  const card = (s: ControlStatus, label: string): string => `<div class="card ${s}"><b>${t[s]}</b>${label}</div>`;
  const rows = audit.results.map(
    (r) =>
      `<tr class="${r.status}"><td class="id">${esc(r.control.id)}${r.control.stigId ? `<br><span class="level">${esc(r.control.stigId)}</span>` : ''}</td>` +
      `<td>${esc(r.control.title)}</td><td class="level">${esc(r.control.level)}</td>` +
      `<td><span class="badge ${r.status}">${r.status === 'not-applicable' ? 'not applicable' : r.status}</span></td><td>${detailHtml(input, r)}</td></tr>`,
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
<p class="meta">Configuration audited: <code>${esc(input.target)}</code> · ${esc(input.date.toISOString().replace(/\.\d+Z$/, 'Z'))} · tollgate ${esc(input.version)}<br>
Pass and fail are decided from the configuration files; manual controls name what to check by hand on the host. Controls: ${esc(bench.source)}.</p>
<div class="cards">${card('pass', 'pass')}${card('fail', 'fail')}${card('manual', 'manual')}${card('not-applicable', 'not applicable')}</div>
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
