/**
 * Debian's stock Tomcat 10.1 (the tomcat10, tomcat10-admin and tomcat10-docs packages .ci/run
 * installs: CATALINA_BASE /var/lib/tomcat10, CATALINA_HOME /usr/share/tomcat10) audited against
 * the STIG to the three assessor formats, each opened by the real tool: inspecjs reads the HDF,
 * Heimdall Lite shows it in headless Chromium (screenshots in test-output/audit-formats/), OpenSCAP
 * validates the XCCDF, and the checklist has STIG Viewer's shape.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile, convertFileContextual, type ContextualizedEvaluation } from 'inspecjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { needPackages } from '../system-packages.js';
import { checkCklShape, openInHeimdall, oscapValidate, readXml } from './export-tools.js';

const root = join(import.meta.dirname, '..', '..');
const out = join(root, 'test-output', 'audit-formats');
const DATE = '2026-03-01T09:30:00Z';

async function audit(format: string): Promise<string> {
  needPackages('tomcat10', 'tomcat10-admin', 'tomcat10-docs');
  let o = '';
  let e = '';
  const code = await main(
    [
      'audit',
      '/var/lib/tomcat10',
      '--home',
      '/usr/share/tomcat10',
      '--benchmark',
      'stig-tomcat',
      '--format',
      format,
      '--date',
      DATE,
      // Debian's base links conf/ to /etc/tomcat10: a trusted installation, read with --follow-symlinks (docs/security.md).
      '--follow-symlinks',
    ],
    { stdout: (t) => (o += t), stderr: (t) => (e += t), cwd: root },
  );
  expect(e).toBe('');
  // The stock install fails some STIG controls (file modes, owners, the shutdown port): exit 1.
  expect(code).toBe(1);
  return o;
}

const files = {
  hdf: join(out, 'debian-stig.hdf.json'),
  xccdf: join(out, 'debian-stig.xccdf.xml'),
  ckl: join(out, 'debian-stig.ckl'),
};
let json: { control: string; status: string }[];

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  for (const format of ['hdf', 'xccdf', 'ckl'] as const) writeFileSync(files[format], await audit(format));
  json = (JSON.parse(await audit('json')) as { controls: { control: string; status: string }[] }).controls;
});

/** What Heimdall shows for each of tollgate's statuses. */
const HEIMDALL: Record<string, string> = {
  pass: 'Passed',
  fail: 'Failed',
  manual: 'Not Reviewed',
  'not-reviewed': 'Not Reviewed',
  'not-applicable': 'Not Applicable',
  accepted: 'Not Applicable',
};

describe("Debian's stock tomcat10 audited against the STIG, in the assessors' formats", () => {
  it('HDF: inspecjs recognises an InSpec execution and gives every control the status the audit gave', async () => {
    const text = readFileSync(files.hdf, 'utf8');
    expect(Object.keys(convertFile(text, true))).toEqual(['1_0_ExecJson']);
    const ctx = convertFileContextual(text) as ContextualizedEvaluation;
    const controls = ctx.contains[0]!.contains;
    expect(controls.map((c) => [c.data.id, c.root.hdf.status])).toEqual(
      json.map((e) => [e.control, HEIMDALL[e.status]]),
    );
  });

  it('HDF: Heimdall Lite, loaded through its upload box in headless Chromium, shows every control with its status', async () => {
    const view = await openInHeimdall(files.hdf, json.length, out, 'debian-stig-heimdall');
    const count = (s: string): number => json.filter((e) => HEIMDALL[e.status] === s).length;
    expect(view.cards).toMatchObject({
      Passed: count('Passed'),
      Failed: count('Failed'),
      'Not Applicable': count('Not Applicable'),
      'Not Reviewed': count('Not Reviewed'),
    });
    expect(view.rows).toEqual(json.map((e) => ({ status: HEIMDALL[e.status], id: e.control })));
    // Heimdall Lite asks GitHub for its latest release; the test lets nothing leave 127.0.0.1.
    expect(view.blocked.every((u) => u.startsWith('https://api.github.com/'))).toBe(true);
  });

  it('XCCDF: oscap xccdf validate accepts it (schema and schematron) with no error', () => {
    const r = oscapValidate(files.xccdf);
    expect(r.output).not.toMatch(/error/i);
    expect(r.status, r.output).toBe(0);
  });

  it("CKL: STIG Viewer's element tree and STIG_DATA attributes, a VULN per control", async () => {
    const doc = readXml(readFileSync(files.ckl, 'utf8'));
    checkCklShape(doc);
    expect(doc.children[1]!.children[0]!.children.slice(1)).toHaveLength(json.length);
  });
});
