import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/lint/config.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { loadBase } from '../../src/parser/index.js';
import type { Diagnostic } from '../../src/model/index.js';
import { base, http, props } from './hardening-cases.js';
import { needPackages } from '../system-packages.js';
import { cleanup, tree } from './helpers.js';

afterAll(cleanup);

/** The rules of this change: server.xml, context definitions and the properties files. */
const OURS = new Set([
  'access-log-missing',
  'access-log-pattern',
  'access-log-proxy-address',
  'ajp-no-secret',
  'connector-all-addresses',
  'connector-allow-trace',
  'connector-discard-facades-off',
  'connector-enable-lookups',
  'connector-get-writer-encoding',
  'connector-legacy-tls',
  'connector-limits',
  'connector-not-tls',
  'connector-path-delimiters',
  'connector-secure-without-tls',
  'connector-server-header',
  'connector-weak-ciphers',
  'connector-x-powered-by',
  'context-allow-linking',
  'context-cross-context',
  'context-log-effective-web-xml',
  'context-privileged',
  'context-reloadable',
  'cookie-same-site-none',
  'error-report-server-info',
  'host-auto-deploy',
  'host-deploy-on-startup',
  'host-deploy-xml',
  'lockout-realm-missing',
  'lockout-realm-weak',
  'logging-no-file-handler',
  'manager-unrestricted',
  'memory-leak-listener-missing',
  'package-access-weakened',
  'security-listener-missing',
  'session-cookie-http-only',
  'shutdown-port-default',
  'shutdown-port-enabled',
  'strict-servlet-compliance-off',
  'system-property-removed',
  'remote-ip-valve-trusts-any',
  'stuck-thread-detection-disabled',
  'cleartext-keystore-password',
]);

const lint = (dir: string, profile: Profile = 'recommended'): Diagnostic[] =>
  lintBase(loadBase({ base: dir }), { profile }).diagnostics;
const ours = (ds: Diagnostic[]): Diagnostic[] => ds.filter((d) => OURS.has(d.ruleId));

describe('container hardening rules', () => {
  // Each case of hardening-cases.ts (the failing base's findings at their places, with their severities and
  // messages; none on the passing base) is checked in rule-positions.test.ts, which lints every case once.

  it('keeps the benchmark-only rules out of the recommended profile', () => {
    const dir = base({ connectors: http(''), server: 'port="8005" shutdown="x7Kq"' });
    const found = new Set(lint(dir).map((d) => d.ruleId));
    for (const id of [
      'connector-not-tls',
      'shutdown-port-enabled',
      'host-auto-deploy',
      'host-deploy-on-startup',
      'host-deploy-xml',
      'error-report-server-info',
      'security-listener-missing',
      'memory-leak-listener-missing',
      'context-log-effective-web-xml',
    ]) {
      expect(found.has(id), id).toBe(false);
    }
    expect(new Set(lint(dir, 'stig').map((d) => d.ruleId))).toContain('shutdown-port-enabled');
  });

  it('resolves ${...} from conf/catalina.properties, with ${name:-default}, before judging', () => {
    const dir = base({
      connectors: http('allowTrace="${trace}" xpoweredBy="${powered:-true}" maxPostSize="${post:--1}"'),
      files: props('trace=true\n'),
    });
    const found = lint(dir).map((d) => d.ruleId);
    expect(found).toEqual(
      expect.arrayContaining(['connector-allow-trace', 'connector-x-powered-by', 'connector-limits']),
    );
    const clean = base({
      connectors: http('allowTrace="${trace}" xpoweredBy="${powered:-false}"'),
      files: props('trace=false\n'),
    });
    expect(ours(lint(clean))).toEqual([]);
  });

  it('judges a context file linted on its own by where it sits (conf/context.xml, META-INF/context.xml, conf/<Engine>/<Host>/name.xml)', () => {
    const dir = tree({
      'conf/context.xml': '<Context crossContext="true"/>',
      'webapps/app/META-INF/context.xml': '<Context privileged="true"/>',
      'conf/Catalina/localhost/shop.xml': '<Context docBase="/srv/shop"><Resources allowLinking="true"/></Context>',
    });
    const one = (file: string): string[] => ours(lintBase(loadInput(join(dir, file))).diagnostics).map((d) => d.ruleId);
    expect(one('conf/context.xml')).toEqual(['context-cross-context']);
    expect(one('webapps/app/META-INF/context.xml')).toEqual(['context-privileged']);
    expect(one('conf/Catalina/localhost/shop.xml')).toEqual(['context-allow-linking']);
  });

  it('points at the value in server.xml and in catalina.properties', () => {
    const dir = base({
      connectors: http('allowTrace="true"'),
      files: props('# comment\norg.apache.catalina.connector.RECYCLE_FACADES = false\n'),
    });
    const ds = lint(dir);
    const trace = ds.find((d) => d.ruleId === 'connector-allow-trace')!;
    expect([trace.span.line, trace.span.endColumn - trace.span.column]).toEqual([4, 4]);
    const prop = ds.find((d) => d.ruleId === 'system-property-removed')!;
    expect([prop.span.file.endsWith('catalina.properties'), prop.span.line, prop.span.column]).toEqual([true, 2, 1]);
  });
});

describe('the hardened fixture (test/fixtures/hardening/hardened)', () => {
  const hardened = join(import.meta.dirname, '..', 'fixtures', 'hardening', 'hardened');
  for (const profile of ['recommended', 'cis', 'stig'] as const) {
    it(`has no finding of the container rules, and no error, with --profile ${profile} (its comments name insecure values)`, () => {
      const ds = lint(hardened, profile);
      expect(ours(ds).map((d) => `${d.ruleId} ${d.span.file}:${d.span.line}`)).toEqual([]);
      expect(ds.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }
});

describe("Debian's stock configuration (/etc/tomcat10 with tomcat10-admin's manager and host-manager)", () => {
  // .ci/run installs them; without one this fails with a line naming it rather than passing on nothing.
  const stock = (): string => {
    needPackages('tomcat10', 'tomcat10-admin');
    const dir = tree({});
    cpSync('/etc/tomcat10', join(dir, 'conf'), { recursive: true });
    mkdirSync(join(dir, 'webapps'));
    for (const app of ['manager', 'host-manager'])
      cpSync(join('/usr/share/tomcat10-admin', app), join(dir, 'webapps', app), { recursive: true });
    return dir;
  };
  const found = (profile: Profile): string[] =>
    [
      ...new Set(
        ours(lint(stock(), profile)).map((d) => `${d.ruleId} ${d.span.file.replace(/^.*\/(conf|webapps)\//, '$1/')}`),
      ),
    ].sort();

  it('gets, in the recommended profile, only the manager and host-manager left open to every address (their META-INF valve is ignored)', () => {
    expect(found('recommended')).toEqual([
      'manager-unrestricted conf/Catalina/localhost/host-manager.xml',
      'manager-unrestricted conf/Catalina/localhost/manager.xml',
    ]);
  });

  it("gets, in the stig profile, the STIG controls Debian leaves at Tomcat's defaults", () => {
    const ids = new Set(found('stig').map((f) => f.split(' ')[0]));
    expect([...ids].sort()).toEqual([
      'access-log-missing',
      'connector-all-addresses',
      'connector-not-tls',
      'error-report-server-info',
      'host-auto-deploy',
      'host-deploy-xml',
      'lockout-realm-weak',
      'manager-unrestricted',
      'strict-servlet-compliance-off',
    ]);
  });
});
