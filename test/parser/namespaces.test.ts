import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBase, parseWebXml } from '../../src/parser/index.js';

/**
 * What Tomcat 10.1.60 did with each of these descriptors (a HttpHeaderSecurityFilter
 * mapped to /*, probed for X-Frame-Options): see each test's name.
 */
const F =
  '<filter><filter-name>h</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class></filter><filter-mapping><filter-name>h</filter-name><url-pattern>/*</url-pattern></filter-mapping>';
const prefix = (xml: string, p: string) => xml.replace(/<(\/?)([a-z-]+)>/g, `<$1${p}:$2>`);
const PREFIXED = `<j2ee:web-app xmlns:j2ee="http://java.sun.com/xml/ns/j2ee" version="2.4">${prefix(F, 'j2ee')}</j2ee:web-app>`;

describe('namespaces as Tomcat reads them (no namespace processing by default)', () => {
  it('ignores a whole prefixed descriptor (observed: the filter did not run)', () => {
    const r = parseWebXml(PREFIXED, 'web.xml');
    expect(r.webXml).toBeNull();
    const d = r.diagnostics.find((x) => x.ruleId === 'xml-wrong-root')!;
    expect(d.severity).toBe('error');
    expect(d.message).toContain('xmlNamespaceAware');
    expect(PREFIXED.slice(d.span.offset, d.span.endOffset)).toMatch(/^<j2ee:web-app .*>$/);
  });

  it('reads a prefixed descriptor by local names when the Context is namespace aware (observed: the filter ran)', () => {
    const r = parseWebXml(PREFIXED, 'web.xml', undefined, { namespaceAware: true });
    expect(r.diagnostics).toEqual([]);
    expect(r.webXml!.filters.map((f) => f.className!.value)).toEqual([
      'org.apache.catalina.filters.HttpHeaderSecurityFilter',
    ]);
    expect(r.webXml!.generation).toBe('2.4');
  });

  it('ignores prefixed elements inside an unprefixed web-app, each reported (observed: the filter did not run)', () => {
    const text = `<web-app xmlns:x="https://jakarta.ee/xml/ns/jakartaee" version="6.0">${prefix(F, 'x')}</web-app>`;
    const r = parseWebXml(text, 'web.xml');
    expect(r.webXml!.filters).toEqual([]);
    expect(r.webXml!.filterMappings).toEqual([]);
    const ignored = r.diagnostics.filter((d) => d.ruleId === 'xml-unknown-namespace');
    expect(ignored.map((d) => text.slice(d.span.offset, d.span.endOffset))).toEqual([
      '<x:filter>',
      '<x:filter-mapping>',
    ]);
  });

  it('reads a web-app in an unknown namespace, with a warning (observed: the filter ran)', () => {
    const r = parseWebXml(`<web-app xmlns="urn:nope" version="6.0">${F}</web-app>`, 'web.xml');
    expect(r.webXml!.filters).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['xml-unknown-namespace', 'warning']]);
  });

  it('reads the usual xmlns:xsi / xsi:schemaLocation descriptor without any finding', () => {
    const text = `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd" version="6.0">${F}</web-app>`;
    const r = parseWebXml(text, 'web.xml');
    expect(r.diagnostics).toEqual([]);
    expect(r.webXml!.filters).toHaveLength(1);
  });
});

describe('malformed descriptors', () => {
  it('marks where a descriptor stops being well-formed (observed: Tomcat fails the context)', () => {
    const text = `<web-app>\n${F}\n<filter>`;
    const r = parseWebXml(text, 'web.xml');
    expect(r.webXml!.filters).toHaveLength(1);
    expect(r.webXml!.malformed).toMatchObject({ line: 3 });
    expect(parseWebXml(`<web-app>${F}</web-app>`, 'web.xml').webXml!.malformed).toBeUndefined();
  });

  it('marks an undefined entity as malformed too (observed: "Parse error in application web.xml")', () => {
    const r = parseWebXml('<web-app><display-name>&nope;</display-name></web-app>', 'web.xml');
    expect(r.webXml!.malformed).toBeDefined();
  });
});

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-ns-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('descriptors of a base that Tomcat ignores', () => {
  it('reads a prefixed WEB-INF/web.xml only under a Context with xmlNamespaceAware="true"', () => {
    const base = tree({
      'webapps/plain/WEB-INF/web.xml': PREFIXED,
      'webapps/aware/WEB-INF/web.xml': PREFIXED,
      'webapps/aware/META-INF/context.xml': '<Context xmlNamespaceAware="true"/>',
    });
    const c = Object.fromEntries(loadBase({ base }).hosts[0]!.contexts.map((x) => [x.path, x]));
    expect(c['/plain']!.webXml).toBeNull();
    expect(c['/aware']!.webXml!.filters).toHaveLength(1);
  });

  it('reads a <web-fragment> or a lone <filter> as WEB-INF/web.xml as absent, with an error (observed: ignored)', () => {
    const base = tree({
      'webapps/frag/WEB-INF/web.xml': `<web-fragment xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">${F}</web-fragment>`,
      'webapps/snippet/WEB-INF/web.xml': F.slice(0, F.indexOf('<filter-mapping>')),
    });
    const b = loadBase({ base });
    for (const ctx of b.hosts[0]!.contexts) expect(ctx.webXml, ctx.path).toBeNull();
    const wrong = b.diagnostics.filter((d) => d.ruleId === 'xml-wrong-root').map((d) => d.span.file);
    expect(wrong.sort()).toEqual([
      join(base, 'webapps/frag/WEB-INF/web.xml'),
      join(base, 'webapps/snippet/WEB-INF/web.xml'),
    ]);
  });
});
