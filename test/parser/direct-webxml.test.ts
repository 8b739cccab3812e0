import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoXmlFiles } from './xml-files.js';
import { parseWebXml } from '../../src/parser/index.js';

/**
 * parseWebXml reads the descriptors fast-xml.ts accepts straight into the
 * model (no XML tree): it must give exactly what the tree path gives, model,
 * spans, diagnostics (in order) and comments, and leave everything else to it.
 */
const PROPERTIES = { 'catalina.base': '/srv/base', 'app.name': 'shop' };

function compare(input: string | Uint8Array, file: string): void {
  for (const properties of [undefined, PROPERTIES]) {
    for (const namespaceAware of [false, true]) {
      const direct = parseWebXml(input, file, properties, { namespaceAware });
      const tree = parseWebXml(input, file, properties, { namespaceAware, direct: false });
      expect(direct.webXml).toEqual(tree.webXml);
      expect(direct.diagnostics).toEqual(tree.diagnostics);
      expect(direct.source).toEqual(tree.source);
      // Same key order too: the model is printed as JSON by some commands.
      expect(JSON.stringify(direct.webXml)).toBe(JSON.stringify(tree.webXml));
    }
  }
}

const TYPICAL = `<?xml version="1.0" encoding="UTF-8"?>
<!-- head -->
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="a b" version='6.0' metadata-complete="true">
  <display-name>x</display-name>
  <filter><filter-name>a</filter-name><filter-class>org.A</filter-class><async-supported>true</async-supported>
    <init-param><param-name>x</param-name><param-value>1 > 0</param-value></init-param>
    <init-param><param-name>y</param-name></init-param>
    <init-param><param-value>no name</param-value></init-param>
  </filter>
  <filter><filter-class>org.NoName</filter-class></filter>
  <filter-mapping><filter-name>a</filter-name><url-pattern>/*</url-pattern><url-pattern> /b/* </url-pattern>
    <servlet-name>s</servlet-name><dispatcher>REQUEST</dispatcher><dispatcher>ERROR</dispatcher></filter-mapping>
  <filter-mapping><url-pattern>/*</url-pattern></filter-mapping>
  <servlet><servlet-name>s</servlet-name><jsp-file>/a.jsp</jsp-file><init-param><param-name>p</param-name><param-value>\${catalina.base}/x</param-value></init-param></servlet>
  <servlet-mapping><servlet-name>s</servlet-name><url-pattern>*.do</url-pattern></servlet-mapping>
  <mime-mapping><extension>xyz</extension><mime-type>a/b</mime-type></mime-mapping>
  <mime-mapping><extension>q</extension></mime-mapping>
  <welcome-file-list><welcome-file>index.html</welcome-file><welcome-file/></welcome-file-list>
  <welcome-file-list><welcome-file>second.html</welcome-file></welcome-file-list>
  <session-config><session-timeout> 15 </session-timeout></session-config>
  <context-param><param-name>c</param-name><param-value>\${app.name}-\${unknown}</param-value></context-param>
  <context-param><param-value>orphan</param-value></context-param>
  <request-character-encoding>UTF-8</request-character-encoding>
  <error-page><error-code>404</error-code><location>/404.html</location></error-page>
  <error-page><exception-type>java.lang.Throwable</exception-type><location>/e.html</location></error-page>
  <login-config><realm-name>r</realm-name></login-config>
  <xsi:filter><filter-name>prefixed</filter-name></xsi:filter>
</web-app>
<!-- tail -->
`;

describe('parseWebXml without the tree', () => {
  it("gives the tree path's model, diagnostics and comments for every XML file of the tests, examples and corpus", () => {
    const files = [...repoXmlFiles(), ...['/etc/tomcat10/web.xml'].filter((f) => existsSync(f))];
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) compare(readFileSync(f), f);
  });

  it('reads every element the digester rules read, with comments, text split by comments and children, and deep elements', () => {
    compare(TYPICAL, 'typical.xml');
    const cases = [
      '<web-app/>',
      '<web-app version="5.0"></web-app>',
      '<web-fragment xmlns="http://xmlns.jcp.org/xml/ns/javaee"><filter><filter-name>f</filter-name></filter></web-fragment>',
      '<web-app xmlns="urn:unknown"><filter/></web-app>',
      '<web-app><filter><filter-name>a<!-- c -->b</filter-name><filter-class> <!-- c --> x </filter-class></filter></web-app>',
      '<web-app><filter><filter-name>a<x>deep<y>deeper</y></x>b</filter-name></filter></web-app>',
      '<web-app><filter><filter-name>f</filter-name><init-param><param-name>n<b>x</b></param-name><param-value><v>1</v>2</param-value></init-param></filter></web-app>',
      '<web-app><request-character-encoding> a <b/> c </request-character-encoding><filter-mapping/></web-app>',
      '<web-app><xml:filter><filter-name>x</filter-name><filter-class>c</filter-class></xml:filter></web-app>',
      '<web-app xmlns:j="urn:j"><j:filter><j:filter-name>x</j:filter-name></j:filter><filter><filter-name>y</filter-name></filter></web-app>',
      '<j:web-app xmlns:j="http://java.sun.com/xml/ns/j2ee"><j:filter><j:filter-name>x</j:filter-name></j:filter></j:web-app>',
      '<web-app version="${v}"><session-config><session-timeout>${n}</session-timeout></session-config></web-app>',
      '<filter><filter-name>snippet</filter-name></filter>',
      '<beans/>',
      '<web-app><servlet-mapping><servlet-name>s</servlet-name><url-pattern>/a</url-pattern><url-pattern>/b</url-pattern></servlet-mapping></web-app>',
      ' \n ',
      '<web-app>&amp;</web-app>',
      '<web-app><filter><filter-name>\u00a0a\u2003</filter-name><filter-class> \u00a0 </filter-class><async-supported>\u3000x y\u00a0 </async-supported></filter></web-app>',
      '<web-app><context-param><param-name>p</param-name><param-value>&#36;{catalina.base}/$&#123;app.name}</param-value></context-param></web-app>',
    ];
    for (const text of cases) compare(text, 'case.xml');
  });

  it('replaces a ${name} that character references spell, as Tomcat does after parsing', () => {
    const text =
      '<web-app><context-param><param-name>p</param-name><param-value>&#36;{catalina.base}/$&#123;app.name}</param-value></context-param></web-app>';
    expect(parseWebXml(text, 'r.xml', PROPERTIES).webXml!.contextParams[0]!.value.value).toBe('/srv/base/shop');
  });

  it('agrees with the tree path on generated and mutated descriptors', () => {
    const names = fc.constantFrom(
      'filter',
      'filter-name',
      'filter-class',
      'init-param',
      'param-name',
      'param-value',
      'filter-mapping',
      'url-pattern',
      'servlet',
      'servlet-name',
      'welcome-file-list',
      'welcome-file',
      'session-config',
      'session-timeout',
      'context-param',
      'error-page',
      'location',
      'x:filter',
      'request-character-encoding',
    );
    type Node = { name: string; children: (Node | string)[] };
    const { node } = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.record({
        name: names,
        children: fc.array(
          fc.oneof(
            { maxDepth: 4 },
            fc.constantFrom('', ' a ', 'v', '\n  ', '${catalina.base}', '<!-- c -->', '\u00a0b\u2003', ' \u00a0 '),
            tie('node'),
          ),
          { maxLength: 4 },
        ),
      }),
    }));
    const render = (n: Node | string): string => {
      if (typeof n === 'string') return n;
      return n.children.length === 0 ? `<${n.name}/>` : `<${n.name}>${n.children.map(render).join('')}</${n.name}>`;
    };
    const mutation = fc.tuple(fc.nat(), fc.constantFrom('<', '>', '&', '-', '/', ' ', '\n', '<!--', '-->', ''));
    fc.assert(
      fc.property(
        fc.constantFrom('web-app', 'web-fragment', 'j:web-app'),
        fc.array(node, { maxLength: 4 }),
        fc.array(mutation, { maxLength: 2 }),
        (root, children, muts) => {
          let text = `<${root} xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:x="urn:x" xmlns:j="urn:j">${children.map(render).join('\n')}</${root}>`;
          for (const [at, s] of muts) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + s + text.slice(i);
          }
          compare(text, 'g.xml');
        },
      ),
      { numRuns: 1500 },
    );
  });
});
