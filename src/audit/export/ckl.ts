import { nameUuid, xmlEscape as x, type ExportAudit, type ExportControl, type Status } from './view.js';

/**
 * A DISA STIG Viewer checklist (.ckl), laid out as STIG Viewer 2.x writes one: CHECKLIST with the
 * ASSET, then STIGS/iSTIG with the STIG_INFO and one VULN per control; each VULN has its
 * STIG_DATA attributes in STIG Viewer's order, then STATUS, FINDING_DETAILS, COMMENTS and the
 * severity override pair. What an attribute has no source for stays empty, as in STIG Viewer's
 * own files.
 */

/** STIG Viewer's four statuses. An accepted deviation stays Open: the finding is there, the COMMENTS say who accepted it. */
const STATUS: Record<Status, string> = {
  pass: 'NotAFinding',
  fail: 'Open',
  accepted: 'Open',
  'not-reviewed': 'Not_Reviewed',
  manual: 'Not_Reviewed',
  'not-applicable': 'Not_Applicable',
};

const el = (indent: number, name: string, value: string): string =>
  `${'\t'.repeat(indent)}<${name}>${x(value)}</${name}>`;

function siData(name: string, value: string | null): string {
  const body = value === null ? '' : `\n${el(5, 'SID_DATA', value)}`;
  return `\t\t\t\t<SI_DATA>\n${el(5, 'SID_NAME', name)}${body}\n\t\t\t\t</SI_DATA>`;
}

function stigData(name: string, value: string): string {
  return `\t\t\t\t<STIG_DATA>\n${el(5, 'VULN_ATTRIBUTE', name)}\n${el(5, 'ATTRIBUTE_DATA', value)}\n\t\t\t\t</STIG_DATA>`;
}

function details(c: ExportControl): string {
  switch (c.status) {
    case 'pass':
      return [
        'Examined:',
        ...c.evidence.map((e) => `${e.where ? `${e.where} ` : ''}${e.subject}: ${e.found}`),
        ...c.notes,
      ].join('\n');
    case 'fail':
      return c.findings.map((f) => `${f.where} ${f.ruleId}: ${f.message}`).join('\n');
    case 'accepted':
      return c.accepted.map((a) => `${a.finding.where} ${a.finding.ruleId}: ${a.finding.message}`).join('\n');
    default:
      return c.message;
  }
}

function comments(audit: ExportAudit, c: ExportControl): string {
  const by = `${audit.tool.name} ${audit.tool.version}`;
  if (c.status === 'accepted')
    return c.accepted
      .map(
        (a) =>
          `Accepted deviation${a.by ? ` by ${a.by}` : ' (suppression comment)'}${a.expires ? `, until ${a.expires}` : ''}: ${a.justification || '(no reason given)'}`,
      )
      .join('\n');
  if (c.status === 'manual' || c.status === 'not-reviewed') return `Not decided by ${by}: a person checks it.`;
  return `Decided from the configuration files by ${by}${c.rules.length > 0 ? ` (${c.rules.join(', ')})` : ''}.`;
}

function vuln(audit: ExportAudit, c: ExportControl, stigUuid: string, stigRef: string): string {
  const data: [string, string][] = [
    ['Vuln_Num', c.id],
    ['Severity', c.severity],
    ['Group_Title', c.title],
    ['Rule_ID', ''],
    ['Rule_Ver', c.stigId ?? ''],
    ['Rule_Title', c.title],
    ['Vuln_Discuss', ''],
    ['IA_Controls', ''],
    ['Check_Content', c.check],
    ['Fix_Text', c.fix ?? ''],
    ['False_Positives', ''],
    ['False_Negatives', ''],
    ['Documentable', 'false'],
    ['Mitigations', ''],
    ['Potential_Impact', ''],
    ['Third_Party_Tools', ''],
    ['Mitigation_Control', ''],
    ['Responsibility', ''],
    ['Security_Override_Guidance', ''],
    ['Check_Content_Ref', 'M'],
    ['Weight', '10.0'],
    ['Class', 'Unclass'],
    ['STIGRef', stigRef],
    ['TargetKey', ''],
    ['STIG_UUID', stigUuid],
    ['LEGACY_ID', ''],
    ['LEGACY_ID', ''],
    ...c.cci.map((cci): [string, string] => ['CCI_REF', cci]),
  ];
  return [
    '\t\t\t<VULN>',
    ...data.map(([n, v]) => stigData(n, v)),
    el(4, 'STATUS', STATUS[c.status]),
    el(4, 'FINDING_DETAILS', details(c)),
    el(4, 'COMMENTS', comments(audit, c)),
    el(4, 'SEVERITY_OVERRIDE', ''),
    el(4, 'SEVERITY_JUSTIFICATION', ''),
    '\t\t\t</VULN>',
  ].join('\n');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO date as DISA writes it in releaseinfo: `2021-07-23` -> `23 Jul 2021`. */
function stigDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}` : iso;
}

/** The audit as a STIG Viewer checklist (deterministic: the uuids derive from the benchmark and release). */
export function formatAuditCkl(audit: ExportAudit): string {
  const uuid = nameUuid(`tollgate:${audit.benchmark}:${audit.release}`);
  const version = /^V(\d+)R(\d+)$/.exec(audit.release);
  const date = audit.releaseDate ? ` Benchmark Date: ${stigDate(audit.releaseDate)}` : '';
  const releaseInfo = version ? `Release: ${version[2]}${date}` : audit.release;
  const stigRef = `${audit.title}${version ? ` :: Version ${version[1]}, ${releaseInfo}` : ''}`;
  const asset = [
    el(2, 'ROLE', 'None'),
    el(2, 'ASSET_TYPE', 'Computing'),
    el(2, 'HOST_NAME', ''),
    el(2, 'HOST_IP', ''),
    el(2, 'HOST_MAC', ''),
    el(2, 'HOST_FQDN', ''),
    el(2, 'TARGET_COMMENT', `CATALINA_BASE ${audit.target}`),
    el(2, 'TECH_AREA', 'Application Review'),
    el(2, 'TARGET_KEY', ''),
    el(2, 'WEB_OR_DATABASE', 'false'),
    el(2, 'WEB_DB_SITE', ''),
    el(2, 'WEB_DB_INSTANCE', ''),
  ];
  const info = [
    siData('version', version ? version[1]! : audit.release),
    siData('classification', 'UNCLASSIFIED'),
    siData('customname', null),
    siData('stigid', audit.benchmark),
    siData('description', `${audit.title}. Controls: ${audit.source}.`),
    siData('filename', `tollgate-${audit.benchmark}.ckl`),
    siData('releaseinfo', releaseInfo),
    siData('title', audit.title),
    siData('uuid', uuid),
    siData('notice', 'terms-of-use'),
    siData('source', null),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<!--${x(`${audit.tool.name} ${audit.tool.version}`).replace(/--/g, '- -')}-->
<CHECKLIST>
\t<ASSET>
${asset.join('\n')}
\t</ASSET>
\t<STIGS>
\t\t<iSTIG>
\t\t\t<STIG_INFO>
${info.join('\n')}
\t\t\t</STIG_INFO>
${audit.controls.map((c) => vuln(audit, c, uuid, stigRef)).join('\n')}
\t\t</iSTIG>
\t</STIGS>
</CHECKLIST>
`;
}
