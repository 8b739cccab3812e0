import { relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { cleanup, filter, tree } from './helpers.js';

/**
 * lintBase walks the base once, application by application, and shows each rule the filters,
 * descriptors and contexts it asks for. The findings must not depend on that walk: each rule's come
 * in the order of its own items, stages' before rules', one per rule and span, sorted by position.
 * These bases mix filter, descriptor and context rules across several applications, shared
 * defaults and identical declarations (which share one validation).
 */
afterAll(cleanup);

const webXml = (body: string, version = '6.0'): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="${version}">\n${body}\n</web-app>\n`;

const defaultServlet =
  '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>';
const cors = (origins: string): string =>
  filter('cors', 'CorsFilter', { 'cors.allowed.origins': origins, 'cors.allowed.headers': '*' });
const chainOrder = `${filter('addr', 'RemoteAddrFilter', { allow: '::1' })}\n${filter('ip', 'RemoteIpFilter')}`;

function findings(files: Record<string, string>, opts = {}): string[] {
  const dir = tree(files);
  return lintBase(loadInput(dir), opts).diagnostics.map(
    (d) => `${d.ruleId} ${relative(dir, d.span.file)}:${d.span.line}:${d.span.column}`,
  );
}

describe('the one walk of the base', () => {
  const files = {
    'conf/web.xml': webXml(
      `${defaultServlet}\n${filter('headers', 'HttpHeaderSecurityFilter', { hstsEnabled: 'false' })}`,
    ),
    'webapps/a/WEB-INF/web.xml': webXml(
      `${cors('*')}\n${chainOrder}\n  <filter-mapping><filter-name>cors</filter-name><url-pattern>/api*</url-pattern><dispatcher>REQUST</dispatcher></filter-mapping>`,
      '7.0',
    ),
    'webapps/b/WEB-INF/web.xml': webXml(
      `${cors('*')}\n${filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '0' })}\n${filter('more', 'HttpHeaderSecurityFilter')}`,
    ),
    // RemoteIpFilter after RemoteAddrFilter again: reported once per pair of names, in the first application.
    'webapps/c/WEB-INF/web.xml': webXml(
      `${filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'http://localhost' }, false)}\n${chainOrder}\n${filter('dump', 'RequestDumperFilter')}`,
    ),
  };

  it('reports what each rule finds in every application, in position order', () => {
    expect(findings(files)).toEqual(EXPECTED);
  });

  it('gives every rule the same findings whichever other rules are off', () => {
    const all = findings(files);
    for (const off of [
      'filter-never-mapped',
      'remote-ip-after-address-filter',
      'header-filter-overridden',
      'unusual-url-pattern',
      'cors-any-origin',
    ]) {
      expect(findings(files, { ruleLevels: { [off]: 'off' } })).toEqual(all.filter((f) => !f.startsWith(`${off} `)));
    }
  });
});

/** What the engine gave before the walk (each rule walking the base itself), checked with bench/out/snapshot.mts's method. */
const EXPECTED: string[] = [
  'server-xml-missing conf/server.xml:1:1',
  'hsts-disabled conf/web.xml:7:66',
  'webxml-version-unsupported webapps/a/WEB-INF/web.xml:2:63',
  'cors-any-origin webapps/a/WEB-INF/web.xml:6:75',
  'cors-allowed-headers-wildcard webapps/a/WEB-INF/web.xml:7:75',
  'remote-addr-ipv6-form webapps/a/WEB-INF/web.xml:13:60',
  'remote-ip-after-address-filter webapps/a/WEB-INF/web.xml:21:3',
  'unusual-url-pattern webapps/a/WEB-INF/web.xml:22:63',
  'invalid-dispatcher webapps/a/WEB-INF/web.xml:22:94',
  'cors-any-origin webapps/b/WEB-INF/web.xml:6:75',
  'cors-allowed-headers-wildcard webapps/b/WEB-INF/web.xml:7:75',
  'header-filter-overridden webapps/b/WEB-INF/web.xml:11:18',
  'hsts-max-age-zero webapps/b/WEB-INF/web.xml:18:19',
  'filter-never-mapped webapps/c/WEB-INF/web.xml:4:18',
  'cors-http-origin webapps/c/WEB-INF/web.xml:6:75',
  'remote-addr-ipv6-form webapps/c/WEB-INF/web.xml:11:60',
  // c repeats a's chain in its own file: its own finding (once per application, not once per filter pair).
  'remote-ip-after-address-filter webapps/c/WEB-INF/web.xml:19:3',
  'request-dumper-enabled webapps/c/WEB-INF/web.xml:21:18',
];
