import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseWebXml } from '../../src/parser/index.js';

/**
 * DOCTYPE entities as Tomcat 10.1.60 on JDK 17 handled them (each file deployed
 * as WEB-INF/web.xml): declared internal entities are expanded, past 64000
 * expansions in one file the descriptor is refused, as is a recursive entity or
 * a reference to an external one; an unused external declaration is harmless.
 */
function laughs(levels: number): string {
  let dtd = '<!ENTITY l0 "lol">';
  for (let i = 1; i <= levels; i++) dtd += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
  return dtd;
}
const doc = (dtd: string, body: string) => `<?xml version="1.0"?><!DOCTYPE web-app [${dtd}]><web-app>${body}</web-app>`;
const errors = (r: ReturnType<typeof parseWebXml>) =>
  r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId);

describe('DOCTYPE entities', () => {
  it('expands nested internal entities in element text (observed: X-Frame-Options SAMEORIGIN)', () => {
    const text = doc(
      '<!ENTITY fc "org.apache.catalina.filters.HttpHeaderSecurityFilter"><!ENTITY opt "SAME&or;"><!ENTITY or "ORIGIN">',
      '<filter><filter-name>h</filter-name><filter-class>&fc;</filter-class><init-param><param-name>antiClickJackingOption</param-name><param-value>&opt;</param-value></init-param></filter>',
    );
    const r = parseWebXml(text, 'web.xml');
    expect(errors(r)).toEqual([]);
    expect(r.webXml!.malformed).toBeUndefined();
    const f = r.webXml!.filters[0]!;
    expect(f.className!.value).toBe('org.apache.catalina.filters.HttpHeaderSecurityFilter');
    expect(f.initParams[0]!.value.value).toBe('SAMEORIGIN');
    expect(text.slice(f.initParams[0]!.value.span.offset, f.initParams[0]!.value.span.endOffset)).toBe('&opt;');
    // Declaring entities is worth knowing (other tools do not expand them); Tomcat expands them as written.
    expect(r.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['xml-entity-expansion', 'info']]);
  });

  it('accepts 55,555 expansions (five references of a 10^4 entity; observed: started)', () => {
    const r = parseWebXml(doc(laughs(4), `<display-name>${'&l4;'.repeat(5)}</display-name>`), 'web.xml');
    expect(errors(r)).toEqual([]);
    expect(r.webXml!.malformed).toBeUndefined();
  });

  it('refuses the file past 64,000 expansions (seven references; observed: JAXP00010001, context failed)', () => {
    const text = doc(laughs(4), `<display-name>${'&l4;'.repeat(7)}</display-name>`);
    const r = parseWebXml(text, 'web.xml');
    expect(errors(r)).toEqual(['xml-entity-expansion']);
    expect(r.webXml!.malformed).toBeDefined();
    const d = r.diagnostics.find((x) => x.severity === 'error')!;
    // The sixth reference is the one that crosses the limit.
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('&l4;');
    expect(d.span.offset).toBe(text.indexOf('&l4;') + 5 * 4);
  });

  it('finishes a 1 KB billion-laughs file without building the expansion, refusing it as the JDK does', () => {
    const text = doc(laughs(9), '<display-name>&l9;</display-name>');
    expect(text.length).toBeLessThan(1024);
    const r = parseWebXml(text, 'lol.xml');
    expect(errors(r)).toEqual(['xml-entity-expansion']);
    expect(r.webXml!.malformed).toBeDefined();
    expect(r.source.text.length).toBe(text.length);
  });

  it('refuses a recursive entity (observed: "Recursive entity reference", context failed)', () => {
    const r = parseWebXml(doc('<!ENTITY a "&b;"><!ENTITY b "&a;">', '<display-name>&a;</display-name>'), 'web.xml');
    expect(errors(r)).toEqual(['xml-entity-expansion']);
    expect(r.diagnostics.find((d) => d.severity === 'error')!.message).toContain('itself');
    expect(r.webXml!.malformed).toBeDefined();
  });

  it('refuses an external DTD Tomcat does not keep locally (observed: "Could not resolve XML resource", context failed) and never opens it', () => {
    const r = parseWebXml(
      `<?xml version="1.0"?>\n<!DOCTYPE web-app SYSTEM "file://${'/etc/hostname'}">\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>`,
      'web.xml',
    );
    expect(errors(r)).toEqual(['xml-external-dtd']);
    expect(r.diagnostics[0]!.span.line).toBe(2);
    expect(r.webXml!.malformed).toBeDefined();
    expect(JSON.stringify(r)).not.toContain(hostname());
  });

  it('reads a descriptor whose DOCTYPE names a DTD Tomcat keeps (observed: the 2.3 DTD by public id started)', () => {
    for (const dt of [
      '<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">',
      '<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.2//EN" "http://example.com/elsewhere.dtd">',
      '<!DOCTYPE web-app SYSTEM "http://java.sun.com/dtd/web-app_2_3.dtd">',
    ]) {
      const r = parseWebXml(`<?xml version="1.0"?>\n${dt}\n<web-app/>`, 'web.xml');
      expect(r.diagnostics.filter((d) => d.ruleId === 'xml-external-dtd')).toEqual([]);
      expect(r.webXml!.malformed).toBeUndefined();
    }
  });

  it('reports a bomb once: at its reference when there is one, else as a warning at the DOCTYPE (Tomcat starts)', () => {
    const used = parseWebXml(doc(laughs(9), '<display-name>&l9;</display-name>'), 'lol.xml');
    expect(used.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['xml-entity-expansion', 'error']]);
    const unused = parseWebXml(doc(laughs(9), '<display-name>x</display-name>'), 'lol.xml');
    expect(unused.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['xml-entity-expansion', 'warning']]);
    expect(unused.webXml!.malformed).toBeUndefined();
  });

  it('reports an unused external entity but reads the file (observed: started)', () => {
    const r = parseWebXml(doc('<!ENTITY x SYSTEM "file:///etc/hostname">', ''), 'web.xml');
    expect(r.diagnostics.map((d) => d.ruleId)).toEqual(['xml-external-entity']);
    expect(r.webXml!.malformed).toBeUndefined();
  });

  it('never reads a referenced external entity, and marks the file refused (observed: parse error, context failed)', () => {
    const r = parseWebXml(
      doc('<!ENTITY x SYSTEM "file:///etc/hostname">', '<display-name>&x;</display-name>'),
      'web.xml',
    );
    expect(errors(r)).toEqual(['xml-external-entity', 'xml-entity-expansion']);
    expect(r.webXml!.malformed).toBeDefined();
    expect(JSON.stringify(r.webXml)).not.toContain(hostname());
  });

  it('places an undefined entity at its reference (observed: parse error, context failed)', () => {
    const text = '<web-app>\n  <display-name>a &nope; b</display-name>\n</web-app>';
    const r = parseWebXml(text, 'web.xml');
    const d = r.diagnostics[0]!;
    expect(d.span).toMatchObject({ line: 2, column: 19, endLine: 2, endColumn: 25 });
    expect(r.webXml!.malformed).toBeDefined();
  });

  it('binds the first declaration of a name, ignores parameter entities and commented-out declarations', () => {
    const dtd =
      '<!ENTITY a "1"><!ENTITY a "2"><!ENTITY % b "3"><!-- <!ENTITY c "hidden"> --><!ENTITY c\t\n"4" ><!ENTITY d SYSTEMX "5"><!ENTITY b \'6\'>';
    const r = parseWebXml(doc(dtd, '<display-name>&a;&b;&c;</display-name>'), 'web.xml');
    expect(errors(r)).toEqual([]);
    expect(r.webXml!.malformed).toBeUndefined();
    const display = parseWebXml(doc(dtd, '<display-name>&d;</display-name>'), 'web.xml');
    // "SYSTEMX" is no external identifier: nothing declares d.
    expect(errors(display)).toEqual(['xml-entity-expansion']);
    const tree = parseWebXml(
      doc(dtd, '<context-param><param-name>p</param-name><param-value>&a;&b;&c;</param-value></context-param>'),
      'web.xml',
    );
    expect(tree.webXml!.contextParams[0]!.value.value).toBe('164');
  });

  it('names the first bomb measured when several are declared and none is referenced', () => {
    const second = laughs(9).replaceAll('&l', '&m').replaceAll('ENTITY l', 'ENTITY m');
    const r = parseWebXml(
      doc(`<!ENTITY z "&z2;"><!ENTITY z2 "ok">${laughs(9)}${second}`, '<display-name>x</display-name>'),
      'web.xml',
    );
    expect(r.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['xml-entity-expansion', 'warning']]);
    expect(r.diagnostics[0]!.message).toContain('&l5;');
  });

  it('keeps the DOCTYPE as saxes reads it: line ends normalised, and the declaration itself even when its subset holds "<!DOCTYPE"', () => {
    const crlf = '<!DOCTYPE web-app [\r\n<!ENTITY a "x">\r\n]>\r\n<web-app><display-name>&a;</display-name></web-app>';
    expect(parseWebXml(crlf, 'web.xml').webXml!.doctype!.value).toBe(' web-app [\n<!ENTITY a "x">\n]');
    const inner = '<!DOCTYPE web-app [<!ENTITY a "<!DOCTYPE">]><web-app><display-name>&a;</display-name></web-app>';
    const r = parseWebXml(inner, 'web.xml');
    expect(r.webXml!.doctype!.value).toBe(' web-app [<!ENTITY a "<!DOCTYPE">]');
  });
});
