import { describe, expect, it } from 'vitest';
import { decodeXml, parseXmlTree, type XmlElement } from '../../src/parser/index.js';

const tree = (xml: string) => parseXmlTree(decodeXml(Buffer.from(xml), 'test.xml').source, { fastPath: false });

function namespaces(e: XmlElement, out: string[] = []): string[] {
  out.push(`${e.qname}=${e.namespace}`);
  for (const c of e.children) namespaces(c, out);
  return out;
}

describe('namespace resolution on the saxes path (bindings kept as one stack per prefix)', () => {
  it('takes the innermost binding, and the outer one again once the inner element closes', () => {
    const { doc, diagnostics } = tree(
      '<a xmlns:p="u1" xmlns="d"><p:b xmlns:p="u2"><p:c/><d/></p:b><p:e/><f xmlns=""><p:g/></f></a>',
    );
    expect(diagnostics).toEqual([]);
    expect(namespaces(doc.root!)).toEqual(['a=d', 'p:b=u2', 'p:c=u2', 'd=d', 'p:e=u1', 'f=', 'p:g=u1']);
  });

  it('reads 200 nested elements that each bind a prefix, with prefixed elements at every depth, as their bindings say', () => {
    let xml = '<r xmlns:q="root">';
    for (let i = 0; i < 200; i++) xml += `<e xmlns:p${i}="urn:${i}" xmlns:q="q${i % 7}"><p${i}:x/><q:y/>`;
    xml += '<p0:z/><q:z/>';
    for (let i = 0; i < 200; i++) xml += '</e>';
    xml += '<q:w/></r>';
    const { doc } = tree(xml);
    const got = namespaces(doc.root!);
    expect(got).toContain('p0:z=urn:0');
    expect(got).toContain('q:z=q3');
    expect(got[got.length - 1]).toBe('q:w=root');
    // The same tree as the fast path, which keeps its own scopes.
    expect(parseXmlTree(decodeXml(Buffer.from(xml), 'test.xml').source).doc.root).toEqual(doc.root);
  });
});

describe('the saxes that src/parser/xml.ts and namespaces.ts are written against', () => {
  it('is the exact version pinned in package.json', async () => {
    // namespaces.ts reproduces saxes 6.0.0's namespace messages (test/parser/namespaces-saxes.test.ts): an upgrade must re-check them.
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const pkg = require('../../package.json') as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['saxes']).toBe('6.0.0'); // bundled into dist/bundle, so a dev dependency
    expect((require('saxes/package.json') as { version: string }).version).toBe('6.0.0');
  });

  it('looks every entity reference up in its public ENTITIES table, once per reference (how expansions are counted)', async () => {
    const { SaxesParser } = await import('saxes');
    const p = new SaxesParser({ position: true });
    const looked: string[] = [];
    p.on('doctype', () => {
      const table = p.ENTITIES;
      table['e'] = 'v';
      p.ENTITIES = new Proxy(table, { get: (t, k) => (typeof k === 'string' && looked.push(k), Reflect.get(t, k)) });
    });
    let text = '';
    p.on('text', (t) => (text += t));
    p.write('<!DOCTYPE r [<!ENTITY e "v">]><r a="&e;">&e;&amp;&e;</r>').close();
    expect(looked).toEqual(['e', 'e', 'amp', 'e']);
    expect(text).toBe('v&v');
  });
});
