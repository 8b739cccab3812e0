import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditBase } from '../../src/audit/report.js';
import { lintBase } from '../../src/lint/engine.js';
import type { Profile } from '../../src/lint/config.js';
import { loadBase } from '../../src/parser/index.js';
import type { Diagnostic } from '../../src/model/index.js';
import { hardenedCopy, ownAccounts } from './hardened-copy.js';
import { needPackages } from '../system-packages.js';
import { cleanup, tree } from './helpers.js';

afterAll(cleanup);

const SERVER =
  '<Server port="-1"><Service name="C"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"><Valve className="org.apache.catalina.valves.AccessLogValve" directory="${catalina.base}/access"/></Host></Engine></Service></Server>';
const of = (rule: string, dir: string, profile: Profile, accounts = ownAccounts()): Diagnostic[] =>
  lintBase(loadBase({ base: dir }), { profile, accounts }).diagnostics.filter((d) => d.ruleId === rule);

/** What each path of the base below has unless a test says otherwise: within both benchmarks. */
const WITHIN = {
  conf: 0o750,
  'conf/server.xml': 0o600,
  'conf/web.xml': 0o400,
  logs: 0o750,
  'logs/catalina.log': 0o640,
  access: 0o750,
  webapps: 0o750,
  bin: 0o750,
  'bin/bootstrap.jar': 0o640,
};

/** A base with these modes (paths relative to it), the others as WITHIN. */
function withModes(modes: Record<string, number>): string {
  const dir = tree({
    'conf/server.xml': SERVER,
    'conf/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>',
    'logs/catalina.log': 'x',
    'access/.keep': '',
    'webapps/.keep': '',
    'bin/bootstrap.jar': 'x',
  });
  for (const [p, m] of Object.entries({ ...WITHIN, ...modes })) chmodSync(join(dir, p), m);
  return dir;
}

describe('file-mode-too-open', () => {
  it('fails each CIS control whose path has a forbidden bit, naming the control, and passes the paths within it', () => {
    const dir = withModes({
      '.': 0o750,
      conf: 0o755,
      'conf/server.xml': 0o640,
      'conf/web.xml': 0o400,
      logs: 0o770,
      webapps: 0o750,
      bin: 0o750,
      access: 0o751,
    });
    const found = of('file-mode-too-open', dir, 'cis').map(
      (d) => `${d.benchmarks!.join()} ${d.span.file.slice(dir.length) || '/'}:${d.span.line}`,
    );
    // conf/ readable by others (4.3), server.xml readable by the group (4.12: 600), the AccessLogValve's folder reachable by others (7.4, pointed at its directory attribute).
    expect(found.sort()).toEqual([
      'cis-tomcat-10.1:4.12 /conf/server.xml:1',
      'cis-tomcat-10.1:4.3 /conf:1',
      'cis-tomcat-10.1:7.4 /conf/server.xml:1',
    ]);
    expect(
      of('file-mode-too-open', dir, 'cis').find((d) => d.benchmarks![0] === 'cis-tomcat-10.1:7.4')!.span.column,
    ).toBeGreaterThan(100);
  });

  it("judges the STIG's modes in the stig profile: 750 folders, 640 files in conf/ and logs/, jars in bin/", () => {
    const dir = withModes({
      conf: 0o750,
      'conf/server.xml': 0o644,
      'conf/web.xml': 0o640,
      logs: 0o2770,
      'logs/catalina.log': 0o640,
      bin: 0o750,
      'bin/bootstrap.jar': 0o755,
    });
    const found = of('file-mode-too-open', dir, 'stig').map(
      (d) => `${d.benchmarks!.join()} ${d.span.file.slice(dir.length)}`,
    );
    expect(found.sort()).toEqual([
      'stig-tomcat:V-222943 /logs',
      'stig-tomcat:V-222945 /conf/server.xml',
      'stig-tomcat:V-222947 /bin/bootstrap.jar',
    ]);
  });

  it('is off in the recommended profile and skips paths that do not exist', () => {
    const dir = withModes({ conf: 0o777 });
    expect(of('file-mode-too-open', dir, 'recommended')).toEqual([]);
    rmSync(join(dir, 'logs'), { recursive: true });
    expect(of('file-mode-too-open', dir, 'stig').map((d) => d.benchmarks![0])).toEqual(['stig-tomcat:V-222946']);
  });
});

describe('file-owner-unexpected', () => {
  it('passes paths owned by the configured accounts and fails, per control, with other names', () => {
    const dir = withModes({});
    expect(of('file-owner-unexpected', dir, 'stig')).toEqual([]);
    const found = of('file-owner-unexpected', dir, 'stig', { ...ownAccounts(), service: 'no-such-account' });
    // logs/ is the service account's (V-222988); temp/ and work/ do not exist.
    expect(found.map((d) => d.benchmarks![0])).toEqual(['stig-tomcat:V-222988']);
    expect(found[0]!.message).toContain('the benchmark asks for no-such-account:');
  });

  it("defaults to the benchmark's names: tomcat_admin:tomcat for CIS, root:tomcat for the STIG", () => {
    const dir = withModes({});
    const cis = of('file-owner-unexpected', dir, 'cis', {} as ReturnType<typeof ownAccounts>);
    expect(cis.length).toBeGreaterThan(0);
    expect(cis[0]!.message).toContain('tomcat_admin:tomcat');
    expect(of('file-owner-unexpected', dir, 'stig', {} as ReturnType<typeof ownAccounts>)[0]!.message).toContain(
      'root:tomcat',
    );
  });
});

describe('bin/setenv.sh', () => {
  it('is read from the base, else from the home, as catalina.sh sources it', () => {
    const home = tree({ 'bin/setenv.sh': 'UMASK=0002\n' });
    const base = tree({ 'conf/server.xml': SERVER });
    const lint = (): string[] =>
      lintBase(loadBase({ base, home }), { profile: 'stig' })
        .diagnostics.filter((d) => d.ruleId === 'umask-too-open')
        .map((d) => d.span.file);
    expect(lint()).toEqual([join(home, 'bin', 'setenv.sh')]);
    mkdirSync(join(base, 'bin'));
    writeFileSync(join(base, 'bin', 'setenv.sh'), 'UMASK=0027\n');
    expect(lint()).toEqual([]);
  });

  it('takes STRICT_SERVLET_COMPLIANCE from a -D option, and catalina.properties over it (Tomcat sets its entries as system properties at start-up)', () => {
    const opt = 'CATALINA_OPTS="-Dorg.apache.catalina.STRICT_SERVLET_COMPLIANCE=true"\n';
    const rule = (files: Record<string, string>): Diagnostic[] =>
      of('strict-servlet-compliance-off', tree({ 'conf/server.xml': SERVER, ...files }), 'stig');
    expect(rule({ 'bin/setenv.sh': opt })).toEqual([]);
    expect(
      rule({
        'bin/setenv.sh': opt,
        'conf/catalina.properties': 'org.apache.catalina.STRICT_SERVLET_COMPLIANCE=false\n',
      }),
    ).toHaveLength(1);
    expect(rule({ 'bin/setenv.sh': `# ${opt}` })).toHaveLength(1);
  });

  it('reports RECYCLE_FACADES given with -D as a property Tomcat 10.1 no longer reads, at the option', () => {
    const text = 'JAVA_OPTS="$JAVA_OPTS -Dorg.apache.catalina.connector.RECYCLE_FACADES=true"\n';
    const ds = of('system-property-removed', tree({ 'conf/server.xml': SERVER, 'bin/setenv.sh': text }), 'recommended');
    expect(ds.map((d) => [d.span.line, d.span.column, d.span.endColumn])).toEqual([[1, 23, 75]]);
  });

  it('reports remote JMX without authentication as an error and without TLS as a warning, each with its control', () => {
    const text =
      'CATALINA_OPTS="-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=FALSE -Dcom.sun.management.jmxremote.ssl=false"\n';
    const ds = of('jmx-remote-unprotected', tree({ 'conf/server.xml': SERVER, 'bin/setenv.sh': text }), 'recommended');
    expect(ds.map((d) => [d.severity, d.benchmarks![0]])).toEqual([
      ['error', 'stig-tomcat:V-222963'],
      ['warning', 'stig-tomcat:V-222964'],
    ]);
    // Without a port the JVM opens no remote connector.
    expect(
      of(
        'jmx-remote-unprotected',
        tree({
          'conf/server.xml': SERVER,
          'bin/setenv.sh': 'CATALINA_OPTS="-Dcom.sun.management.jmxremote.authenticate=false"\n',
        }),
        'recommended',
      ),
    ).toEqual([]);
  });
});

describe('the hardened fixture laid out as the benchmarks ask (test/lint/hardened-copy.ts)', () => {
  const { dir, accounts } = hardenedCopy();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const profile of ['recommended', 'cis', 'stig'] as const) {
    it(`has no finding at all with --profile ${profile}`, () => {
      const ds = lintBase(loadBase({ base: dir }), { profile, accounts }).diagnostics;
      expect(ds.map((d) => `${d.ruleId} ${d.span.file}:${d.span.line}`)).toEqual([]);
    });
  }

  it('passes every control a rule decides, the file controls included', () => {
    for (const benchmark of ['cis-tomcat-10.1', 'stig-tomcat'] as const) {
      const results = auditBase(loadBase({ base: dir }), benchmark, { accounts }).results;
      expect(
        results.filter((r) => r.status === 'fail').map((r) => r.control.id),
        benchmark,
      ).toEqual([]);
      const passed = new Set(results.filter((r) => r.status === 'pass').map((r) => r.control.id));
      for (const id of benchmark === 'cis-tomcat-10.1'
        ? ['4.1', '4.3', '4.12', '4.14', '7.1', '7.4', '7.6']
        : ['V-222936', 'V-222943', 'V-222946', 'V-222967', 'V-222987', 'V-222988', 'V-222991'])
        expect(passed.has(id), `${benchmark} ${id}`).toBe(true);
    }
  });
});

describe("Debian's installed base (/var/lib/tomcat10, home /usr/share/tomcat10, as the tomcat10 package lays it out)", () => {
  // .ci/run installs tomcat10; these are the package's own modes and owners.
  const load = () => {
    needPackages('tomcat10');
    // Debian's base links conf/ to /etc/tomcat10, logs/ to /var/log/tomcat10: a trusted installation, read with --follow-symlinks.
    return loadBase({ base: '/var/lib/tomcat10', home: '/usr/share/tomcat10', followSymlinks: true });
  };
  const failed = (benchmark: 'cis-tomcat-10.1' | 'stig-tomcat', rules: string[]): string[] =>
    auditBase(load(), benchmark)
      .results.filter((r) => r.status === 'fail' && r.findings.some((f) => rules.includes(f.ruleId)))
      .map((r) => r.control.id);

  it("fails the STIG's mode controls Debian does not meet: conf/ 755, logs/ 2770, bin/ 755 with 644 jars; its conf/ files (640) pass", () => {
    expect(failed('stig-tomcat', ['file-mode-too-open'])).toEqual(['V-222943', 'V-222946', 'V-222947', 'V-222948']);
  });

  it("fails the STIG's owner controls where Debian differs: conf/ and the home are root:root, logs/ tomcat:adm", () => {
    expect(failed('stig-tomcat', ['file-owner-unexpected'])).toEqual(['V-222986', 'V-222987', 'V-222988']);
  });

  it('fails the CIS mode controls: its files are 640 where CIS asks 600 (400 for web.xml), and conf/, webapps/ and bin/ let others in', () => {
    expect(failed('cis-tomcat-10.1', ['file-mode-too-open'])).toEqual([
      '4.1',
      '4.2',
      '4.3',
      '4.6',
      '4.7',
      '4.8',
      '4.10',
      '4.11',
      '4.12',
      '4.13',
      '4.14',
      '4.15',
    ]);
  });
});
