import { isoSecond, sha256, type ExportAudit, type ExportControl, type Severity } from './view.js';
import { jsonSafe } from '../../lint/printable.js';

/**
 * The Heimdall Data Format (HDF): the JSON `inspec exec --reporter json` writes (inspecjs's
 * ExecJSON 1.0), which Heimdall, MITRE's SAF tools and eMASS uploads read. One profile (the
 * benchmark release), one control per benchmark control, and per control the results InSpec
 * would have: a `passed` result per piece of evidence, a `failed` one per finding, a `skipped`
 * one for a control to check by hand or that needs a site fact. How Heimdall then reads a
 * control (inspecjs's rules): any failed result -> Failed, passed only -> Passed, skipped only ->
 * Not Reviewed, impact 0 -> Not Applicable, waiver_data.skipped_due_to_waiver -> Waived.
 */

/** InSpec's impact per severity, as MITRE's baselines set it (high 0.7, medium 0.5, low 0.3). */
const IMPACT: Record<Severity, number> = { high: 0.7, medium: 0.5, low: 0.3 };

interface HdfResult {
  status: 'passed' | 'failed' | 'skipped';
  code_desc: string;
  message?: string;
  skip_message?: string;
  resource?: string;
  run_time: number;
  start_time: string;
}

function results(c: ExportControl, start: string): HdfResult[] {
  const r = (status: HdfResult['status'], code_desc: string, extra: Partial<HdfResult> = {}): HdfResult => ({
    status,
    code_desc,
    ...extra,
    run_time: 0,
    start_time: start,
  });
  const notes = c.notes.length > 0 ? { message: c.notes.join('\n') } : {};
  switch (c.status) {
    case 'pass':
      // A pass with nothing listed would read as a Profile Error in Heimdall: its message stands in.
      return (c.evidence.length > 0 ? c.evidence : [{ subject: c.id, found: c.message }]).map((e) =>
        r('passed', `${e.subject}: ${e.found}`, {
          ...('where' in e && e.where ? { resource: e.where } : {}),
          ...notes,
        }),
      );
    case 'fail':
      return c.findings.map((f) => r('failed', `${f.where} ${f.ruleId}`, { message: f.message, resource: f.where }));
    case 'accepted':
      // The finding is still there: its result says so; waiver_data says who accepted it and why.
      return c.accepted.map((a) =>
        r('failed', `${a.finding.where} ${a.finding.ruleId}`, {
          message: `${a.finding.message}\naccepted deviation: ${a.justification || '(no reason given)'}`,
          resource: a.finding.where,
        }),
      );
    case 'not-reviewed':
    case 'manual':
    case 'not-applicable':
      return [r('skipped', c.message, { skip_message: c.message })];
  }
}

function control(c: ExportControl, start: string): Record<string, unknown> {
  const descriptions = [
    { label: 'default', data: c.title },
    { label: 'check', data: c.check },
    ...(c.fix ? [{ label: 'fix', data: c.fix }] : []),
    ...(c.notes.length > 0 ? [{ label: 'notes', data: c.notes.join('\n') }] : []),
  ];
  const accepted = c.status === 'accepted';
  return {
    id: c.id,
    title: c.title,
    desc: c.status === 'not-applicable' ? c.message : c.title,
    descriptions,
    // Not applicable is impact 0 in HDF (how MITRE's profiles mark it); the severity tag keeps the benchmark's.
    impact: c.status === 'not-applicable' ? 0 : IMPACT[c.severity],
    refs: [],
    tags: {
      severity: c.severity,
      ...(c.level.startsWith('CAT') ? { cat: c.level } : { cis_level: c.level }),
      gid: c.id,
      ...(c.stigId ? { stig_id: c.stigId } : {}),
      ...(c.cci.length > 0 ? { cci: c.cci } : {}),
      ...(c.nist.length > 0 ? { nist: c.nist } : {}),
      tollgate_status: c.status,
      tollgate_rules: c.rules,
    },
    code: c.rules.length > 0 ? `# decided by tollgate rules: ${c.rules.join(', ')}` : '',
    source_location: { ref: 'tollgate', line: 0 },
    ...(accepted
      ? {
          waiver_data: {
            justification: c.accepted.map((a) => a.justification || '(no reason given)').join('\n'),
            run: true,
            skipped_due_to_waiver: true,
            message: c.accepted
              .map(
                (a) =>
                  `${a.finding.where}${a.by ? ` accepted by ${a.by}` : ''}${a.expires ? ` until ${a.expires}` : ''}`,
              )
              .join('\n'),
            ...(c.accepted[0]?.expires ? { expiration_date: c.accepted[0].expires } : {}),
          },
        }
      : {}),
    results: results(c, start),
  };
}

/** A control as the benchmark states it, without this audit's outcome. */
const definition = (c: ExportControl): unknown => [
  c.id,
  c.title,
  c.severity,
  c.level,
  c.stigId,
  c.cci,
  c.nist,
  c.check,
  c.fix,
];

/** The audit as HDF JSON (deterministic: every time is the audit's date, the sha256 is the profile's content). */
export function formatAuditHdf(audit: ExportAudit): string {
  const start = isoSecond(audit.date);
  const controls = audit.controls.map((c) => control(c, start));
  const profileBody = {
    name: `tollgate-${audit.benchmark}`,
    title: audit.title,
    version: audit.release,
    maintainer: audit.tool.name,
    summary: `${audit.title}, decided from the configuration files by ${audit.tool.name} ${audit.tool.version}. Controls: ${audit.source}.`,
    license: 'Apache-2.0',
    copyright: '',
    copyright_email: '',
    supports: [],
    attributes: [],
    groups: audit.controls.map((c) => ({ id: c.id, title: c.title, controls: [c.id] })),
    status: 'loaded',
    controls,
  };
  const hdf = {
    platform: { name: audit.tool.name, release: audit.tool.version, target_id: audit.target },
    // The profile's digest is over what it is (its controls as the benchmark states them), not over this run's results.
    profiles: [
      { ...profileBody, sha256: sha256(JSON.stringify({ ...profileBody, controls: audit.controls.map(definition) })) },
    ],
    statistics: { duration: 0 },
    version: audit.tool.version,
    passthrough: { auditor: `${audit.tool.name} ${audit.tool.version}`, date: start, target: audit.target },
  };
  return jsonSafe(JSON.stringify(hdf, null, 2)) + '\n';
}
