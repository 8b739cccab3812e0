import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { decodeXml, parseXmlTree, type XmlElement } from '../../src/parser/index.js';

/**
 * src/parser/namespaces.ts does saxes' namespace processing itself (saxes' own walks every open
 * tag per prefix: quadratic in depth). Here saxes 6.0.0 in its xmlns mode is the reference: on
 * documents made of troublesome names and declarations, both readers must give the elements the
 * same namespaces and local names, and report the same first message at the same place.
 */
const ELEMENTS = ['a', 'p:a', 'q:b', 'xmlns:c', ':d', 'e:', 'x:y:z', 'xml:l', 'p:p'];
const ATTRIBUTES = [
  'p::a',
  'a:',
  'xmlns',
  'xmlns:p',
  'xmlns:q',
  'xmlns:xml',
  'xmlns:xmlns',
  'p:at',
  'q:at',
  'at',
  'xml:lang',
  'xmlns:',
  ':z',
  'p:at',
];
const VALUES = ['u1', 'u2', '', ' u1 ', 'http://www.w3.org/XML/1998/namespace', 'http://www.w3.org/2000/xmlns/'];

interface Gen {
  name: string;
  attrs: [string, string][];
  children: Gen[];
}

const element: fc.Memo<Gen> = fc.memo((n) =>
  fc.record({
    name: fc.constantFrom(...ELEMENTS),
    attrs: fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...VALUES)), { maxLength: 3 }),
    children: n > 1 ? fc.array(element(n - 1), { maxLength: 3 }) : fc.constant([]),
  }),
);

function write(g: Gen): string {
  const attrs = g.attrs.map(([k, v]) => ` ${k}="${v}"`).join('');
  return g.children.length === 0
    ? `<${g.name}${attrs}/>`
    : `<${g.name}${attrs}>${g.children.map(write).join('')}</${g.name}>`;
}

/** saxes' own namespace processing: elements as (qname, namespace, local) and the first message with its position, up to the second message (where tollgate stops). */
function reference(xml: string): { elements: string[]; first: { message: string; at: number } | null } {
  const p = new SaxesParser({ xmlns: true, position: true });
  const elements: string[] = [];
  let first: { message: string; at: number } | null = null;
  p.on('opentag', (t) => elements.push(`${t.name}=${t.uri}|${t.local || t.name}`));
  p.on('error', (e) => {
    if (first) throw e;
    first = { message: e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.+$/, ''), at: p.position };
  });
  try {
    p.write(xml).close();
  } catch {
    // the second message: reading stops, as tollgate's does
  }
  return { elements, first };
}

function flatten(e: XmlElement, out: string[]): string[] {
  out.push(`${e.qname}=${e.namespace}|${e.name}`);
  for (const c of e.children) flatten(c, out);
  return out;
}

describe('namespace processing (namespaces.ts) against saxes 6.0.0 in its xmlns mode', () => {
  it('gives the same namespaces, local names and first message at the same place', () => {
    fc.assert(
      fc.property(element(4), (g) => {
        const xml = write(g);
        const ref = reference(xml);
        const source = decodeXml(Buffer.from(xml), 'ns.xml').source;
        const ours = parseXmlTree(source, { fastPath: false });
        const got: string[] = [];
        if (ours.doc.root) flatten(ours.doc.root, got);
        expect(got).toEqual(ref.elements);
        const d = ours.diagnostics[0];
        if (ref.first === null) {
          expect(ours.diagnostics).toEqual([]);
        } else {
          expect(d?.message).toBe(`Malformed XML: ${ref.first.message}.`);
          expect(d?.span.endOffset).toBe(ref.first.at);
        }
        // The fast scanner takes a document only where saxes reports nothing, and then builds the same tree.
        const fast = parseXmlTree(source);
        if (fast.diagnostics.length === 0 && ref.first === null) expect(fast.doc.root).toEqual(ours.doc.root);
        if (ref.first !== null) expect(fast.diagnostics[0]?.message).toBe(d?.message);
      }),
      { numRuns: 3000 },
    );
  });
});
