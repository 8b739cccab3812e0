import { describe, expect, it } from 'vitest';
import { parseWebXml } from '../../src/parser/index.js';

const filterBody = `
  <filter>
    <filter-name>cors</filter-name>
    <filter-class>org.apache.catalina.filters.CorsFilter</filter-class>
    <init-param>
      <param-name>cors.allowed.origins</param-name>
      <param-value>  https://a.example  </param-value>
    </init-param>
  </filter>
  <filter-mapping>
    <filter-name>cors</filter-name>
    <url-pattern>/api/*</url-pattern>
    <dispatcher>REQUEST</dispatcher>
  </filter-mapping>`;

const generations: [string, string, string][] = [
  [
    '2.3',
    `<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">\n<web-app>`,
    '2.3',
  ],
  ['2.4', `<web-app xmlns="http://java.sun.com/xml/ns/j2ee" version="2.4">`, '2.4'],
  ['2.5', `<web-app xmlns="http://java.sun.com/xml/ns/javaee" version="2.5">`, '2.5'],
  ['3.0', `<web-app xmlns="http://java.sun.com/xml/ns/javaee" version="3.0">`, '3.0'],
  ['3.1', `<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="3.1">`, '3.1'],
  ['4.0', `<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0">`, '4.0'],
  ['5.0', `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="5.0">`, '5.0'],
  ['6.0', `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">`, '6.0'],
  ['6.1', `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">`, '6.1'],
  ['prefixed j2ee', `<j2ee:web-app xmlns:j2ee="http://java.sun.com/xml/ns/j2ee" version="2.4">`, '2.4'],
];

describe('web.xml generations', () => {
  for (const [label, open, generation] of generations) {
    it(`reads filters and mappings of a ${label} descriptor`, () => {
      const prefixed = open.startsWith('<j2ee:');
      const body = prefixed ? filterBody.replace(/<(\/?)([a-z-]+)>/g, '<$1j2ee:$2>') : filterBody;
      const close = prefixed ? '</j2ee:web-app>' : '</web-app>';
      // A prefixed descriptor is read only with namespace processing (the Context's xmlNamespaceAware="true").
      const { webXml, diagnostics } = parseWebXml(
        `<?xml version="1.0"?>\n${open}${body}\n${close}\n`,
        'web.xml',
        undefined,
        { namespaceAware: prefixed },
      );
      expect(diagnostics).toEqual([]);
      expect(webXml!.generation).toBe(generation);
      const f = webXml!.filters[0]!;
      expect(f.name.value).toBe('cors');
      expect(f.className!.value).toBe('org.apache.catalina.filters.CorsFilter');
      expect(f.initParams[0]!.value.value).toBe('https://a.example');
      expect(webXml!.filterMappings[0]!.urlPatterns.map((u) => u.value)).toEqual(['/api/*']);
      expect(webXml!.filterMappings[0]!.dispatchers.map((d) => d.value)).toEqual(['REQUEST']);
    });
  }

  it('reads comments, CDATA and trims whitespace in values', () => {
    const { webXml, source } = parseWebXml(
      `<web-app><!-- tollgate-disable-next-line x -->\n<filter><filter-name>\n  f\n</filter-name><filter-class><![CDATA[ a.B ]]></filter-class></filter></web-app>`,
      'w.xml',
    );
    expect(webXml!.filters[0]!.name.value).toBe('f');
    expect(webXml!.filters[0]!.className!.value).toBe('a.B');
    expect(source.comments!.map((c) => c.value.trim())).toEqual(['tollgate-disable-next-line x']);
  });
});

describe('spans', () => {
  it('locates a param value at its trimmed characters, 1-based, end exclusive', () => {
    const text =
      '<web-app>\n  <filter>\n    <filter-name>a</filter-name>\n    <filter-class>x.Y</filter-class>\n    <init-param><param-name>p</param-name><param-value> v1 </param-value></init-param>\n  </filter>\n</web-app>\n';
    const { webXml } = parseWebXml(text, '/t/web.xml');
    const v = webXml!.filters[0]!.initParams[0]!.value;
    expect(v.span).toMatchObject({ file: '/t/web.xml', line: 5, column: 57, endLine: 5, endColumn: 59 });
    expect(text.slice(v.span.offset, v.span.endOffset)).toBe('v1');
  });

  it('counts columns in UTF-16 units after astral characters and handles CRLF', () => {
    const text =
      '<web-app>\r\n<!-- 😀 --><filter><filter-name>é😀</filter-name><filter-class>a.B</filter-class></filter>\r\n</web-app>';
    const { webXml } = parseWebXml(text, 'w');
    const name = webXml!.filters[0]!.name;
    expect(name.span.line).toBe(2);
    expect(name.span.column).toBe(text.split('\r\n')[1]!.indexOf('é😀') + 1);
    expect(name.span.endColumn - name.span.column).toBe(3);
  });

  it('gives attribute values their own span', () => {
    const text = `<web-app\n   version="6.0" metadata-complete='true'>\n</web-app>`;
    const { webXml } = parseWebXml(text, 'w');
    expect(webXml!.version!.span).toMatchObject({ line: 2, column: 13, endColumn: 16 });
    expect(webXml!.metadataComplete!.span).toMatchObject({ line: 2, column: 37, endColumn: 41 });
  });
});

describe('encodings', () => {
  it('decodes ISO-8859-1 as declared', () => {
    const bytes = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><web-app><filter><filter-name>caf'),
      Buffer.from([0xe9]),
      Buffer.from('</filter-name><filter-class>a.B</filter-class></filter></web-app>'),
    ]);
    const { webXml, source } = parseWebXml(bytes, 'w');
    expect(source.encoding).toBe('iso-8859-1');
    expect(webXml!.filters[0]!.name.value).toBe('café');
  });

  it('drops a UTF-8 BOM and remembers it', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<web-app version="6.0"/>')]);
    const { webXml, source, diagnostics } = parseWebXml(bytes, 'w');
    expect(diagnostics).toEqual([]);
    expect(source.bom).toBe(true);
    expect(webXml!.version!.span.column).toBe(19);
  });

  it('reads UTF-16 with a BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<web-app version="3.1"/>', 'utf16le')]);
    expect(parseWebXml(bytes, 'w').webXml!.generation).toBe('3.1');
  });

  it('reports an unknown declared encoding', () => {
    const r = parseWebXml(Buffer.from('<?xml version="1.0" encoding="klingon"?><web-app/>'), 'w');
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('xml-encoding');
    expect(r.webXml).not.toBeNull();
  });
});

describe('bad input becomes diagnostics, never exceptions', () => {
  const cases: [string, string, string][] = [
    ['an empty file', '', 'xml-malformed'],
    ['whitespace only', '  \n ', 'xml-malformed'],
    ['text that is not XML', 'this is not xml at all', 'xml-malformed'],
    ['a JSON file', '{"filters": []}', 'xml-malformed'],
    ['an unclosed element', '<web-app><filter>', 'xml-malformed'],
    ['two roots', '<filter/><filter/>', 'xml-malformed'],
    ['a wrong root element', '<beans/>', 'xml-wrong-root'],
    ['an unknown namespace', '<web-app xmlns="urn:nope"/>', 'xml-unknown-namespace'],
    [
      'an init-param without a name',
      '<web-app><filter><filter-name>a</filter-name><filter-class>x.Y</filter-class><init-param><param-value>v</param-value></init-param></filter></web-app>',
      'webxml-missing-element',
    ],
    [
      'a mapping without filter-name',
      '<web-app><filter-mapping><url-pattern>/*</url-pattern></filter-mapping></web-app>',
      'webxml-missing-element',
    ],
  ];
  for (const [label, text, ruleId] of cases) {
    it(`${label} gives ${ruleId}`, () => {
      const r = parseWebXml(text, 'bad.xml');
      expect(r.diagnostics.map((d) => d.ruleId)).toContain(ruleId);
      for (const d of r.diagnostics) expect(d.span.line).toBeGreaterThanOrEqual(1);
    });
  }

  it('reports the position of a syntax error', () => {
    const r = parseWebXml('<web-app>\n  <filter>\n  </filtre>\n</web-app>', 'bad.xml');
    expect(r.diagnostics[0]!.span.line).toBe(3);
  });

  it('never reads an external entity', () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE web-app [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<web-app><display-name>&xxe;</display-name></web-app>`;
    const r = parseWebXml(text, 'xxe.xml');
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('xml-external-entity');
    expect(JSON.stringify(r.webXml)).not.toContain('root:');
  });

  it('finishes a billion-laughs file at once without expanding it', () => {
    let dtd = '<!ENTITY lol "lol">';
    for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
    const text = `<?xml version="1.0"?><!DOCTYPE web-app [${dtd}]><web-app><display-name>&lol9;</display-name></web-app>`;
    expect(text.length).toBeLessThan(1500);
    const r = parseWebXml(text, 'lol.xml');
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('xml-entity-expansion');
  });
});
