/**
 * Regexes from configuration run on every request: patterns open to
 * catastrophic backtracking are lint errors (recheck decides, bounded by work,
 * never by a clock), and compile and serve leave the context that has one unstarted.
 */
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planBase } from '../../src/plan/index.js';
import { lintBase } from '../../src/lint/engine.js';
import {
  alternativesOf,
  MAX_ANALYSED_LENGTH,
  redosVerdict,
  repeatsUnbounded,
} from '../../src/lint/rules/regex-redos.js';
import { loadBase } from '../../src/parser/index.js';
import { translateJavaRegex } from '../../src/filters/java-regex.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function base(apps: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-redos-'));
  dirs.push(dir);
  for (const [app, filters] of Object.entries(apps)) {
    const file = join(dir, 'webapps', app, 'WEB-INF', 'web.xml');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">${filters}</web-app>`);
  }
  return dir;
}

const filter = (cls: string, params: Record<string, string>): string =>
  `<filter><filter-name>f</filter-name><filter-class>org.apache.catalina.filters.${cls}</filter-class>${Object.entries(
    params,
  )
    .map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('')}</filter><filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>`;

const VULNERABLE: [string, Record<string, string>][] = [
  ['RemoteIpFilter', { internalProxies: '(\\d+|\\d+\\.)+\\d+' }],
  ['RemoteIpFilter', { trustedProxies: '(10\\.\\d+\\.\\d+\\.\\d+)*(10\\.\\d+\\.\\d+\\.\\d+)*' }],
  ['RemoteAddrFilter', { allow: '(a|a)*b' }],
  ['RemoteHostFilter', { deny: '([a-z]+\\.)*[a-z]+\\.([a-z]+\\.)*example\\.com' }],
];
const SAFE: [string, Record<string, string>][] = [
  [
    'RemoteIpFilter',
    { internalProxies: '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|192\\.168\\.\\d{1,3}\\.\\d{1,3}|0:0:0:0:0:0:0:1|::1' },
  ],
  ['RemoteAddrFilter', { allow: '127\\.\\d+\\.\\d+\\.\\d+|::1|0:0:0:0:0:0:0:1' }],
  ['RemoteHostFilter', { allow: '.*\\.example\\.com' }],
];

describe('regex-redos', () => {
  it('reports each vulnerable pattern as an error on its value, and none of the safe ones', () => {
    const apps: Record<string, string> = {};
    VULNERABLE.forEach(([cls, p], i) => (apps[`bad${i}`] = filter(cls, p)));
    SAFE.forEach(([cls, p], i) => (apps[`good${i}`] = filter(cls, p)));
    const dir = base(apps);
    const { diagnostics } = lintBase(loadBase({ base: dir }));
    const redos = diagnostics.filter((d) => d.ruleId === 'regex-redos');
    expect(redos.map((d) => d.span.file.split('/').at(-3)).sort()).toEqual(VULNERABLE.map((_, i) => `bad${i}`));
    for (const d of redos) {
      expect(d.severity).toBe('error');
      expect(d.message).toMatch(/takes (exponential|polynomial \(degree \d+\)) time/);
      expect(d.span.line).toBeGreaterThan(0);
    }
  });

  it("compile and serve do not run a context with such a pattern (Tomcat starts it; one backtracking request would stop Node's only thread)", () => {
    const dir = base({ bad: filter(...VULNERABLE[0]!), good: filter(...SAFE[0]!) });
    const loaded = loadBase({ base: dir });
    expect(planBase(loaded).plans.map((p) => p.contextPath)).toEqual(['/bad', '/good']);
    const unsafe = lintBase(loaded).diagnostics.filter((d) => d.ruleId === 'regex-redos');
    const { plans, skipped } = planBase(loaded, { unsafe });
    expect(plans.map((p) => p.contextPath)).toEqual(['/good']);
    expect(skipped).toEqual([
      expect.objectContaining({
        contextPath: '/bad',
        state: 'starts',
        reason: expect.stringMatching(
          /tollgate does not run it: webapps\/bad\/WEB-INF\/web\.xml:\d+:\d+: .*(exponential|polynomial)/,
        ),
      }),
    ]);
  });

  it("finds Tomcat's own default internalProxies linear", () => {
    const def =
      '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|192\\.168\\.\\d{1,3}\\.\\d{1,3}|169\\.254\\.\\d{1,3}\\.\\d{1,3}|127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|100\\.6[4-9]{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.[7-9]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.1[0-1]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.12[0-7]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.1[6-9]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.2[0-9]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.3[0-1]{1}\\.\\d{1,3}\\.\\d{1,3}|0:0:0:0:0:0:0:1|::1';
    const t = translateJavaRegex(def);
    expect(redosVerdict({ java: def, source: t.source, flags: t.flags }).status).toBe('safe');
  });

  it('asks recheck only about patterns with unbounded repetition; the others match bounded inputs only', () => {
    expect(repeatsUnbounded('^(?:10\\.\\d{1,3}\\.\\d{1,3})$')).toBe(false);
    expect(repeatsUnbounded('^(?:[*+]\\*\\+a{2}b?)$')).toBe(false);
    expect(repeatsUnbounded('^(?:a{2,})$')).toBe(true);
    expect(repeatsUnbounded('^(?:a+)$')).toBe(true);
    expect(repeatsUnbounded('^(?:[a]*)$')).toBe(true);
    expect(repeatsUnbounded('^(?:\\d*)$')).toBe(true);
    // The shortcut agrees with recheck on bounded forms of the vulnerable shapes.
    const { checkSync } = createRequire(import.meta.url)('recheck') as {
      checkSync: (s: string, f: string) => { status: string };
    };
    for (const source of ['^(?:(a|a){0,5}b)$', '^(?:(\\d{1,3}|\\d{1,3}\\.){1,4}x)$', '^(?:(a{1,3}){1,3})$']) {
      expect(repeatsUnbounded(source)).toBe(false);
      expect(checkSync(source, '').status).toBe('safe');
    }
  });

  it('decides every pattern of a base, however many: no budget shared between patterns, so no verdict depends on the machine or the order of the webapps', () => {
    // Thirty distinct vulnerable patterns: under the old 600 ms budget per process the later ones came out "could not decide in time".
    const apps: Record<string, string> = {};
    for (let i = 0; i < 30; i++)
      apps[`bad${String(i).padStart(2, '0')}`] = filter('RemoteAddrFilter', {
        allow: `10\\.${i}\\.(\\d+|\\d+\\.)+\\d+`,
      });
    const dir = base(apps);
    const redos = lintBase(loadBase({ base: dir })).diagnostics.filter((d) => d.ruleId === 'regex-redos');
    expect(redos.map((d) => d.span.file.split('/').at(-3))).toEqual(Object.keys(apps).sort());
    expect(redos.every((d) => d.severity === 'error' && /exponential/.test(d.message))).toBe(true);
  });

  it('asks about each alternative of a whole-string pattern on its own: a long list of safe alternatives is decided safe, one bad alternative makes the pattern vulnerable', () => {
    expect(alternativesOf('^(?:a+|b|(c|d)*)$', '')).toEqual(['^(?:a+)$', '^(?:b)$', '^(?:(c|d)*)$']);
    // A backreference may name a group of another alternative: kept whole.
    expect(alternativesOf('^(?:(a)|b\\1)$', '')).toEqual(['^(?:(a)|b\\1)$']);
    expect(alternativesOf('^(?:a|b)c$', '')).toEqual(['^(?:a|b)c$']);
    const hosts = Array.from({ length: 20 }, (_, i) => `host${i}[a-z]*\\.example\\.(com|org)`).join('|');
    const t = translateJavaRegex(hosts);
    expect(t.source.length).toBeGreaterThan(MAX_ANALYSED_LENGTH);
    expect(redosVerdict({ java: hosts, source: t.source, flags: t.flags }).status).toBe('safe');
    const withBad = `${hosts}|(a|a)*b`;
    const u = translateJavaRegex(withBad);
    expect(redosVerdict({ java: withBad, source: u.source, flags: u.flags })).toMatchObject({
      status: 'vulnerable',
      complexity: { type: 'exponential' },
    });
  });

  it('reports an alternative too long to analyse as a warning that says so, the same on every machine', () => {
    const long = `(${'abcdefgh'.repeat(60)})*x`;
    const dir = base({ long: filter('RemoteHostFilter', { allow: long }) });
    const redos = lintBase(loadBase({ base: dir })).diagnostics.filter((d) => d.ruleId === 'regex-redos');
    expect(redos).toHaveLength(1);
    expect(redos[0]).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining(`over ${MAX_ANALYSED_LENGTH} characters`),
    });
  });
});
