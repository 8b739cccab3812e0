import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/lint/rules/index.js';
import { app, cleanup, filter, ids, lintFiles } from './helpers.js';
import { HARDENING_APP_CASE_IDS } from './hardening-app-cases.js';
import { HARDENING_CASE_IDS } from './hardening-cases.js';
import { MORE_FAILS, RULE_CASES } from './rule-cases.js';

afterAll(cleanup);

describe('every rule has a failing and a passing case', () => {
  it('covers every registered rule except base-unreadable (a CLI usage error, tested there); the hardening rules have theirs in test/fixtures/hardening/rules (web.xml, tomcat-users.xml) and hardening-cases.ts (the container)', () => {
    const missing = RULES.map((r) => r.meta.id).filter(
      (id) =>
        !(id in RULE_CASES) &&
        !HARDENING_APP_CASE_IDS.has(id) &&
        !HARDENING_CASE_IDS.has(id) &&
        id !== 'base-unreadable',
    );
    expect(missing).toEqual([]);
  });
  // Each case's findings (the failing one's, at their places, with their messages; none on the passing one)
  // and its fixes are checked in rule-positions.test.ts, which lints every case once.
});

describe('the further failing configurations observed on Tomcat (MORE_FAILS)', () => {
  for (const [id, list] of Object.entries(MORE_FAILS)) {
    list.forEach((files, i) => {
      it(`${id}: reported on further configuration ${i + 1}`, () => {
        expect(ids(lintFiles(files))).toContain(id);
      });
    });
  }
});

describe('filter-never-mapped across the defaults', () => {
  it('counts a conf/web.xml mapping for a filter web.xml.default defines, since Tomcat reads the two as one descriptor', () => {
    const descriptor = (body: string) =>
      `<?xml version="1.0"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
    const files = {
      'conf/web.xml': descriptor(
        '<filter-mapping><filter-name>h</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
      ),
      'conf/Catalina/localhost/web.xml.default': descriptor(filter('h', 'WebdavFixFilter', {}, false)),
      ...app(''),
    };
    const found = lintFiles(files);
    expect(ids(found)).not.toContain('filter-never-mapped');
    expect(ids(found)).not.toContain('filter-mapping-undefined-filter');
  });
});

describe('mappings belong to the definition they resolve to, not to every filter of that name', () => {
  it('csrf-not-covering-all sees that one application maps its CsrfPreventionFilter to /admin/* although another maps a same-named one to /*', () => {
    const webXml = (body: string) =>
      `<?xml version="1.0"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
    const found = lintFiles({
      'webapps/a/WEB-INF/web.xml': webXml(filter('csrf', 'CsrfPreventionFilter')),
      'webapps/b/WEB-INF/web.xml': webXml(
        filter('csrf', 'CsrfPreventionFilter', {}, false) +
          '<filter-mapping><filter-name>csrf</filter-name><url-pattern>/admin/*</url-pattern></filter-mapping>',
      ),
    });
    const hits = found.filter((d) => d.ruleId === 'csrf-not-covering-all');
    expect(hits.map((d) => d.span.file.replace(/.*webapps\//, ''))).toEqual(['b/WEB-INF/web.xml']);
  });
});

describe('unknown-filter-class against what Tomcat 10.1 did with each class', () => {
  const observed = (
    JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tomcat-observed', 'filter-class.json'), 'utf8'),
    ) as { observed: { class: string; started: boolean }[] }
  ).observed;
  const mapped = (cls: string) =>
    app(
      `<filter><filter-name>f</filter-name><filter-class>${cls}</filter-class></filter><filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>`,
    );
  for (const o of observed) {
    it(`${o.class}: Tomcat ${o.started ? 'started' : 'refused'} the application, lint ${o.started ? 'is silent' : 'reports an error'}`, () => {
      const errors = lintFiles(mapped(o.class)).filter((d) => d.severity === 'error');
      expect(errors.length > 0).toBe(!o.started);
    });
  }

  it('proposes the one filter a misspelt or wrongly packaged name means, and leaves application classes alone', () => {
    const found = (cls: string) => lintFiles(mapped(cls)).filter((d) => d.ruleId === 'unknown-filter-class');
    expect(found('org.apache.catalina.filters.corsfilter')[0]!.fix?.[0]?.text).toBe(
      'org.apache.catalina.filters.CorsFilter',
    );
    expect(found('org.vendor.container.filters.RemoteIpFiltr')[0]!.fix?.[0]?.text).toBe(
      'org.vendor.container.filters.RemoteIpFilter',
    );
    expect(found('org.apache.tomcat.filters.ExpiresFilter')[0]!.fix?.[0]?.text).toBe(
      'org.apache.catalina.filters.ExpiresFilter',
    );
    expect(found('org.apache.catalina.filters.RemoteFilter')[0]!.fix).toBeUndefined();
    expect(found('com.example.filters.CorsFilter')).toEqual([]);
    expect(found('org.ebaysf.web.cors.CORSFilter')).toEqual([]);
  });
});

describe('rest-csrf-not-covering weighs url-patterns by their shapes', () => {
  const servlets = (...patterns: string[]) =>
    `<servlet><servlet-name>api</servlet-name><servlet-class>com.example.Api</servlet-class></servlet><servlet-mapping><servlet-name>api</servlet-name>${patterns.map((p) => `<url-pattern>${p}</url-pattern>`).join('')}</servlet-mapping>`;
  const mapped = (...targets: string[]) =>
    filter('r', 'RestCsrfPreventionFilter', {}, false) +
    `<filter-mapping><filter-name>r</filter-name>${targets.map((t) => (t.startsWith('name:') ? `<servlet-name>${t.slice(5)}</servlet-name>` : `<url-pattern>${t}</url-pattern>`)).join('')}</filter-mapping>`;
  const found = (body: string) => lintFiles(app(body)).filter((d) => d.ruleId === 'rest-csrf-not-covering');
  it('a prefix covers the prefixes under it and exact paths in it, not its parent', () => {
    expect(found(servlets('/api/v1/*', '/api/login') + mapped('/api/*'))).toEqual([]);
    expect(found(servlets('/api/*') + mapped('/api/v1/*'))[0]!.message).toContain('"/api/*"');
  });
  it('an extension covers only itself; the default servlet only /*', () => {
    expect(found(servlets('*.do') + mapped('*.do'))).toEqual([]);
    expect(found(servlets('*.do', '/') + mapped('/x/*'))[0]!.message).toMatch(/"\*\.do", "\/"/);
    expect(found(servlets('*.do', '/') + mapped('/*'))).toEqual([]);
  });
  it('a mapping by servlet name covers every URL of that servlet', () => {
    expect(found(servlets('/api/*', '/admin/*') + mapped('name:api'))).toEqual([]);
  });
});
