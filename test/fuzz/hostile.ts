/**
 * Hostile parser shapes (issue 25 item 2): documents under the 8 MiB cap built to make a parser
 * superlinear — deep nesting that declares namespaces, many entity declarations, and wide
 * documents. Each is a web.xml for the application slot; `saxes: true` variants start with a
 * DOCTYPE so the hand-written scanner hands them to saxes. test/fuzz/fuzz.test.ts runs every shape
 * through every fuzz target under the fuzzer's one-second bound, and bench/hostile.ts times them.
 */

/** Just under src/parser/read.ts MAX_CONFIG_BYTES: the largest file tollgate reads at all. */
export const NEAR_CAP = 8 * 1024 * 1024 - 4096;

export interface HostileShape {
  name: string;
  /** What the shape is, for tables. */
  what: string;
  /** Builds the document (each is megabytes: built when used). */
  make: () => string;
}

const WEB_APP = '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">';
/** Makes saxes read the file: the fast scanner takes no DOCTYPE. */
const DOCTYPE = '<!DOCTYPE web-app>\n';

/**
 * `levels` nested elements each declaring a prefix (and `perLevel - 1` more), then prefixed
 * elements (bound at the outermost level) up to `size` characters.
 */
export function nestedNamespaces(levels: number, size: number, doctype: boolean, perLevel = 1): string {
  const head: string[] = [doctype ? DOCTYPE : '', WEB_APP];
  for (let i = 0; i < levels; i++) {
    let more = '';
    for (let j = 1; j < perLevel; j++) more += ` xmlns:q${i}_${j}="urn:x:${i}:${j}"`;
    head.push(`<n${i} xmlns:p${i}="urn:x:${i}"${more}>`);
  }
  const tail: string[] = [];
  for (let i = levels - 1; i >= 0; i--) tail.push(`</n${i}>`);
  tail.push('</web-app>\n');
  const start = head.join('');
  const end = tail.join('');
  const one = '<p0:e/>';
  const count = Math.max(0, Math.floor((size - start.length - end.length) / one.length));
  return start + one.repeat(count) + end;
}

export function entities(count: number, doctype: boolean): string {
  void doctype; // entity declarations need a DOCTYPE: always read by saxes
  const decls: string[] = [];
  for (let i = 0; i < count; i++) decls.push(`<!ENTITY e${i} "v">`);
  return `<!DOCTYPE web-app [\n${decls.join('\n')}\n]>\n${WEB_APP}<display-name>&e0;&e${count - 1};</display-name></web-app>\n`;
}

/** Each entity names the one before it: measured without recursion, and refused past the JDK's 64,000 expansions when referenced. */
export function entityChain(count: number): string {
  const decls: string[] = ['<!ENTITY e0 "v">'];
  for (let i = 1; i < count; i++) decls.push(`<!ENTITY e${i} "&e${i - 1};">`);
  return `<!DOCTYPE web-app [\n${decls.join('\n')}\n]>\n${WEB_APP}<display-name>&e${count - 1};</display-name></web-app>\n`;
}

export function attributes(count: number, prefixed: boolean, doctype: boolean): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(prefixed ? `p:a${i}="v"` : `a${i}="v"`);
  return `${doctype ? DOCTYPE : ''}${WEB_APP}<filter ${prefixed ? 'xmlns:p="urn:p" ' : ''}${parts.join(' ')}><filter-name>f</filter-name><filter-class>x.F</filter-class></filter></web-app>\n`;
}

export function siblings(count: number, doctype: boolean): string {
  return `${doctype ? DOCTYPE : ''}${WEB_APP}${'<a/>'.repeat(count)}</web-app>\n`;
}

export function longText(size: number, doctype: boolean): string {
  return `${doctype ? DOCTYPE : ''}${WEB_APP}<context-param><param-name>p</param-name><param-value>${'x'.repeat(size)}</param-value></context-param></web-app>\n`;
}

export function longAttribute(size: number, doctype: boolean): string {
  return `${doctype ? DOCTYPE : ''}${WEB_APP}<filter a="${'x'.repeat(size)}"><filter-name>f</filter-name><filter-class>x.F</filter-class></filter></web-app>\n`;
}

/** Every shape, each on the fast path and (name suffix "-saxes") on the saxes path where the two differ. */
export function hostileShapes(): HostileShape[] {
  const out: HostileShape[] = [];
  for (const saxes of [false, true]) {
    const s = saxes ? '-saxes' : '';
    out.push(
      {
        name: `ns-nested-8mib${s}`,
        what: '9,900 nested elements each declaring a prefix, then prefixed elements to 8 MiB',
        make: () => nestedNamespaces(9_900, NEAR_CAP, saxes),
      },
      // Six declarations per level keep more alive while nesting: on the saxes path V8 then pretenures
      // saxes' tag objects (bench/README.md, issue 25), the costliest of these shapes there.
      {
        name: `ns-nested-6x-8mib${s}`,
        what: '9,900 nested elements each declaring six prefixes, then prefixed elements to 8 MiB',
        make: () => nestedNamespaces(9_900, NEAR_CAP, saxes, 6),
      },
      {
        name: `ns-nested-5mib${s}`,
        what: '9,000 nested elements each declaring a prefix, then prefixed elements to 5.2 MiB',
        make: () => nestedNamespaces(9_000, Math.round(5.2 * 1024 * 1024), saxes),
      },
      {
        name: `attributes-100k${s}`,
        what: 'one element with 100,000 attributes',
        make: () => attributes(100_000, false, saxes),
      },
      {
        name: `prefixed-attributes-100k${s}`,
        what: 'one element with 100,000 prefixed attributes',
        make: () => attributes(100_000, true, saxes),
      },
      {
        name: `siblings-1m${s}`,
        what: '1,000,000 empty sibling elements (4 MB)',
        make: () => siblings(1_000_000, saxes),
      },
      { name: `text-7mib${s}`, what: 'one 7 MiB text node', make: () => longText(7 * 1024 * 1024, saxes) },
      {
        name: `attribute-value-7mib${s}`,
        what: 'one 7 MiB attribute value',
        make: () => longAttribute(7 * 1024 * 1024, saxes),
      },
    );
  }
  out.push(
    { name: 'entities-300k', what: '300,000 entity declarations', make: () => entities(300_000, true) },
    {
      name: 'entity-chain-200k',
      what: '200,000 entities, each naming the one before',
      make: () => entityChain(200_000),
    },
  );
  return out;
}
