import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { profileLevel } from '../../src/lint/profiles.js';
import { ruleById } from '../../src/lint/rules/index.js';
import type { RuleMeta } from '../../src/lint/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, lintFiles, patchRuleMeta, tree } from './helpers.js';

afterAll(cleanup);

const meta = (extra: Partial<RuleMeta>): RuleMeta => ({
  id: 'x',
  description: 'x',
  defaultSeverity: 'warning',
  effect: 'weakens',
  reason: 'x.',
  category: 'security',
  ...extra,
});

describe('profileLevel', () => {
  it('runs a rule without profile metadata at its reported severities in every profile', () => {
    for (const p of ['recommended', 'cis', 'stig'] as const) expect(profileLevel(meta({}), p)).toBe('reported');
  });

  it('turns a rule off in recommended but on in the profile whose benchmark it names', () => {
    const m = meta({ profiles: { recommended: 'off' }, benchmarks: ['cis-tomcat-10.1:3.1'] });
    expect(profileLevel(m, 'recommended')).toBe('off');
    expect(profileLevel(m, 'cis')).toBe('reported');
    expect(profileLevel(m, 'stig')).toBe('off');
  });

  it('takes the level a profile names over everything else', () => {
    const m = meta({ profiles: { recommended: 'off', stig: 'error' }, benchmarks: ['cis-tomcat-10.1:3.1'] });
    expect(profileLevel(m, 'stig')).toBe('error');
    expect(profileLevel(meta({ profiles: { cis: 'off' } }), 'cis')).toBe('off');
    expect(profileLevel(meta({ profiles: { recommended: 'info' } }), 'stig')).toBe('info');
  });
});

const SHUTDOWN = {
  'conf/server.xml':
    '<Server port="8005" shutdown="SHUTDOWN"><Service name="C"><Engine name="C" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
};

describe('the engine under a profile', () => {
  const rule = ruleById('shutdown-port-default')!;
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  it('leaves out in recommended a rule a profile turns off, and reports it in the benchmark profile at the level it names', () => {
    restore = patchRuleMeta(rule.meta.id, {
      profiles: { recommended: 'off', stig: 'error' },
      benchmarks: ['stig-tomcat:V-222951'],
    });
    const of = (profile?: 'recommended' | 'cis' | 'stig') =>
      lintFiles(SHUTDOWN, profile ? { profile } : {}).filter((d) => d.ruleId === rule.meta.id);
    expect(of()).toEqual([]);
    expect(of('recommended')).toEqual([]);
    expect(of('stig').map((d) => d.severity)).toEqual(['error']);
    // Named no level for cis and no cis control: off there as in recommended.
    expect(of('cis')).toEqual([]);
  });

  it('lets --rule levels win over the profile', () => {
    restore = patchRuleMeta(rule.meta.id, { profiles: { recommended: 'off' } });
    expect(
      lintFiles(SHUTDOWN, { ruleLevels: { 'shutdown-port-default': 'info' } })
        .filter((d) => d.ruleId === rule.meta.id)
        .map((d) => d.severity),
    ).toEqual(['info']);
  });
});

async function run(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd });
  return { code, out, err };
}

describe('tollgate lint --profile and the profile key', () => {
  it('rejects a profile it does not know, on the command line and in the config file', async () => {
    const dir = tree(SHUTDOWN);
    const cli = await run(['lint', '.', '--profile', 'pci'], dir);
    expect(cli.code).toBe(2);
    expect(cli.err).toMatch(/profile/);
    const cfg = await run(['lint', '.'], tree({ ...SHUTDOWN, 'tollgate.config.json': '{\n  "profile": "pci"\n}' }));
    expect(cfg.code).toBe(2);
    expect(cfg.err).toMatch(/tollgate\.config\.json:2:14: profile: /);
  });

  it('takes the profile from the config file, and --profile over it', async () => {
    const restore = patchRuleMeta('shutdown-port-default', { profiles: { recommended: 'off', stig: 'error' } });
    try {
      const dir = tree({ ...SHUTDOWN, 'tollgate.config.json': '{ "profile": "stig" }' });
      const fromConfig = await run(['lint', '.', '--format', 'json'], dir);
      expect(fromConfig.code).toBe(1);
      expect(fromConfig.out).toContain('shutdown-port-default');
      const overridden = await run(['lint', '.', '--format', 'json', '--profile', 'recommended'], dir);
      expect(overridden.code).toBe(0);
      expect(overridden.out).not.toContain('shutdown-port-default');
    } finally {
      restore();
    }
  });
});

describe('the recommended profile on what Tomcat ships', () => {
  // Tomcat 10.1's own conf/web.xml (the fuzz seeds keep the corpus's copy verbatim) and a server.xml with the shutdown
  // port closed, as Debian ships it: sensible defaults, so the benchmarks' extra hardening (HSTS, secure
  // cookies, CONFIDENTIAL transport, a Throwable error page) belongs to --profile cis|stig, not here.
  const stock = (): Record<string, string> => ({
    'conf/web.xml': readFileSync(
      join(import.meta.dirname, '..', 'fuzz', 'seeds', 'real-world', 'tomcat-10.1.x-conf-web', 'web.xml'),
      'utf8',
    ),
    'conf/server.xml':
      '<Server port="-1" shutdown="SHUTDOWN"><Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1" connectionTimeout="20000" redirectPort="8443"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="true"><Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" prefix="localhost_access_log" suffix=".txt" pattern="%h %l %u %t &quot;%r&quot; %s %b"/></Host></Engine></Service></Server>\n',
  });

  it('stays quiet', () => {
    expect(lintFiles(stock()).map((d) => `${d.ruleId} ${d.span.line}:${d.span.column}`)).toEqual([]);
  });

  it('while the cis and stig profiles report their hardening on the same files', () => {
    for (const profile of ['cis', 'stig'] as const) {
      for (const d of lintFiles(stock(), { profile })) {
        expect(ruleById(d.ruleId)?.meta.benchmarks?.length, `${profile}: ${d.ruleId}`).toBeGreaterThan(0);
      }
    }
  });
});
