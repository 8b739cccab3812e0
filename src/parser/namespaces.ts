/**
 * Namespace processing for both readers of XML (fast-xml.ts and the saxes path of xml.ts), as
 * saxes 6.0.0 does it in its xmlns mode: the same bindings, the same names resolved, the same
 * messages in the same order. saxes resolves a prefix by walking every open tag (quadratic in
 * depth: 64 s for an 8 MiB web.xml of 10,000 nested declaring elements, issue 25); here each
 * prefix has its own stack of bindings, so a lookup is one Map read and each element's
 * declarations are bound and unbound once.
 */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** saxes' checks of one declaration (nsPairCheck): its messages, in its order. */
function pairErrors(prefix: string, uri: string, out: string[]): void {
  if (prefix === 'xml' && uri !== XML_NAMESPACE) out.push(`xml prefix must be bound to ${XML_NAMESPACE}.`);
  if (prefix === 'xmlns' && uri !== XMLNS_NAMESPACE) out.push(`xmlns prefix must be bound to ${XMLNS_NAMESPACE}.`);
  if (uri === XMLNS_NAMESPACE) {
    out.push(
      prefix === ''
        ? `the default namespace may not be set to ${uri}.`
        : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NAMESPACE}.`,
    );
  } else if (uri === XML_NAMESPACE && prefix !== 'xml') {
    out.push(
      prefix === ''
        ? `the default namespace may not be set to ${uri}.`
        : 'may not assign the xml namespace to another prefix.',
    );
  }
}

/** saxes' split of a qualified name: prefix before the first colon, local name after it; `malformed` as saxes' qname() reports. */
export function splitName(name: string): { prefix: string; local: string; malformed: boolean } {
  const colon = name.indexOf(':');
  if (colon < 0) return { prefix: '', local: name, malformed: false };
  const prefix = name.slice(0, colon);
  const local = name.slice(colon + 1);
  return { prefix, local, malformed: prefix === '' || local === '' || local.includes(':') };
}

/**
 * What saxes reports for one attribute as it reads it (pushAttribNS), and the binding it makes:
 * `bound` is the prefix ("" for the default namespace) it binds, or null.
 */
export function attributeErrors(
  name: string,
  value: string,
  xml10: boolean,
  out: string[],
): { prefix: string; uri: string } | null {
  const { prefix, local, malformed } = splitName(name);
  if (malformed) out.push(`malformed name: ${name}.`);
  if (prefix === 'xmlns') {
    const uri = value.trim();
    if (xml10 && uri === '') out.push('invalid attempt to undefine prefix in XML 1.0');
    pairErrors(local, uri, out);
    return { prefix: local, uri };
  }
  if (name === 'xmlns') {
    const uri = value.trim();
    pairErrors('', uri, out);
    return { prefix: '', uri };
  }
  return null;
}

/** The expanded attribute names of the element being checked (reused: checking never nests; emptied after each element). */
const SEEN = new Set<string>();

/** The bindings in scope: a stack of URIs per prefix, and per open element the prefixes it bound. */
export class Namespaces {
  private readonly byPrefix = new Map<string, string[]>();
  /** Depth of each element that bound something, innermost last, with the prefixes it bound. */
  private readonly frameDepths: number[] = [];
  private readonly framePrefixes: string[][] = [];
  /** resolve(''): the namespace of an unprefixed element ('' when none is declared). */
  defaultNamespace = '';

  reset(): void {
    this.byPrefix.clear();
    this.frameDepths.length = 0;
    this.framePrefixes.length = 0;
    this.defaultNamespace = '';
  }

  /** Binds the declarations of the element opened at `depth` (0: the root). */
  bind(depth: number, prefixes: string[], uris: string[]): void {
    if (prefixes.length === 0) return;
    for (let i = 0; i < prefixes.length; i++) {
      const p = prefixes[i]!;
      const stack = this.byPrefix.get(p);
      // A new prefix's stack starts exact (one pushed onto [] reserves room for 17).
      if (stack === undefined) this.byPrefix.set(p, [uris[i]!]);
      else stack.push(uris[i]!);
      if (p === '') this.defaultNamespace = uris[i]!;
    }
    this.frameDepths.push(depth);
    this.framePrefixes.push(prefixes);
  }

  /** The element at `depth` closed: its bindings go out of scope. */
  unbind(depth: number): void {
    const n = this.frameDepths.length;
    if (n === 0 || this.frameDepths[n - 1]! < depth) return;
    const prefixes = this.framePrefixes.pop()!;
    this.frameDepths.pop();
    for (const p of prefixes) {
      const stack = this.byPrefix.get(p)!;
      stack.pop();
      if (p === '') this.defaultNamespace = stack.length > 0 ? stack[stack.length - 1]! : '';
    }
  }

  /** The namespace of a prefix, as saxes' resolve(): the innermost binding, then xml and xmlns; undefined when unbound. */
  resolve(prefix: string): string | undefined {
    const stack = this.byPrefix.get(prefix);
    if (stack !== undefined && stack.length > 0) return stack[stack.length - 1];
    return prefix === 'xml' ? XML_NAMESPACE : prefix === 'xmlns' ? XMLNS_NAMESPACE : undefined;
  }

  /**
   * saxes' processAttribsNS for an element whose declarations are bound: the element's namespace
   * (the prefix itself when unbound, as saxes leaves it) and the messages it reports, in order.
   * `attributeNames` are the attributes as written, duplicates included: the first `count` of them.
   */
  element(qname: string, attributeNames: readonly string[], out: string[], count = attributeNames.length): string {
    // splitName without its object: this runs for every element.
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    if (colon >= 0 && (colon === 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) >= 0))
      out.push(`malformed name: ${qname}.`);
    let uri = (prefix === '' ? this.defaultNamespace : this.resolve(prefix)) ?? '';
    if (prefix !== '') {
      if (prefix === 'xmlns') out.push('tags may not have "xmlns" as prefix.');
      if (uri === '') {
        out.push(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
        uri = prefix;
      }
    }
    const n = count;
    if (n === 0) return uri;
    // One attribute cannot be a duplicate: no expanded name and no set to build (the common case).
    const seen = n > 1 ? SEEN : null;
    for (let i = 0; i < n; i++) {
      const name = attributeNames[i]!;
      const colon = name.indexOf(':');
      let eqname = name;
      // saxes reads ":a" as prefix "" (unprefixed), after its malformed-name report.
      if (colon > 0) {
        const p = name.slice(0, colon);
        let u = this.resolve(p);
        if (u === undefined) {
          out.push(`unbound namespace prefix: ${JSON.stringify(p)}.`);
          u = p;
        }
        if (seen === null) continue;
        eqname = `{${u}}${name.slice(colon + 1)}`;
      }
      if (seen === null) continue;
      if (seen.has(eqname)) out.push(`duplicate attribute: ${eqname}.`);
      seen.add(eqname);
    }
    seen?.clear();
    return uri;
  }
}
