/**
 * `tollgate audit --format hdf|xccdf|ckl`, each read by the tool assessors load it into: inspecjs
 * (Heimdall's HDF reader) must recognise the HDF as an InSpec execution and give each control the
 * status the audit gave it; OpenSCAP must accept the XCCDF 1.2 document; the checklist must have
 * the shape STIG Viewer writes (ckl-structure.ts). The Debian stock install and Heimdall Lite in
 * Chromium: export-debian.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile, convertFileContextual, type ContextualizedEvaluation } from 'inspecjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { cleanup, tree } from '../lint/helpers.js';
import { attribute, checkCklShape, child, childrenNamed, oscapValidate, readXml } from './export-tools.js';

const root = join(import.meta.dirname, '..', '..');
const out = join(root, 'test-output', 'audit-formats');
const DATE = '2026-03-01T09:30:00Z';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let o = '';
  let e = '';
  const code = await main(args, { stdout: (t) => (o += t), stderr: (t) => (e += t), cwd: root });
  return { code, out: o, err: e };
}

/**
 * A base with a finding, a finding accepted by a suppression comment (with its reason), controls
 * no rule decides, and manager controls that do not apply (no manager deployed).
 */
let base: string;
beforeAll(() => {
  mkdirSync(out, { recursive: true });
  base = tree({
    'conf/server.xml': `<?xml version="1.0" encoding="UTF-8"?>
<!-- tollgate-disable-next-line shutdown-port-enabled :: ticket SEC-123, port 8005 is firewalled -->
<Server port="8005" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1" connectionTimeout="20000" />
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" />
    </Engine>
  </Service>
</Server>
`,
    'webapps/ROOT/index.html': '<p>hello</p>\n',
  });
});
afterAll(cleanup);

interface JsonEntry {
  control: string;
  status: string;
}

async function exported(benchmark: string, format: string, date = DATE): Promise<string> {
  const r = await run(['audit', base, '--benchmark', benchmark, '--format', format, '--date', date]);
  expect(r.err).toBe('');
  expect(r.code).toBe(1);
  return r.out;
}

/** The status each control has in tollgate's own JSON. */
async function statuses(benchmark: string): Promise<Map<string, string>> {
  const entries = (JSON.parse(await exported(benchmark, 'json')) as { controls: JsonEntry[] }).controls;
  return new Map(entries.map((e) => [e.control, e.status]));
}

/** What Heimdall (inspecjs) shows for each of tollgate's statuses. */
const HEIMDALL: Record<string, string> = {
  pass: 'Passed',
  fail: 'Failed',
  manual: 'Not Reviewed',
  'not-reviewed': 'Not Reviewed',
  'not-applicable': 'Not Applicable',
  // A waiver: inspecjs counts it Not Applicable and Heimdall shows it under its Waived card.
  accepted: 'Not Applicable',
};

function controlsOf(hdf: string): ContextualizedEvaluation['contains'][number]['contains'] {
  const ctx = convertFileContextual(hdf) as ContextualizedEvaluation;
  expect(ctx.contains).toHaveLength(1);
  return ctx.contains[0]!.contains;
}

describe.each(['stig-tomcat', 'cis-tomcat-10.1'])(
  'audit --benchmark %s --format hdf, read by inspecjs',
  (benchmark) => {
    it('is recognised as an InSpec execution (ExecJSON 1.0) and every control has the status the audit gave it', async () => {
      const hdf = await exported(benchmark, 'hdf');
      writeFileSync(join(out, `fixture-${benchmark}.hdf.json`), hdf);
      const converted = convertFile(hdf, true);
      expect(Object.keys(converted)).toEqual(['1_0_ExecJson']);
      const controls = controlsOf(hdf);
      const want = await statuses(benchmark);
      expect(controls.map((c) => c.data.id)).toEqual([...want.keys()]);
      const raw = JSON.parse(hdf) as { profiles: { controls: { id: string; tags: { tollgate_status: string } }[] }[] };
      const tollgate = new Map(raw.profiles[0]!.controls.map((c) => [c.id, c.tags.tollgate_status]));
      for (const c of controls) {
        const status = tollgate.get(c.data.id)!;
        expect(status, c.data.id).toBe(want.get(c.data.id));
        expect(c.root.hdf.status, `${c.data.id} (${status})`).toBe(HEIMDALL[status]);
        expect(c.root.hdf.waived, c.data.id).toBe(status === 'accepted');
      }
      const seen = new Set(tollgate.values());
      for (const s of ['pass', 'fail', 'accepted', 'manual', 'not-applicable'])
        expect(seen, `the fixture has a ${s} control`).toContain(s);
    });

    it("gives each control the benchmark's severity, the accepted one its justification, and every time the audit's date", async () => {
      const hdf = await exported(benchmark, 'hdf');
      const controls = controlsOf(hdf);
      const accepted = controls.filter((c) => c.root.hdf.waived);
      expect(accepted.length).toBeGreaterThan(0);
      for (const c of accepted)
        expect((c.data as { waiver_data?: { justification?: string } }).waiver_data?.justification).toContain(
          'ticket SEC-123',
        );
      for (const c of controls) {
        expect(['low', 'medium', 'high']).toContain(c.root.hdf.severity);
        for (const seg of c.root.hdf.segments ?? []) expect(seg.start_time).toBe(DATE);
      }
    });
  },
);

describe('the exports are a function of their input', () => {
  it.each(['hdf', 'xccdf', 'ckl'])(
    '%s: the same base and --date give the same bytes; another date changes only the dates',
    async (format) => {
      const a = await exported('stig-tomcat', format);
      expect(await exported('stig-tomcat', format)).toBe(a);
      const b = await exported('stig-tomcat', format, '2027-01-02T03:04:05Z');
      expect(b.replaceAll('2027-01-02T03:04:05Z', DATE).replaceAll('2027-01-02', '2026-03-01')).toBe(a);
    },
  );

  it('refuses a --date that is not an ISO 8601 date-time with its zone, saying what it wants', async () => {
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '2026-03-01T09:30:00']) {
      const r = await run(['audit', base, '--benchmark', 'stig-tomcat', '--format', 'hdf', '--date', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toContain('--date');
      expect(r.out).toBe('');
    }
  });
});

describe.each(['stig-tomcat', 'cis-tomcat-10.1'])(
  'audit --benchmark %s --format xccdf, validated by OpenSCAP',
  (benchmark) => {
    it('passes oscap xccdf validate (the XCCDF 1.2 schema and its schematron rules) with no error', async () => {
      const xccdf = await exported(benchmark, 'xccdf');
      const file = join(out, `fixture-${benchmark}.xccdf.xml`);
      writeFileSync(file, xccdf);
      const r = oscapValidate(file);
      expect(r.output).not.toMatch(/error/i);
      expect(r.status, r.output).toBe(0);
    });

    it('has one rule-result per control, referring to a Rule of the benchmark it carries, with the status the audit gave', async () => {
      const doc = readXml(await exported(benchmark, 'xccdf'));
      expect(doc.name).toBe('Benchmark');
      const rules = new Set(childrenNamed(doc, 'Rule').map((r) => r.attributes['id']!));
      const results = childrenNamed(child(doc, 'TestResult')!, 'rule-result');
      const want = await statuses(benchmark);
      expect(results).toHaveLength(want.size);
      const RESULT: Record<string, string[]> = {
        pass: ['pass'],
        fail: ['fail'],
        manual: ['notchecked'],
        'not-reviewed': ['notchecked'],
        'not-applicable': ['notapplicable'],
      };
      let accepted = 0;
      for (const rr of results) {
        const id = rr.attributes['idref']!;
        expect(rules.has(id), id).toBe(true);
        const control = id.replace(/^xccdf_tollgate_rule_/, '');
        const result = child(rr, 'result')!.text;
        const messages = childrenNamed(rr, 'message').map((m) => m.text);
        // An accepted deviation: still a fail, with the acceptance and its reason beside it.
        if (messages.some((m) => m.startsWith('accepted deviation'))) {
          accepted++;
          expect(result).toBe('fail');
          expect(messages.join('\n')).toContain('ticket SEC-123');
        } else expect(RESULT[want.get(control)!], control).toContain(result);
      }
      expect(accepted).toBeGreaterThan(0);
    });
  },
);

describe('audit --format ckl, shaped as STIG Viewer writes a checklist', () => {
  it('has the element tree and the STIG_DATA attributes of a STIG Viewer 2.14 export, in order', async () => {
    const ckl = await exported('stig-tomcat', 'ckl');
    writeFileSync(join(out, 'fixture-stig-tomcat.ckl'), ckl);
    checkCklShape(readXml(ckl));
  });

  it('gives each VULN the status word of the audit, and an accepted deviation stays Open with who accepted it and why', async () => {
    const doc = readXml(await exported('stig-tomcat', 'ckl'));
    const want = await statuses('stig-tomcat');
    const STATUS: Record<string, string> = {
      pass: 'NotAFinding',
      fail: 'Open',
      manual: 'Not_Reviewed',
      'not-reviewed': 'Not_Reviewed',
      'not-applicable': 'Not_Applicable',
    };
    const vulns = childrenNamed(child(child(doc, 'STIGS')!, 'iSTIG')!, 'VULN');
    expect(vulns.map((v) => attribute(v, 'Vuln_Num'))).toEqual([...want.keys()]);
    let accepted = 0;
    for (const v of vulns) {
      const id = attribute(v, 'Vuln_Num');
      const status = child(v, 'STATUS')!.text;
      const comments = child(v, 'COMMENTS')!.text;
      if (comments.startsWith('Accepted deviation')) {
        accepted++;
        expect(status).toBe('Open');
        expect(comments).toContain('ticket SEC-123');
      } else expect(status, id).toBe(STATUS[want.get(id)!]);
    }
    expect(accepted).toBeGreaterThan(0);
  });
});
