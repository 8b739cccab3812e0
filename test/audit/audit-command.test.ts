import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { ruleById } from '../../src/lint/rules/index.js';
import type { RuleMeta } from '../../src/lint/types.js';
import { patchRuleMeta } from '../lint/helpers.js';

const root = join(import.meta.dirname, '..', '..');
const fixtures = 'test/fixtures/audit';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: root });
  return { code, out, err };
}

interface Entry {
  benchmark: string;
  control: string;
  title: string;
  status: string;
  findings: { file: string; line: number; column: number; ruleId: string }[];
}

async function json(base: string, benchmark: string): Promise<{ code: number; entries: Entry[] }> {
  const r = await run(['audit', base, '--benchmark', benchmark, '--format', 'json']);
  expect(r.err).toBe('');
  return { code: r.code, entries: (JSON.parse(r.out) as { controls: Entry[] }).controls };
}

/**
 * The audit joins controls to rules through RuleMeta.benchmarks. These tests give an existing rule
 * the controls it decides (shutdown-port-default: the shutdown port open with the SHUTDOWN command,
 * CIS 3.1 and STIG V-222951) and take them back after, so they hold whichever hardening rules main has.
 */
const rule = ruleById('shutdown-port-default')!;
let restore: (() => void) | null = null;
function decides(benchmarks: string[], profiles?: RuleMeta['profiles']): void {
  restore = patchRuleMeta(rule.meta.id, { benchmarks, ...(profiles ? { profiles } : {}) });
}
afterEach(() => {
  restore?.();
  restore = null;
});

describe('tollgate audit --format json', () => {
  it('fails a control a rule finds, with where and which rule, and exits 1', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    const { code, entries } = await json(`${fixtures}/stock`, 'cis-tomcat-10.1');
    expect(code).toBe(1);
    expect(entries.find((e) => e.control === '3.1')).toMatchObject({
      benchmark: 'cis-tomcat-10.1',
      control: '3.1',
      title: 'Set a nondeterministic Shutdown command value',
      status: 'fail',
      findings: [{ file: `${fixtures}/stock/conf/server.xml`, line: 3, column: 15, ruleId: 'shutdown-port-default' }],
    });
  });

  it('passes a control whose rules find nothing, and exits 1 exactly when some control fails', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    const { code, entries } = await json(`${fixtures}/hardened`, 'cis-tomcat-10.1');
    expect(entries.find((e) => e.control === '3.1')).toMatchObject({ status: 'pass', findings: [] });
    expect(code).toBe(entries.some((e) => e.status === 'fail') ? 1 : 0);
  });

  it('leaves a control no rule decides to be checked by hand', async () => {
    const { entries } = await json(`${fixtures}/hardened`, 'stig-tomcat');
    // The host's audit rules (auditctl): nothing in CATALINA_BASE or CATALINA_HOME decides it.
    expect(entries.find((e) => e.control === 'V-222998')).toMatchObject({
      benchmark: 'stig-tomcat',
      control: 'V-222998',
      title: 'Changes to $CATALINA_HOME/bin/ folder must be logged.',
      status: 'manual',
      findings: [],
    });
  });

  it('says a manager control does not apply to a base without the manager, and applies to one with it', async () => {
    const without = await json(`${fixtures}/hardened`, 'stig-tomcat');
    expect(without.entries.find((e) => e.control === 'V-222970')).toMatchObject({
      status: 'not-applicable',
      findings: [],
    });
    const withManager = await json(`${fixtures}/stock`, 'stig-tomcat');
    expect(withManager.entries.find((e) => e.control === 'V-222970')!.status).not.toBe('not-applicable');
  });

  it("lists every control of the benchmark once, in the benchmark's order", async () => {
    const { entries } = await json(`${fixtures}/hardened`, 'stig-tomcat');
    expect(entries).toHaveLength(83);
    expect(entries[0]!.control).toBe('V-222926');
    for (const e of entries)
      expect(['pass', 'fail', 'accepted', 'not-reviewed', 'manual', 'not-applicable']).toContain(e.status);
    for (const e of entries)
      expect(e).toMatchObject({
        benchmark: 'stig-tomcat',
        severity: expect.stringMatching(/^(high|medium|low)$/),
        cat: expect.stringMatching(/^CAT I{1,3}$/),
        cci: expect.arrayContaining([expect.stringMatching(/^CCI-\d{6}$/)]),
        nist: expect.any(Array),
        message: expect.any(String),
        evidence: expect.any(Array),
        findings: expect.any(Array),
      });
  });

  // V-222998 (auditd watching bin/) stands in for a control here: no real rule can decide it, so no other rule's finding mixes in.
  it('runs a rule the benchmark decides a control with even when its profile level is off', async () => {
    decides(['stig-tomcat:V-222998'], { recommended: 'off', stig: 'off' });
    const { code, entries } = await json(`${fixtures}/stock`, 'stig-tomcat');
    expect(code).toBe(1);
    expect(entries.find((e) => e.control === 'V-222998')).toMatchObject({
      status: 'fail',
      findings: [{ ruleId: 'shutdown-port-default', line: 3 }],
    });
    // The other benchmark's audit does not run it.
    const cis = await json(`${fixtures}/stock`, 'cis-tomcat-10.1');
    expect(cis.entries.flatMap((e) => e.findings).filter((f) => f.ruleId === 'shutdown-port-default')).toEqual([]);
  });
});

describe('tollgate audit, text and html', () => {
  it('prints one line per control with the status, and file:line for a failure', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    const r = await run(['audit', `${fixtures}/stock`, '--benchmark', 'cis-tomcat-10.1']);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    const controls = lines.filter((l) => /^(pass|FAIL|accept|review|manual|n\/a) /.test(l));
    expect(controls).toHaveLength(61);
    expect(lines.find((l) => /^FAIL\s+3\.1 /.test(l))).toContain(
      `${fixtures}/stock/conf/server.xml:3:15 shutdown-port-default`,
    );
    expect(lines.find((l) => /^manual\s+10\.1 /.test(l))).toContain('check by hand: df $CATALINA_HOME');
    const { entries } = await json(`${fixtures}/stock`, 'cis-tomcat-10.1');
    const n = (status: string): number => entries.filter((e) => e.status === status).length;
    expect(r.out).toContain(
      `61 controls: ${n('pass')} pass, ${n('fail')} fail, ${n('accepted')} accepted, ${n('not-reviewed')} not reviewed, ${n('manual')} manual, ${n('not-applicable')} not applicable`,
    );
  });

  it('shows a finding a suppression comment accepted as accepted with its reason, and as a failure under --no-inline-config', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    const { tree, cleanup } = await import('../lint/helpers.js');
    try {
      const dir = tree({
        'conf/server.xml':
          '<!-- tollgate-disable-next-line shutdown-port-default :: firewalled, risk accepted by the ISSM -->\n<Server port="8005" shutdown="SHUTDOWN"><Service name="C"><Engine name="C" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
      });
      const accepted = await run(['audit', dir, '--benchmark', 'cis-tomcat-10.1']);
      expect(accepted.out.split('\n').find((l) => /^accept\s+3\.1 /.test(l))).toContain(
        'firewalled, risk accepted by the ISSM',
      );
      const strict = await run(['audit', dir, '--benchmark', 'cis-tomcat-10.1', '--no-inline-config']);
      expect(strict.code).toBe(1);
      expect(strict.out.split('\n').find((l) => /^FAIL\s+3\.1 /.test(l))).toContain(
        'server.xml:2:15 shutdown-port-default',
      );
    } finally {
      cleanup();
    }
  });

  it('writes a page that loads nothing from elsewhere, with every control and the failing line', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    const r = await run(['audit', `${fixtures}/stock`, '--benchmark', 'cis-tomcat-10.1', '--format', 'html']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^<!DOCTYPE html>/);
    expect(r.out).toContain('<style>');
    expect(r.out).not.toMatch(/<script|<link|<img|@import|url\(|\bsrc=/i);
    expect(r.out.match(/<tr class="/g)).toHaveLength(61);
    expect(r.out).toContain('&lt;Server port=&quot;8005&quot; shutdown=&quot;SHUTDOWN&quot;&gt;');
  });
});

describe('tollgate audit usage', () => {
  it('rejects unknown options, a missing or unknown benchmark, and a path that is not there', async () => {
    expect((await run(['audit', `${fixtures}/stock`, '--benchmark', 'stig-tomcat', '--frobnicate'])).code).toBe(2);
    expect((await run(['audit', `${fixtures}/stock`])).code).toBe(2);
    expect((await run(['audit', `${fixtures}/stock`, '--benchmark', 'pci-dss'])).code).toBe(2);
    const missing = await run(['audit', `${fixtures}/nothing-here`, '--benchmark', 'stig-tomcat']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^tollgate audit: /);
  });

  it('refuses to audit a file Tomcat cannot read, naming file:line:column, instead of passing its controls', async () => {
    const { tree, cleanup } = await import('../lint/helpers.js');
    try {
      const dir = tree({
        'conf/server.xml': '<Server port="8005" shutdown="SHUTDOWN">\n  <Service name="C">\n</Server>\n',
      });
      const r = await run(['audit', dir, '--benchmark', 'cis-tomcat-10.1']);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/server\.xml:\d+:\d+: /);
      expect(r.out).toBe('');
    } finally {
      cleanup();
    }
  });
});

describe('tollgate audit on a file it could read', () => {
  it('judges a web.xml whose DOCTYPE names an external DTD instead of refusing it as unreadable', async () => {
    const { tree, cleanup } = await import('../lint/helpers.js');
    try {
      const dir = tree({
        'conf/server.xml':
          '<Server port="-1" shutdown="x"><Service name="C"><Engine name="C" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
        'webapps/app/WEB-INF/web.xml':
          '<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Example//DTD Web//EN" "http://example.com/web-app.dtd">\n<web-app/>\n',
      });
      const r = await run(['audit', dir, '--benchmark', 'stig-tomcat', '--format', 'json']);
      expect(r.err).toBe('');
      expect((JSON.parse(r.out) as { controls: Entry[] }).controls.length).toBe(83);
    } finally {
      cleanup();
    }
  });
});

describe('a finding that names the controls it fails', () => {
  it("fails only those of its rule's controls, and every format shows them", async () => {
    // The auditd controls stand in again: no real rule decides them.
    decides(['stig-tomcat:V-222998', 'stig-tomcat:V-222999'], { stig: 'warning' });
    const check = rule.check!;
    rule.check = (ctx) => check({ ...ctx, report: (d) => ctx.report({ ...d, benchmarks: ['stig-tomcat:V-222999'] }) });
    try {
      const { entries } = await json(`${fixtures}/stock`, 'stig-tomcat');
      expect(entries.find((e) => e.control === 'V-222999')).toMatchObject({
        status: 'fail',
        findings: [{ ruleId: 'shutdown-port-default' }],
      });
      expect(entries.find((e) => e.control === 'V-222998')).toMatchObject({ status: 'pass', findings: [] });
      const lint = await run(['lint', `${fixtures}/stock`, '--format', 'json', '--profile', 'stig']);
      const messages = (JSON.parse(lint.out) as { messages: { ruleId: string; benchmarks?: string[] }[] }[]).flatMap(
        (f) => f.messages,
      );
      expect(messages.find((m) => m.ruleId === 'shutdown-port-default')!.benchmarks).toEqual(['stig-tomcat:V-222999']);
      const stylish = await run(['lint', `${fixtures}/stock`, '--profile', 'stig']);
      expect(stylish.out).toContain('shutdown-port-default (STIG V-222999)');
    } finally {
      rule.check = check;
    }
  });

  it('names a file outside the working directory by its absolute path', async () => {
    decides(['cis-tomcat-10.1:3.1']);
    let out = '';
    await main(['audit', join(root, fixtures, 'stock'), '--benchmark', 'cis-tomcat-10.1', '--format', 'json'], {
      stdout: (t) => (out += t),
      stderr: () => {},
      cwd: join(root, 'docs'),
    });
    const entry = (JSON.parse(out) as { controls: Entry[] }).controls.find((e) => e.control === '3.1')!;
    expect(entry.findings[0]!.file).toBe(join(root, fixtures, 'stock', 'conf', 'server.xml'));
  });
});

describe('the audit with the hardening rules main has', () => {
  it('passes every control a rule decides on the hardened fixture laid out as the benchmarks ask, with the accounts its tollgate.config.json names, and exits 0', async () => {
    const { hardenedCopy } = await import('../lint/hardened-copy.js');
    const { dir } = hardenedCopy();
    try {
      for (const benchmark of ['cis-tomcat-10.1', 'stig-tomcat']) {
        let out = '';
        const code = await main(['audit', '.', '--benchmark', benchmark, '--format', 'json'], {
          stdout: (t) => (out += t),
          stderr: () => {},
          cwd: dir,
        });
        const entries = (JSON.parse(out) as { controls: Entry[] }).controls;
        expect(
          entries.filter((e) => e.status === 'fail'),
          benchmark,
        ).toEqual([]);
        expect(entries.filter((e) => e.status === 'pass').length, benchmark).toBeGreaterThan(40);
        expect(code).toBe(0);
      }
      // The same copy with the benchmarks' own account names: the owner controls fail, nothing else.
      rmSync(join(dir, 'tollgate.config.json'));
      let out = '';
      await main(['audit', '.', '--benchmark', 'stig-tomcat', '--format', 'json'], {
        stdout: (t) => (out += t),
        stderr: () => {},
        cwd: dir,
      });
      const failed = (JSON.parse(out) as { controls: Entry[] }).controls.filter((e) => e.status === 'fail');
      expect(new Set(failed.flatMap((e) => e.findings.map((f) => f.ruleId)))).toEqual(
        new Set(['file-owner-unexpected']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails only the control a finding is about when one rule decides several', async () => {
    const { tree, cleanup } = await import('../lint/helpers.js');
    try {
      const dir = tree({
        'conf/server.xml': `<Server port="-1" shutdown="x"><Service name="C"><Engine name="C" defaultHost="localhost">
<Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="5" lockOutTime="300"><Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/></Realm>
<Host name="localhost" appBase="webapps"><Valve className="org.apache.catalina.valves.AccessLogValve" pattern="%h %l %u %t &quot;%r&quot; %s %b"/></Host>
</Engine></Service></Server>
`,
      });
      const { entries } = await json(dir, 'stig-tomcat');
      const status = (control: string): string => entries.find((e) => e.control === control)!.status;
      // The Engine has no access log, the Host has one.
      expect(status('V-222997')).toBe('fail');
      expect(status('V-222938')).toBe('pass');
      // Five failures is what the STIG asks; 300 s is half its lock-out time.
      expect(status('V-222981')).toBe('pass');
      expect(entries.find((e) => e.control === 'V-222982')).toMatchObject({
        status: 'fail',
        findings: [{ ruleId: 'lockout-realm-weak', line: 2 }],
      });
    } finally {
      cleanup();
    }
  });
});
