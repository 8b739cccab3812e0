/**
 * The tree web.xml reader: every descriptor the direct reader does not take (a DOCTYPE, entities,
 * a prefixed or unexpected root, a snippet of filters...) is read through the positioned tree.
 */
import type { Diagnostic, Located, SourceFile, WebXml } from '../model/index.js';
import { resolveProperties } from './properties.js';
import { parseXmlTree, type XmlAttribute, type XmlElement } from './xml.js';
import {
  compact,
  generationOf,
  NAMESPACES,
  newWebXml,
  prefixedElement,
  Reader,
  readElement,
  unknownNamespace,
  type WebXmlOptions,
} from './webxml-read.js';

/** Elements that make up a descriptor snippet (several of them without a <web-app> around). */
const SNIPPET_ELEMENTS = new Set([
  'filter',
  'filter-mapping',
  'servlet',
  'servlet-mapping',
  'context-param',
  'mime-mapping',
  'listener',
]);
/** Without namespace processing an element is known by its name as written, prefix included. */
function matchQualifiedNames(el: XmlElement): void {
  el.name = el.qname;
  for (const c of el.children) matchQualifiedNames(c);
}

/** An unprefixed attribute of the root, `${...}` replaced. */
function rootAttribute(
  attributes: readonly XmlAttribute[],
  name: string,
  properties: Record<string, string> | undefined,
): Located<string> | null {
  const a = attributes.find((x) => x.name === name && x.qname === name);
  if (!a) return null;
  const value = properties && a.value.includes('${') ? resolveProperties(a.value, properties).value : a.value;
  return { value, span: a.valueSpan };
}

/** The model of a descriptor read through the tree, its findings added to `diagnostics`; null when it has no <web-app> to read. */
export function readWebXmlTree(
  source: SourceFile,
  diagnostics: Diagnostic[],
  properties: Record<string, string> | undefined,
  options: WebXmlOptions,
): WebXml | null {
  const file = source.path;
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  let root = doc.root;
  if (!root) return null;
  const lines = doc.lines;
  // Where Java's parser would give up: a syntax error, or an entity it refuses (not a mere declaration).
  const malformed = xmlDiags.find(
    (d) =>
      d.severity === 'error' &&
      (d.ruleId === 'xml-malformed' || d.ruleId === 'xml-entity-expansion' || d.ruleId === 'xml-external-dtd'),
  )?.span;
  // A prefix needs an xmlns: declaration, so files without one need no renaming.
  if (!options.namespaceAware && source.text.includes('xmlns:')) matchQualifiedNames(root);
  if (root.name !== 'web-app' && root.name !== 'web-fragment') {
    const prefixed =
      root.qname.includes(':') && (root.qname.endsWith(':web-app') || root.qname.endsWith(':web-fragment'));
    diagnostics.push({
      ruleId: 'xml-wrong-root',
      severity: 'error',
      message: prefixed
        ? `Tomcat reads descriptors without namespace processing (the Context's xmlNamespaceAware is false by default), so it matches <${root.qname}> as written, finds no <web-app> and ignores every element of this file: the application starts without these filters and mappings (observed on Tomcat 10.1.60). Declare the namespace as the default (xmlns="${root.namespace}") and drop the prefixes, or set xmlNamespaceAware="true" on the <Context>.`
        : `Expected a <web-app> root element, found <${root.qname}>: this is not a deployment descriptor. Tomcat ignores every element in it, so the application starts without any of its filters and mappings (observed on Tomcat 10.1.60).`,
      span: lines.span(root.span.offset, root.contentStart),
    });
    // A snippet of <filter>/<filter-mapping> elements (meant to be spliced into a web.xml)
    // is still read as if it were wrapped, so its filters get checked too.
    const top = [root, ...doc.extraRoots];
    if (prefixed || !top.every((e) => SNIPPET_ELEMENTS.has(e.name))) return null;
    root = {
      ...root,
      name: 'web-app',
      qname: 'web-app',
      attributes: [],
      children: top,
      span: lines.span(0, source.text.length),
    };
  }
  if (root.namespace && !(root.namespace in NAMESPACES))
    diagnostics.push(unknownNamespace(root.namespace, root.qname, lines.span(root.span.offset, root.contentStart)));
  // Indexed loops: this runs once per file, and for-of over 1,000,000 children allocated an iterator result each.
  const children = root.children;
  for (let i = 0; i < children.length; i++) {
    const el = children[i]!;
    if (el.name.includes(':')) diagnostics.push(prefixedElement(el.qname, lines.span(el.span.offset, el.contentStart)));
  }
  const r = new Reader(lines, source.text, diagnostics, properties);
  const version = rootAttribute(root.attributes, 'version', properties);
  const webXml = newWebXml({
    file,
    root: root.name as WebXml['root'],
    generation: generationOf(root.namespace, doc.doctype?.value ?? null, version?.value ?? null),
    namespace: root.namespace || null,
    version,
    metadataComplete: rootAttribute(root.attributes, 'metadata-complete', properties),
    span: root.span,
    doctype: doc.doctype,
  });
  if (malformed) webXml.malformed = malformed;
  for (let i = 0; i < children.length; i++) readElement(children[i]!, r, webXml);
  return compact(webXml);
}
