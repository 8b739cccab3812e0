import { isoSecond, xmlEscape as x, type ExportAudit, type ExportControl, type Status } from './view.js';

/**
 * XCCDF 1.2 (NIST IR 7275r4): one Benchmark document holding the benchmark's controls as Rules
 * and the audit as a TestResult whose rule-results refer to them, so the file stands alone and
 * validates against the XCCDF 1.2 schema (`oscap xccdf validate`). Ids follow the 1.2 naming
 * (`xccdf_<namespace>_<type>_<name>`) with the namespace `tollgate`.
 */

const NS = 'tollgate';

/** A name part of an XCCDF id: an NCName, so only letters, digits, '.', '-' and '_'. */
const idPart = (s: string): string => s.replace(/[^A-Za-z0-9._-]/g, '-');

export const ruleId = (control: string): string => `xccdf_${NS}_rule_${idPart(control)}`;
export const benchmarkId = (benchmark: string): string => `xccdf_${NS}_benchmark_${idPart(benchmark)}`;

/** The rule-result a status is: manual and not-reviewed are both "not checked" (a person must decide). */
const RESULT: Record<Status, string> = {
  pass: 'pass',
  fail: 'fail',
  // An accepted deviation is still a deviation: fail, with who accepted it and why in a message.
  // (XCCDF's override would turn it into pass, but OpenSCAP 1.3's schematron then refuses every
  // other rule-result of the TestResult: its rule checks new-result on rule-results without one.)
  accepted: 'fail',
  'not-reviewed': 'notchecked',
  manual: 'notchecked',
  'not-applicable': 'notapplicable',
};

const WEIGHT = '10.0';

/** The check system is tollgate's rules: which decide the control, or that a person does. */
const checkContent = (c: ExportControl): string =>
  c.rules.length > 0 ? `Decided from the configuration files by ${c.rules.join(', ')}` : `Checked by hand: ${c.check}`;

function rule(c: ExportControl): string {
  const refs = c.nist.map(
    (n) => `      <reference href="https://csrc.nist.gov/pubs/sp/800/53/r4/upd3/final">${x(n)}</reference>`,
  );
  const idents = c.cci.map((cci) => `      <ident system="http://cyber.mil/cci">${x(cci)}</ident>`);
  return [
    `    <Rule id="${ruleId(c.id)}" selected="true" severity="${c.severity}" weight="${WEIGHT}">`,
    ...(c.stigId ? [`      <version>${x(c.stigId)}</version>`] : []),
    `      <title>${x(c.title)}</title>`,
    `      <description>${x(`${c.level}. ${c.check}`)}</description>`,
    ...refs,
    ...idents,
    ...(c.fix ? [`      <fixtext>${x(c.fix)}</fixtext>`] : []),
    `      <check system="urn:${NS}:rules">`,
    `        <check-content>${x(checkContent(c))}</check-content>`,
    `      </check>`,
    `    </Rule>`,
  ].join('\n');
}

function ruleResult(c: ExportControl, time: string): string {
  const lines = [
    `      <rule-result idref="${ruleId(c.id)}" time="${time}" severity="${c.severity}" weight="${WEIGHT}">`,
  ];
  lines.push(`        <result>${RESULT[c.status]}</result>`);
  for (const cci of c.cci) lines.push(`        <ident system="http://cyber.mil/cci">${x(cci)}</ident>`);
  const messages: { severity: 'error' | 'warning' | 'info'; text: string }[] = [];
  if (c.status === 'fail')
    for (const f of c.findings) messages.push({ severity: 'error', text: `${f.where} ${f.ruleId}: ${f.message}` });
  else if (c.status === 'accepted')
    for (const a of c.accepted) {
      messages.push({ severity: 'warning', text: `${a.finding.where} ${a.finding.ruleId}: ${a.finding.message}` });
      messages.push({
        severity: 'info',
        text: `accepted deviation${a.by ? ` by ${a.by}` : ' (suppression comment)'}${a.expires ? `, until ${a.expires}` : ''}: ${a.justification || '(no reason given)'}`,
      });
    }
  else if (c.status === 'pass')
    for (const e of c.evidence)
      messages.push({ severity: 'info', text: `${e.where ? `${e.where} ` : ''}${e.subject}: ${e.found}` });
  else messages.push({ severity: 'info', text: c.message });
  for (const n of c.notes) messages.push({ severity: 'info', text: n });
  for (const m of messages) lines.push(`        <message severity="${m.severity}">${x(m.text)}</message>`);
  lines.push(
    `        <check system="urn:${NS}:rules">`,
    `          <check-content>${x(checkContent(c))}</check-content>`,
    `        </check>`,
  );
  lines.push(`      </rule-result>`);
  return lines.join('\n');
}

/** The audit as an XCCDF 1.2 Benchmark with its TestResult (deterministic: every time is the audit's date). */
export function formatAuditXccdf(audit: ExportAudit): string {
  const time = isoSecond(audit.date);
  const bench = benchmarkId(audit.benchmark);
  const decided = audit.controls.filter((c) => c.status === 'pass' || c.status === 'fail' || c.status === 'accepted');
  const passed = decided.filter((c) => RESULT[c.status] === 'pass').length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Benchmark xmlns="http://checklists.nist.gov/xccdf/1.2" id="${bench}" resolved="true" xml:lang="en">
  <status date="${time.slice(0, 10)}">accepted</status>
  <title>${x(audit.title)}</title>
  <description>${x(`${audit.title}, as ${audit.tool.name} audits it from the configuration files. Controls: ${audit.source}.`)}</description>
  <platform idref="cpe:/a:apache:tomcat"/>
  <version>${x(audit.release || audit.tool.version)}</version>
  <metadata>
    <dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">${x(audit.tool.name)}</dc:creator>
    <dc:source xmlns:dc="http://purl.org/dc/elements/1.1/">${x(audit.source)}</dc:source>
  </metadata>
${audit.controls.map(rule).join('\n')}
  <TestResult id="xccdf_${NS}_testresult_${audit.benchmark.replace(/[^A-Za-z0-9.-]/g, '-')}" start-time="${time}" end-time="${time}" test-system="cpe:/a:${NS}:${NS}:${x(audit.tool.version)}" version="${x(audit.release || audit.tool.version)}">
    <benchmark href="#${bench}" id="${bench}"/>
    <title>${x(`${audit.title}: ${audit.target}`)}</title>
    <target>${x(audit.target)}</target>
${audit.controls.map((c) => ruleResult(c, time)).join('\n')}
    <score system="urn:xccdf:scoring:flat" maximum="${(decided.length * Number(WEIGHT)).toFixed(1)}">${(passed * Number(WEIGHT)).toFixed(1)}</score>
  </TestResult>
</Benchmark>
`;
}
