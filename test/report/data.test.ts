import { afterAll, describe, expect, it } from 'vitest';
import { loadBase } from '../../src/parser/index.js';
import { buildReportData } from '../../src/report/index.js';
import { cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

const webXml = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const GLOBAL = webXml(
  filter('headers', 'HttpHeaderSecurityFilter') +
    '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>',
);

describe('the data the report page is built from', () => {
  const root = tree({
    'conf/web.xml': GLOBAL,
    'webapps/api/WEB-INF/web.xml': webXml(
      filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://app.example.com' }),
    ),
    'webapps/broken/WEB-INF/web.xml': webXml(
      filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' }),
    ),
    'webapps/api/index.html': 'api',
  });
  const data = buildReportData(loadBase({ base: root }), root, { label: 'base', now: new Date(0) });
  const ctx = (path: string) => data.hosts[0]!.contexts.find((c) => c.path === path)!;

  it('lists hosts and contexts with the state Tomcat would give each, and why a context is refused', () => {
    expect(data.title).toBe('tollgate report: base');
    expect(data.hosts.map((h) => [h.name, h.isDefault])).toEqual([['localhost', true]]);
    expect(ctx('/api').state).toBe('starts');
    expect(ctx('/broken').state).toBe('refused');
    expect(ctx('/broken').reasons[0]!.place).toEqual({
      file: 'webapps/broken/WEB-INF/web.xml',
      line: 6,
      column: expect.any(Number),
    });
  });

  it('gives each URL pattern its chain in Tomcat order: the app mapping, then the global one', () => {
    const api = ctx('/api');
    const chain = api.chains.find((c) => c.pattern === '/*' && c.dispatcher === 'REQUEST')!;
    expect(chain.filters.map((i) => api.filters[i]!.name)).toEqual(['cors', 'headers']);
    expect(chain.servlet).toBe('default');
    expect(api.filters.find((f) => f.name === 'headers')!.origin).toBe('global');
    expect(api.tableFilters).toEqual(expect.arrayContaining(['cors', 'headers']));
    expect(api.files).toContain('/index.html');
  });

  it('marks parameters the descriptor does not set as Tomcat defaults, and keeps those it sets', () => {
    const cors = ctx('/api').filters.find((f) => f.name === 'cors')!;
    expect(cors.params.find((p) => p.name === 'cors.allowed.origins')).toEqual({
      name: 'cors.allowed.origins',
      value: 'https://app.example.com',
      isDefault: false,
    });
    expect(cors.params.find((p) => p.name === 'cors.preflight.maxage')).toEqual({
      name: 'cors.preflight.maxage',
      value: '1800',
      isDefault: true,
    });
    expect(cors.declared.file).toBe('webapps/api/WEB-INF/web.xml');
  });

  it('groups findings by file with a code frame around each', () => {
    const broken = data.findings.find((f) => f.file === 'webapps/broken/WEB-INF/web.xml')!;
    const invalid = broken.items.find((i) => i.ruleId === 'filter-param-invalid')!;
    expect(invalid.severity).toBe('error');
    expect(invalid.frame.some((l) => l.line === invalid.place.line && l.text.includes('one year'))).toBe(true);
    expect(data.counts.error).toBeGreaterThan(0);
  });

  it('adds the audit table when a benchmark is asked for', () => {
    const audited = buildReportData(loadBase({ base: root }), root, { benchmark: 'cis-tomcat-10.1' });
    expect(audited.audit!.benchmark).toBe('cis-tomcat-10.1');
    expect(audited.audit!.controls.length).toBeGreaterThan(10);
    expect(new Set(audited.audit!.controls.map((c) => c.status))).toContain('manual');
  });
});
