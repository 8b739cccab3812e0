import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoXmlFiles } from './xml-files.js';
import { parseSimpleTree } from '../../src/parser/fast-xml.js';
import { decodeXml, LineIndex, parseXmlTree } from '../../src/parser/index.js';
import type { SourceFile } from '../../src/model/index.js';

/**
 * The fast path (fast-xml.ts) must build exactly the tree saxes builds, and
 * accept only documents saxes reads without a finding: anything else it
 * leaves to saxes.
 */
function both(source: SourceFile) {
  const saxes = parseXmlTree(source, { fastPath: false });
  const fast = parseSimpleTree(source.text, new LineIndex(source.path, source.text));
  return { saxes, fast };
}

function expectSame(source: SourceFile): boolean {
  const { saxes, fast } = both(source);
  if (!fast) return false;
  expect(saxes.diagnostics).toEqual([]);
  expect(saxes.doc.doctype).toBeNull();
  expect(saxes.doc.extraRoots).toEqual([]);
  expect(fast.root).toEqual(saxes.doc.root);
  expect(fast.comments).toEqual(saxes.doc.comments);
  // The public entry point takes the fast path and still answers the same.
  const viaEntry = parseXmlTree(source);
  expect(viaEntry.doc.root).toEqual(saxes.doc.root);
  expect(viaEntry.diagnostics).toEqual([]);
  return true;
}

describe('fast XML path', () => {
  const files = repoXmlFiles();

  it('builds the same tree as saxes for every XML file of the tests, examples and corpus it accepts', () => {
    let accepted = 0;
    for (const f of files) {
      const { source } = decodeXml(readFileSync(f), f);
      if (expectSame(source)) accepted++;
    }
    expect(files.length).toBeGreaterThan(100);
    // Most real descriptors are in the subset; the rest (DOCTYPE, entities, CR line ends, errors) went to saxes.
    expect(accepted).toBeGreaterThan(files.length / 3);
  });

  it('agrees with saxes on real descriptors with characters inserted, removed or replaced', () => {
    const texts = files
      .slice(0, 60)
      .map((f) => decodeXml(readFileSync(f), f).source.text)
      .filter((t) => t.length < 200_000);
    const edit = fc.tuple(
      fc.nat(),
      fc.nat({ max: 3 }),
      fc.constantFrom('<', '>', '&', '"', "'", '-', '!', ':', ' ', '\n', '\r', ']', '=', '/', '?', 'x', ''),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.nat({ max: texts.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        let text = texts[which]!;
        for (const [at, drop, insert] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + drop);
        }
        if (expectSame({ path: 'm.xml', text, encoding: 'utf-8', bom: false })) accepted++;
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('leaves attributes with the same expanded name to saxes, and takes same local names in different namespaces', () => {
    const doc = (attrs: string): SourceFile => ({
      path: 'a.xml',
      text: `<root xmlns:p="urn:u" xmlns:q="urn:u" xmlns:r="urn:v" ${attrs}/>`,
      encoding: 'utf-8',
      bom: false,
    });
    expect(expectSame(doc('p:x="1" r:x="2" x="3"'))).toBe(true);
    for (const same of [
      'p:x="1" q:x="2"',
      'x="1" y="2" x="3"',
      'a="1" b="2" c="3" d="4" e="5" f="6" g="7" h="8" i="9" j="10" k="11" l="12" m="13" n="14" o="15" p:x="16" q:x="17"',
    ]) {
      expect(parseSimpleTree(doc(same).text, new LineIndex('a.xml', doc(same).text)), same).toBeNull();
      expect(parseXmlTree(doc(same)).diagnostics.length, same).toBeGreaterThan(0);
    }
    expect(
      expectSame(
        doc(
          'a="1" b="2" c="3" d="4" e="5" f="6" g="7" h="8" i="9" j="10" k="11" l="12" m="13" n="14" o="15" p:x="16" r:x="17"',
        ),
      ),
    ).toBe(true);
  });

  it('takes a typical descriptor, with a declaration, namespaces, attributes and comments', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<!-- head -->
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="a b" version='6.0'>
  <filter><filter-name>a</filter-name><init-param><param-name>x</param-name><param-value>1 > 0</param-value></init-param></filter>
  <empty/><e2 a="tab\there" />
</web-app>
<!-- tail -->
`;
    expect(expectSame({ path: 'w.xml', text, encoding: 'utf-8', bom: false })).toBe(true);
  });

  it('leaves to saxes what it does not handle: entities, CDATA, DOCTYPE, CR, processing instructions, malformed input', () => {
    const cases = [
      '<a>&amp;</a>',
      '<a b="&lt;"/>',
      '<a><![CDATA[x]]></a>',
      '<!DOCTYPE a><a/>',
      '<a>\r\n</a>',
      '<?xml version="1.1"?><a/>',
      ' <?xml version="1.0"?><a/>',
      '<a><?pi x?></a>',
      '<a></b>',
      '<a/><b/>',
      '<a>',
      'x<a/>',
      '<a/>x',
      '<a b="1"c="2"/>',
      '<a b="1" b="2"/>',
      '<p:a/>',
      '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>',
      '<a xmlns:p=""/>',
      '<a xmlns="http://www.w3.org/XML/1998/namespace"/>',
      '<a><!-- x -- y --></a>',
      '<a><!-- x ---></a>',
      '<a><!-- <!-- x --></a>',
      '<a>]]></a>',
      '<a>\u0001</a>',
      '<é/>',
      '<a:/>',
    ];
    for (const text of cases) expect(parseSimpleTree(text, new LineIndex('t.xml', text)), text).toBeNull();
  });

  it('agrees with saxes on generated and mutated documents', () => {
    const names = fc.constantFrom('a', 'web-app', 'p:x', 'xsi:y', 'x.y', '_z', 'b1', 'xmlns', 'xml:lang', 'é');
    const attr = fc.tuple(names, fc.stringMatching(/^[ -~\t\n]{0,6}$/), fc.constantFrom('"', "'"));
    type Node = { name: string; attrs: [string, string, string][]; children: (Node | string)[] };
    const { node } = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.record({
        name: names,
        attrs: fc.array(attr, { maxLength: 3 }),
        children: fc.array(fc.oneof({ maxDepth: 3 }, fc.stringMatching(/^[ -~\n\t]{0,8}$/), tie('node')), {
          maxLength: 3,
        }),
      }),
    }));
    const render = (n: Node | string): string => {
      if (typeof n === 'string') return n;
      const attrs = n.attrs.map(([k, v, q]) => ` ${k}=${q}${v.replaceAll(q, '')}${q}`).join('');
      const ns =
        n.name.includes(':') && !n.name.startsWith('xml:') ? ` xmlns:${n.name.split(':')[0]}="urn:${n.name}"` : '';
      return n.children.length === 0
        ? `<${n.name}${ns}${attrs}/>`
        : `<${n.name}${ns}${attrs}>${n.children.map(render).join('')}</${n.name}>`;
    };
    const mutation = fc.tuple(
      fc.nat(),
      fc.constantFrom(
        '<',
        '>',
        '&',
        '"',
        "'",
        '-',
        '!',
        ':',
        ' ',
        '\n',
        '\r',
        ']',
        '=',
        '/',
        '?',
        '<!--',
        '-->',
        'xmlns="u"',
        '',
      ),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.boolean(), node, fc.array(mutation, { maxLength: 2 }), (decl, n, muts) => {
        let text = (decl ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '') + '<!-- c -->' + render(n) + '\n';
        for (const [at, s] of muts) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + s + text.slice(i);
        }
        if (expectSame({ path: 'g.xml', text, encoding: 'utf-8', bom: false })) accepted++;
      }),
      { numRuns: 3000 },
    );
    // The property is only worth something if the fast path took a good share of the documents.
    expect(accepted).toBeGreaterThan(300);
  });
});
