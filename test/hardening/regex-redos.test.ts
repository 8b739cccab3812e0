/**
 * Regexes from configuration run on every request: patterns open to
 * catastrophic backtracking are lint errors (recheck decides), and compile and
 * serve leave the context that has one unstarted.
 */
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planBase } from '../../src/plan/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { recheckTimeout, redosVerdict, repeatsUnbounded } from '../../src/lint/rules/regex-redos.js';
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
  `<filter><filter-name>f</filter-name><filter-class>org.apache.catalina.filters.${cls}</filter-class>${Object.entries(params)
    .map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('')}</filter><filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>`;

const VULNERABLE: [string, Record<string, string>][] = [
  ['RemoteIpFilter', { internalProxies: '(\\d+|\\d+\\.)+\\d+' }],
  ['RemoteIpFilter', { trustedProxies: '(10\\.\\d+\\.\\d+\\.\\d+)*(10\\.\\d+\\.\\d+\\.\\d+)*' }],
  ['RemoteAddrFilter', { allow: '(a|a)*b' }],
  ['RemoteHostFilter', { deny: '([a-z]+\\.)*[a-z]+\\.([a-z]+\\.)*example\\.com' }],
];
const SAFE: [string, Record<string, string>][] = [
  ['RemoteIpFilter', { internalProxies: '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|192\\.168\\.\\d{1,3}\\.\\d{1,3}|0:0:0:0:0:0:0:1|::1' }],
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

  it('the plan, which compile and serve run, starts a context with such a pattern as Tomcat does (lint reports it; --strict stops the build)', () => {
    const dir = base({ bad: filter(...VULNERABLE[0]!), good: filter(...SAFE[0]!) });
    const { plans, skipped } = planBase(loadBase({ base: dir }));
    expect(plans.map((p) => p.contextPath)).toEqual(['/bad', '/good']);
    expect(skipped).toEqual([]);
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
    const { checkSync } = createRequire(import.meta.url)('recheck') as { checkSync: (s: string, f: string) => { status: string } };
    for (const source of ['^(?:(a|a){0,5}b)$', '^(?:(\\d{1,3}|\\d{1,3}\\.){1,4}x)$', '^(?:(a{1,3}){1,3})$']) {
      expect(repeatsUnbounded(source)).toBe(false);
      expect(checkSync(source, '').status).toBe('safe');
    }
  });

  it('gives recheck whole-number timeouts within the budget (a fractional one hangs its agent for good)', () => {
    for (const spent of [0, 0.5, 123.456, 299.9, 300.01, 450.75, 579.99, 581]) {
      const t = recheckTimeout(spent);
      expect(t === null || Number.isInteger(t), String(spent)).toBe(true);
      if (t !== null) expect(t).toBeGreaterThanOrEqual(20);
    }
    expect(recheckTimeout(0)).toBe(300);
    expect(recheckTimeout(450.75)).toBe(149);
    expect(recheckTimeout(590)).toBeNull();
  });
});
