import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import type { Diagnostic, Span } from '../../model/index.js';
import { byPosition } from '../../lint/engine.js';
import { CATALOGUE, type BenchmarkId } from '../catalogue.js';
import type { AuditResult, ControlResult } from '../report.js';

/**
 * What the assessor formats (HDF, XCCDF, CKL) say about an audit, read once from the audit's
 * result: every exporter maps this view, so the three agree on each control's status, evidence,
 * severity and references, and none reads the audit's model itself.
 */
export interface ExportAudit {
  benchmark: BenchmarkId;
  /** The benchmark's title, release included. */
  title: string;
  /** The release as its publisher names it (`V2R1`, `v1.0.0`). */
  release: string;
  /** The date the publisher gives the release (ISO date), when known. */
  releaseDate?: string;
  /** Where the control list comes from. */
  source: string;
  /** The audited base, as given. */
  target: string;
  /** When the audit was made: every date in the exports is this one, so an export is a function of its input. */
  date: Date;
  tool: { name: string; version: string };
  controls: ExportControl[];
}

export type Severity = 'high' | 'medium' | 'low';

/**
 * A control's outcome: decided from the files (pass, fail), a finding a person accepted, a control
 * that needs a site fact not given (not reviewed), one about something the base lacks, or one to
 * check by hand.
 */
export type Status = 'pass' | 'fail' | 'accepted' | 'not-reviewed' | 'not-applicable' | 'manual';

export interface ExportControl {
  id: string;
  title: string;
  status: Status;
  severity: Severity;
  /** STIG: `CAT I` / `CAT II` / `CAT III`; CIS: the profile level (`Level 1`). */
  level: string;
  /** STIG rule version (TCAT-AS-...). */
  stigId?: string;
  cci: string[];
  nist: string[];
  /** What to check, in a line (the check text's gist). */
  check: string;
  fix?: string;
  /** The rules that decide the control. */
  rules: string[];
  /** What was examined and the value found (passes and failures alike). */
  evidence: Evidence[];
  /** What fails the control. */
  findings: Finding[];
  /** Findings a person accepted, with the justification. */
  accepted: Acceptance[];
  /** Notes an assessor must read beside the status (a pass on Tomcat's default). */
  notes: string[];
  /** The status with its reason in a line. */
  message: string;
}

export interface Evidence {
  subject: string;
  found: string;
  /** file:line:column, when the value is in a file. */
  where?: string;
}

export interface Finding {
  ruleId: string;
  message: string;
  where: string;
}

export interface Acceptance {
  finding: Finding;
  justification: string;
  by?: string;
  expires?: string;
}

/** A file as the reports name it: relative to the working directory when inside it, else absolute. */
export function relPath(cwd: string, file: string): string {
  if (!isAbsolute(file)) return file;
  const r = relative(cwd, file);
  return r === '' || r.startsWith('..') || isAbsolute(r) ? file : r.split(sep).join('/');
}

const at = (cwd: string, s: Span): string => `${relPath(cwd, s.file)}:${s.line}:${s.column}`;

const finding = (cwd: string, d: Diagnostic): Finding => ({
  ruleId: d.ruleId,
  message: d.message,
  where: at(cwd, d.span),
});

/** `CAT I (high)` -> high; a CIS level maps as the audit's severity does: Level 1 medium, Level 2 low. */
function severityOf(level: string): Severity {
  const m = /\((high|medium|low)\)/.exec(level);
  if (m) return m[1] as Severity;
  return level === 'Level 1' ? 'medium' : 'low';
}

function messageOf(r: ControlResult, cwd: string): string {
  switch (r.status) {
    case 'fail':
      return [...r.findings]
        .sort(byPosition)
        .map((d) => `${at(cwd, d.span)} ${d.message}`)
        .join('\n');
    case 'manual':
      return `check by hand: ${r.control.check}`;
    case 'not-applicable':
      return `not applicable: ${r.reason ?? ''}`;
    case 'pass':
      return r.suppressed.length > 0
        ? `accepted deviation: ${r.suppressed.map((s) => s.justification || '(no reason given)').join('; ')}`
        : `decided by ${r.rules.join(', ')}: no finding`;
  }
}

/** The view of an audit the exporters write. */
export function exportView(
  audit: AuditResult,
  opts: { cwd: string; target: string; version: string; date: Date },
): ExportAudit {
  const bench = CATALOGUE[audit.benchmark];
  const release = /\b(V\d+R\d+|v\d+\.\d+\.\d+)\b/.exec(bench.title)?.[1] ?? '';
  return {
    benchmark: audit.benchmark,
    title: bench.title,
    release,
    source: bench.source,
    target: opts.target,
    date: opts.date,
    tool: { name: 'tollgate', version: opts.version },
    controls: audit.results.map((r): ExportControl => {
      const findings = [...r.findings].sort(byPosition).map((d) => finding(opts.cwd, d));
      const accepted = r.suppressed.map((s): Acceptance => ({
        finding: finding(opts.cwd, s.diagnostic),
        justification: s.justification,
      }));
      // A pass whose findings were all accepted by a suppression comment is an accepted deviation, never a bare pass.
      const status: Status = r.status === 'pass' && accepted.length > 0 ? 'accepted' : r.status;
      const evidence: Evidence[] =
        status === 'pass'
          ? [{ subject: r.rules.join(', '), found: 'no finding' }]
          : [...findings, ...accepted.map((a) => a.finding)].map((f) => ({
              subject: f.ruleId,
              found: f.message,
              where: f.where,
            }));
      return {
        id: r.control.id,
        title: r.control.title,
        status,
        severity: severityOf(r.control.level),
        level: r.control.level.replace(/ \((high|medium|low)\)$/, ''),
        ...(r.control.stigId ? { stigId: r.control.stigId } : {}),
        cci: [],
        nist: [],
        check: r.control.check,
        rules: r.rules,
        evidence,
        findings,
        accepted,
        notes: [],
        message: messageOf(r, opts.cwd),
      };
    }),
  };
}

/** The audit date as the formats write it: ISO 8601 to the second, UTC. */
export const isoSecond = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/** A stable identifier derived from the content (the same input, the same id): sha256, hex. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** A UUID-shaped identifier derived from a name (RFC 4122 version 5 layout over SHA-1), for STIG Viewer's uuid fields. */
export function nameUuid(name: string): string {
  const h = createHash('sha1').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** XML text and attribute escaping, with the characters XML 1.0 forbids removed. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
