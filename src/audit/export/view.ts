import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import type { Diagnostic, Span } from '../../model/index.js';
import { byPosition } from '../../lint/engine.js';
import type { BenchmarkId } from '../catalogue.js';
import type { AuditResult, ControlResult, ControlStatus, Evidence as AuditEvidence } from '../report.js';
import { xmlSafe } from '../../lint/printable.js';

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
export type Status = ControlStatus;

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

const evidenceOf = (cwd: string, e: AuditEvidence): Evidence => ({
  subject: e.subject,
  found: e.found,
  ...(e.span ? { where: at(cwd, e.span) } : {}),
});

function control(r: ControlResult, cwd: string): ExportControl {
  const findings = [...r.findings].sort(byPosition).map((d) => finding(cwd, d));
  const accepted = r.accepted
    .filter((a) => !a.expired)
    .map((a): Acceptance => ({
      finding: finding(cwd, a.diagnostic),
      justification: a.justification,
      ...(a.by ? { by: a.by } : {}),
      ...(a.expires ? { expires: a.expires } : {}),
    }));
  const c = r.control;
  return {
    id: c.id,
    title: c.title,
    status: r.status,
    severity: c.severity,
    level: c.cat ?? c.level,
    ...(c.stigId ? { stigId: c.stigId } : {}),
    cci: [...(c.cci ?? [])],
    nist: [...(c.nist ?? [])],
    check: c.check,
    ...(c.fix ? { fix: c.fix } : {}),
    rules: r.rules,
    evidence: r.evidence.map((e) => evidenceOf(cwd, e)),
    findings,
    accepted,
    notes: [...r.notes, ...(r.question ? [`to answer: ${r.question}`] : [])],
    message: r.message,
  };
}

/** The view of an audit the exporters write: the audit's own date, release and tool; paths relative to `cwd` where inside it. */
export function exportView(audit: AuditResult, opts: { cwd: string }): ExportAudit {
  return {
    benchmark: audit.benchmark,
    title: audit.release.title,
    release: audit.release.release,
    ...(audit.release.releaseDate ? { releaseDate: audit.release.releaseDate } : {}),
    source: audit.release.source,
    target: audit.target,
    date: audit.date,
    tool: { name: audit.tool.name, version: audit.tool.version },
    controls: audit.results.map((r) => control(r, opts.cwd)),
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

/**
 * XML text and attribute escaping, with the characters XML 1.0 forbids removed, and C1 controls, bidi
 * overrides and line separators as character references (the same text to a parser, no raw byte that
 * reorders what a reader of the file sees: docs/security.md).
 */
export function xmlEscape(s: string): string {
  return xmlSafe(
    s
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!),
  );
}
