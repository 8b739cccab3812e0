import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContextXml, parseTomcatUsers, parseWebXml } from '../../src/parser/index.js';

/** Descriptors of every generation as their schemas or DTDs have them written (test/fixtures/parser). */
const dir = join(import.meta.dirname, '..', 'fixtures', 'parser');
const read = (name: string) => readFileSync(join(dir, name));

const generations: [string, string, string | null][] = [
  ['2.2', 'webxml-2.2.xml', null],
  ['2.3', 'webxml-2.3.xml', null],
  ['2.4', 'webxml-2.4.xml', 'http://java.sun.com/xml/ns/j2ee'],
  ['2.5', 'webxml-2.5.xml', 'http://java.sun.com/xml/ns/javaee'],
  ['3.0', 'webxml-3.0.xml', 'http://java.sun.com/xml/ns/javaee'],
  ['3.1', 'webxml-3.1.xml', 'http://xmlns.jcp.org/xml/ns/javaee'],
  ['4.0', 'webxml-4.0.xml', 'http://xmlns.jcp.org/xml/ns/javaee'],
  ['5.0', 'webxml-5.0.xml', 'https://jakarta.ee/xml/ns/jakartaee'],
  ['6.0', 'webxml-6.0.xml', 'https://jakarta.ee/xml/ns/jakartaee'],
  ['6.1', 'webxml-6.1.xml', 'https://jakarta.ee/xml/ns/jakartaee'],
];

describe('descriptor generations from fixture files', () => {
  for (const [generation, file, namespace] of generations) {
    it(`reads ${file} as generation ${generation}, with exact spans`, () => {
      const bytes = read(file);
      const { webXml, source, diagnostics } = parseWebXml(bytes, join(dir, file));
      expect(diagnostics).toEqual([]);
      expect(webXml).toMatchObject({ root: 'web-app', generation, namespace });
      expect(source.encoding).toBe(namespace ? 'utf-8' : 'iso-8859-1');
      const f = webXml!.filters[0]!;
      // A three-line DOCTYPE or four lines of schema attributes: the body lands on the same lines either way.
      expect(f.className!.span).toMatchObject({ line: 9, column: 19, endLine: 9, endColumn: 71 });
      expect(f.initParams[0]!.value).toMatchObject({
        value: 'SAMEORIGIN',
        span: { line: 12, column: 20, endColumn: 30 },
      });
      expect(webXml!.filterMappings[0]!.urlPatterns[0]!.span).toMatchObject({ line: 17, column: 18, endColumn: 20 });
      if (namespace === null) expect(webXml!.doctype!.span).toMatchObject({ line: 2, column: 1, endLine: 4 });
    });
  }

  it('reads a web-fragment root', () => {
    const { webXml, diagnostics } = parseWebXml(read('web-fragment-6.0.xml'), 'web-fragment.xml');
    expect(diagnostics).toEqual([]);
    expect(webXml).toMatchObject({ root: 'web-fragment', generation: '6.0' });
    expect(webXml!.filters).toHaveLength(1);
  });
});

describe('other Tomcat files from fixture files', () => {
  it('splits roles of a tomcat-users.xml without namespace, each located at its own characters', () => {
    const bytes = read('tomcat-users-plain.xml');
    const { users, diagnostics, source } = parseTomcatUsers(bytes, 'tomcat-users.xml');
    expect(diagnostics).toEqual([]);
    const roles = users!.users[0]!.roles;
    expect(roles.map((r) => r.value)).toEqual(['manager-script', 'manager-jmx', 'manager-status']);
    for (const r of roles) expect(source.text.slice(r.span.offset, r.span.endOffset)).toBe(r.value);
    expect(roles[2]!.span).toMatchObject({ line: 4, column: 90, endColumn: 104 });
    expect(users!.roles.map((r) => r.rolename.value)).toEqual(['manager-script']);
  });

  it('reads a context file with its valves, comments and resolved docBase', () => {
    const { context, source, diagnostics } = parseContextXml(read('context.xml'), 'shop.xml', {
      'catalina.base': '/srv/base',
    });
    expect(diagnostics).toEqual([]);
    expect(context!.docBase!.value).toBe('/srv/base/apps/shop');
    expect(context!.docBase!.span).toMatchObject({ line: 2, column: 19, endColumn: 45 });
    expect(context!.valves[0]!.attributes['allow']!.value).toBe('127\\.\\d+\\.\\d+\\.\\d+|::1');
    expect(source.comments!.map((c) => c.span.line)).toEqual([3]);
  });
});
