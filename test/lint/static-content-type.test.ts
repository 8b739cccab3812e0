/**
 * static-content-type-missing: static files whose extensions have no mime-mapping, sent with nosniff.
 * Its place and message on a small base, silence on Tomcat's own conf/web.xml and applications (with
 * the shipped HttpHeaderSecurityFilter switched on), and the example base `npm start` serves.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import type { Diagnostic } from '../../src/model/index.js';
import { needPackages } from '../system-packages.js';
import { app, cleanup, filter, lintFiles, tree } from './helpers.js';

afterAll(cleanup);

const RULE = 'static-content-type-missing';
const DEFAULT_SERVLET =
  '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>';
const HEADERS = filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' });
const mime = (ext: string, type: string): string =>
  `<mime-mapping><extension>${ext}</extension><mime-type>${type}</mime-type></mime-mapping>`;

const ofRule = (ds: Diagnostic[]): Diagnostic[] => ds.filter((d) => d.ruleId === RULE);
const lintDir = (dir: string): Diagnostic[] => ofRule(lintBase(loadInput(dir)).diagnostics);

describe(RULE, () => {
  it('names the extensions without a MIME type, at the root element of the web.xml to add them to', () => {
    const found = ofRule(
      lintFiles({
        ...app(`${HEADERS}\n${DEFAULT_SERVLET}\n${mime('css', 'text/css')}`),
        'webapps/app/index.html': '<p>page</p>',
        'webapps/app/about.HTML': '<p>about</p>',
        'webapps/app/site.css': 'p {}',
        'webapps/app/assets/app.js': '1;',
        'webapps/app/WEB-INF/secret.bin': 'never served',
        'webapps/app/schema.xsd': 'untyped, but a download either way',
        'webapps/app/README': 'no extension',
      }),
    );
    expect(found.map((d) => [d.span.line, d.span.column, d.span.endLine, d.span.endColumn, d.severity])).toEqual([
      [2, 1, 2, 9, 'warning'],
    ]);
    expect(found[0]!.span.file).toMatch(/webapps\/app\/WEB-INF\/web\.xml$/);
    expect(found[0]!.message).toContain('The application /app has pages, scripts or style sheets with no MIME type');
    expect(found[0]!.message).toContain(': .html (2 files), .js (1 file). Tomcat sends');
    expect(found[0]!.message).not.toContain('.bin');
    expect(found[0]!.message).not.toContain('.xsd');
    expect(found[0]!.message).not.toContain('.css');
    expect(found[0]!.message).toContain('HttpHeaderSecurityFilter "h"');
  });

  it('is quiet when every extension is mapped, nosniff is off, the filter is not mapped, or another servlet than the default one serves /', () => {
    const files = { 'webapps/app/index.html': '<p>page</p>' };
    const quiet = [
      app(`${HEADERS}\n${DEFAULT_SERVLET}\n${mime('HTML', 'text/html')}`),
      app(
        `${filter('h', 'HttpHeaderSecurityFilter', { blockContentTypeSniffingEnabled: 'false' })}\n${DEFAULT_SERVLET}`,
      ),
      app(`${filter('h', 'HttpHeaderSecurityFilter', {}, false)}\n${DEFAULT_SERVLET}`),
      app(
        `${HEADERS}\n<servlet><servlet-name>app</servlet-name><servlet-class>com.example.App</servlet-class></servlet><servlet-mapping><servlet-name>app</servlet-name><url-pattern>/</url-pattern></servlet-mapping>`,
      ),
    ];
    for (const descriptor of quiet) expect(ofRule(lintFiles({ ...descriptor, ...files }))).toEqual([]);
  });

  it('leaves out files an extension mapping sends to another servlet', () => {
    const jsp =
      '<servlet><servlet-name>pages</servlet-name><servlet-class>com.example.Pages</servlet-class></servlet><servlet-mapping><servlet-name>pages</servlet-name><url-pattern>*.html</url-pattern></servlet-mapping>';
    const files = { 'webapps/app/index.html': '<p/>' };
    expect(ofRule(lintFiles({ ...app(`${HEADERS}\n${DEFAULT_SERVLET}\n${jsp}`), ...files }))).toEqual([]);
    expect(ofRule(lintFiles({ ...app(`${HEADERS}\n${DEFAULT_SERVLET}`), ...files }))).toHaveLength(1);
  });

  it("is quiet on Tomcat's shipped conf/web.xml with its HttpHeaderSecurityFilter on, over Tomcat's own applications", () => {
    needPackages('tomcat10', 'tomcat10-admin', 'tomcat10-docs');
    const shipped = readFileSync('/etc/tomcat10/web.xml', 'utf8').replace(
      '</web-app>',
      `${filter('httpHeaderSecurity', 'HttpHeaderSecurityFilter')}\n</web-app>`,
    );
    const base = tree({
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
      'conf/web.xml': shipped,
    });
    for (const [from, to] of [
      ['/var/lib/tomcat10/webapps/ROOT', 'ROOT'],
      ['/usr/share/tomcat10-docs/docs', 'docs'],
      ['/usr/share/tomcat10-admin/manager', 'manager'],
      ['/usr/share/tomcat10-admin/host-manager', 'host-manager'],
    ] as const)
      cpSync(from, join(base, 'webapps', to), { recursive: true, dereference: true });
    expect(lintDir(base).map((d) => d.message)).toEqual([]);
  });

  it("is quiet on the example base (its conf/web.xml carries Tomcat 10.1's MIME table), and names its files without it", () => {
    const example = join(import.meta.dirname, '..', '..', 'examples', 'base');
    expect(lintDir(example)).toEqual([]);
    const copy = tree({});
    cpSync(example, copy, { recursive: true });
    const webXml = join(copy, 'conf', 'web.xml');
    writeFileSync(webXml, readFileSync(webXml, 'utf8').replace(/^\s*<mime-mapping>.*$\n/gm, ''));
    const found = lintDir(copy);
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((d) => d.message).join('\n')).toMatch(/\.html \(\d+ files?\)/);
  });
});
