import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEVERITY_OF_EFFECT } from '../../src/model/index.js';
import { RULES } from '../../src/lint/rules/index.js';
import { effectOf, refusesStart, severityDoc, withTomcatSection } from '../../src/lint/severity.js';
import { app, cleanup, filter, lintFiles } from './helpers.js';

afterAll(cleanup);

describe('the severity policy', () => {
  it('docs/severity.md is generated from the rules (npx tsx scripts/severity-doc.ts > docs/severity.md), so a new rule is listed or this fails', () => {
    const file = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'severity.md'), 'utf8');
    expect(file).toBe(severityDoc());
  });

  it('opens every rule page\'s "What Tomcat 10.1 does" section with the rule\'s verdict (npx tsx scripts/severity-doc.ts --rules)', () => {
    const stale = RULES.filter(({ meta }) => {
      const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules', `${meta.id}.md`), 'utf8');
      return !page.includes('## What Tomcat 10.1 does\n') || withTomcatSection(page, meta.id) !== page;
    });
    expect(stale.map((r) => r.meta.id)).toEqual([]);
  });

  it('gives every rule, and every variant of one, the severity its effect on Tomcat calls for', () => {
    const wrong: string[] = [];
    for (const { meta: m } of RULES) {
      for (const v of [{ severity: m.defaultSeverity, effect: m.effect, when: 'default' }, ...(m.variants ?? [])]) {
        if (v.effect !== 'tollgate' && SEVERITY_OF_EFFECT[v.effect] !== v.severity)
          wrong.push(`${m.id} (${v.when}): ${v.severity} for ${v.effect}`);
      }
      if (!/^[^\n]+\.$/.test(m.reason)) wrong.push(`${m.id}: the reason is not one sentence on one line`);
    }
    expect(wrong).toEqual([]);
  });
});

/** A minimal base with one application, and what lint says of one rule in it. */
function findings(body: string, ruleId: string) {
  return lintFiles(app(body))
    .filter((d) => d.ruleId === ruleId)
    .map((d) => ({ severity: d.severity, effect: effectOf(d), refuses: refusesStart(d) }));
}

const STARTS_AND_MISBEHAVES = [{ severity: 'error', effect: 'misbehaves', refuses: false }];

/** The classes issue 17 found reported as warnings although Tomcat starts and then does the wrong thing. */
describe('errors that Tomcat starts with, and then runs wrongly', () => {
  it('HSTS whose max-age ends up 0 (the header tells browsers to forget HSTS)', () => {
    expect(findings(filter('h', 'HttpHeaderSecurityFilter'), 'hsts-max-age-zero')).toEqual(STARTS_AND_MISBEHAVES);
    expect(findings(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '-5' }), 'hsts-max-age-zero')).toEqual(
      STARTS_AND_MISBEHAVES,
    );
  });

  it('a CIDR entry Java reads as another address (10.1.2/24 is 10.1.0.2/24)', () => {
    expect(findings(filter('c', 'RemoteCIDRFilter', { allow: '10.1.2/24' }), 'filter-param-cidr')).toEqual(
      STARTS_AND_MISBEHAVES,
    );
  });

  it('a CORS origin no browser sends (a path, upper case, the default port)', () => {
    expect(
      findings(
        filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://app.example.com/' }),
        'filter-param-no-effect',
      ),
    ).toEqual(STARTS_AND_MISBEHAVES);
  });

  it('a boolean spelt yes, 1 or on on a switch (Boolean.parseBoolean reads false)', () => {
    for (const v of ['yes', '1', 'on'])
      expect(
        findings(
          filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '60', antiClickJackingEnabled: v }),
          'filter-param-boolean-spelling',
        ),
      ).toEqual(STARTS_AND_MISBEHAVES);
  });

  it('a dispatcher Tomcat does not know (the mapping then applies elsewhere)', () => {
    const body = `${filter('w', 'WebdavFixFilter', {}, false)}\n  <filter-mapping><filter-name>w</filter-name><url-pattern>/*</url-pattern><dispatcher>FORWARDS</dispatcher></filter-mapping>`;
    expect(findings(body, 'invalid-dispatcher')).toEqual(STARTS_AND_MISBEHAVES);
  });

  it('a CSRF nonce cache of zero or less (every nonce refused)', () => {
    for (const n of ['0', '-1'])
      expect(findings(filter('c', 'CsrfPreventionFilter', { nonceCacheSize: n }), 'filter-param-invalid')).toEqual(
        STARTS_AND_MISBEHAVES,
      );
  });

  it('an insecure randomClass (predictable nonces)', () => {
    expect(
      findings(filter('c', 'CsrfPreventionFilter', { randomClass: 'java.util.Random' }), 'csrf-insecure-random'),
    ).toEqual(STARTS_AND_MISBEHAVES);
  });

  it('an unknown charset in SetCharacterEncodingFilter (every request answered 500)', () => {
    expect(findings(filter('e', 'SetCharacterEncodingFilter', { encoding: 'UTF-9' }), 'filter-param-invalid')).toEqual(
      STARTS_AND_MISBEHAVES,
    );
  });
});

describe('errors that Tomcat refuses to start', () => {
  it('an entity-expansion bomb that is referenced', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const files = {
      'webapps/app/WEB-INF/web.xml': `<?xml version="1.0"?>\n<!DOCTYPE web-app [<!ENTITY l0 "lol">${laughs}]>\n<web-app><display-name>&l9;</display-name></web-app>\n`,
    };
    expect(
      lintFiles(files)
        .filter((d) => d.ruleId === 'xml-entity-expansion')
        .map((d) => [d.severity, refusesStart(d)]),
    ).toEqual([['error', true]]);
  });

  it('an empty filter-name ("Invalid <filter-name> [] in filter definition")', () => {
    const body =
      '  <filter><filter-name></filter-name><filter-class>org.apache.catalina.filters.WebdavFixFilter</filter-class></filter>';
    expect(findings(body, 'webxml-missing-element')).toEqual([{ severity: 'error', effect: 'refuses', refuses: true }]);
  });
});
