import type { Diagnostic, ErrorPage, FilterDef, FilterMapping, Located, MimeMapping, Param, ServletDef, ServletMapping, SourceFile, WebXml, WebXmlGeneration } from '../model/index.js';
import type { LineIndex } from './lines.js';
import { resolveProperties } from './properties.js';
import { elementText, parseXmlTree, type XmlElement } from './xml.js';
import { toSource } from './source.js';

const NAMESPACES: Record<string, WebXmlGeneration> = {
  'http://java.sun.com/xml/ns/j2ee': '2.4',
  'http://java.sun.com/xml/ns/javaee': '2.5',
  'http://xmlns.jcp.org/xml/ns/javaee': '3.1',
  'https://jakarta.ee/xml/ns/jakartaee': '5.0',
};

const VERSIONS = new Set(['2.2', '2.3', '2.4', '2.5', '3.0', '3.1', '4.0', '5.0', '6.0', '6.1']);

/** Elements that make up a descriptor snippet (several of them without a <web-app> around). */
const SNIPPET_ELEMENTS = new Set(['filter', 'filter-mapping', 'servlet', 'servlet-mapping', 'context-param', 'mime-mapping', 'listener']);

/** Reads the children of an element that Tomcat's digester reads, with their text located. */
class Reader {
  constructor(
    private readonly lines: LineIndex,
    private readonly raw: string,
    private readonly diagnostics: Diagnostic[],
    private readonly properties: Record<string, string> | undefined,
  ) {}

  /** Tomcat's digester replaces `${name}` in every body text with a system property (unknown names stay as written). */
  text(el: XmlElement): Located<string> {
    const t = elementText(el, this.lines, this.raw);
    if (this.properties && t.value.includes('${')) t.value = resolveProperties(t.value, this.properties).value;
    return t;
  }

  child(el: XmlElement, name: string): Located<string> | null {
    for (const c of el.children) if (c.name === name) return this.text(c);
    return null;
  }

  all(el: XmlElement, name: string): Located<string>[] {
    const out: Located<string>[] = [];
    for (const c of el.children) if (c.name === name) out.push(this.text(c));
    return out;
  }

  required(el: XmlElement, name: string): Located<string> | null {
    const v = this.child(el, name);
    if (!v) {
      this.diagnostics.push({
        ruleId: 'webxml-missing-element',
        severity: 'error',
        message: `<${el.name}> has no <${name}>: Tomcat refuses to start an application whose descriptor lacks it.`,
        span: this.lines.span(el.span.offset, Math.min(el.span.endOffset, el.contentStart)),
      });
    }
    return v;
  }

  params(el: XmlElement, tag: string): Param[] {
    const out: Param[] = [];
    for (const p of el.children) if (p.name === tag) out.push(...this.paramOf(p));
    return out;
  }

  /** One `<init-param>`/`<context-param>`; empty when it has no name. */
  paramOf(p: XmlElement): Param[] {
    const name = this.required(p, 'param-name');
    const value = this.child(p, 'param-value') ?? { value: '', span: this.lines.span(p.contentEnd, p.contentEnd) };
    return name ? [{ name, value, span: p.span }] : [];
  }
}

/** Without namespace processing an element is known by its name as written, prefix included. */
function matchQualifiedNames(el: XmlElement): void {
  el.name = el.qname;
  for (const c of el.children) matchQualifiedNames(c);
}

function generationOf(root: XmlElement, doctype: string | null, version: string | null): WebXmlGeneration {
  if (version && VERSIONS.has(version)) return version as WebXmlGeneration;
  if (doctype) {
    if (doctype.includes('Web Application 2.2')) return '2.2';
    if (doctype.includes('Web Application 2.3')) return '2.3';
  }
  return NAMESPACES[root.namespace] ?? 'unknown';
}

/** How Tomcat's digester reads a descriptor (the Context's xmlNamespaceAware; false by default). */
export interface WebXmlOptions {
  /**
   * With namespace processing, prefixed elements (`<j2ee:filter>`) are read by local name.
   * Without it (Tomcat's default) names are matched as written, so Tomcat ignores them.
   */
  namespaceAware?: boolean;
}

/**
 * Parses a web.xml (or web-fragment.xml / web.xml.default) into the positioned model.
 * With `properties` (what loadBase passes: catalina.base, catalina.home, conf/catalina.properties),
 * `${name}` in values is replaced as Tomcat 10.1 does for every descriptor; without, values stay as written.
 */
export function parseWebXml(
  input: string | Uint8Array,
  file: string,
  properties?: Record<string, string>,
  options: WebXmlOptions = {},
): { webXml: WebXml | null; source: SourceFile; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = toSource(input, file);
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  let root = doc.root;
  if (!root) return { webXml: null, source, diagnostics };
  const lines = doc.lines;
  // Where Java's parser would give up: a syntax error, or an entity it refuses (not a mere declaration).
  const malformed = xmlDiags.find((d) => d.severity === 'error' && (d.ruleId === 'xml-malformed' || d.ruleId === 'xml-entity-expansion'))?.span;
  // A prefix needs an xmlns: declaration, so files without one need no renaming.
  if (!options.namespaceAware && source.text.includes('xmlns:')) matchQualifiedNames(root);
  if (root.name !== 'web-app' && root.name !== 'web-fragment') {
    const prefixed = root.qname.includes(':') && (root.qname.endsWith(':web-app') || root.qname.endsWith(':web-fragment'));
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
    if (prefixed || !top.every((e) => SNIPPET_ELEMENTS.has(e.name))) return { webXml: null, source, diagnostics };
    root = { ...root, name: 'web-app', qname: 'web-app', attributes: [], children: top, span: lines.span(0, source.text.length) };
  }
  if (root.namespace && !(root.namespace in NAMESPACES)) {
    diagnostics.push({
      ruleId: 'xml-unknown-namespace',
      severity: 'warning',
      message: `Unknown namespace "${root.namespace}" on <${root.qname}>. Tomcat still reads the elements (it matches names, not namespaces: observed on Tomcat 10.1.60), but schema validation (xmlValidation="true") and XML editors reject the file. Use the j2ee, javaee, xmlns.jcp.org or jakarta.ee namespace of the descriptor's version.`,
      span: lines.span(root.span.offset, root.contentStart),
    });
  }
  for (const el of root.children) {
    if (!el.name.includes(':')) continue;
    diagnostics.push({
      ruleId: 'xml-unknown-namespace',
      severity: 'error',
      message: `Tomcat ignores <${el.qname}>: it reads descriptors without namespace processing (xmlNamespaceAware is false by default) and matches element names as written (observed on Tomcat 10.1.60). Drop the prefix, or set xmlNamespaceAware="true" on the <Context>.`,
      span: lines.span(el.span.offset, el.contentStart),
    });
  }
  const r = new Reader(lines, source.text, diagnostics, properties);
  const attr = (name: string): Located<string> | null => {
    const a = root.attributes.find((x) => x.name === name && x.qname === name);
    if (!a) return null;
    const value = properties && a.value.includes('${') ? resolveProperties(a.value, properties).value : a.value;
    return { value, span: a.valueSpan };
  };
  const version = attr('version');
  const webXml: WebXml = {
    file,
    root: root.name as WebXml['root'],
    generation: generationOf(root, doc.doctype?.value ?? null, version?.value ?? null),
    namespace: root.namespace || null,
    version,
    metadataComplete: attr('metadata-complete'),
    span: root.span,
    filters: [],
    filterMappings: [],
    servlets: [],
    servletMappings: [],
    mimeMappings: [],
    welcomeFiles: [],
    sessionTimeout: null,
    contextParams: [],
    realmName: null,
    requestCharacterEncoding: null,
    errorPages: [],
    doctype: doc.doctype,
    ...(malformed ? { malformed } : {}),
  };
  for (const el of root.children) {
    switch (el.name) {
      case 'filter': {
        const name = r.required(el, 'filter-name');
        if (!name) break;
        const f: FilterDef = {
          name,
          // Optional here: a same-named filter of tomcat-web.xml or the global descriptors may give the class (merge decides).
          className: r.child(el, 'filter-class'),
          asyncSupported: r.child(el, 'async-supported'),
          initParams: r.params(el, 'init-param'),
          span: el.span,
        };
        webXml.filters.push(f);
        break;
      }
      case 'filter-mapping': {
        const filterName = r.required(el, 'filter-name');
        if (!filterName) break;
        const m: FilterMapping = {
          filterName,
          urlPatterns: r.all(el, 'url-pattern'),
          servletNames: r.all(el, 'servlet-name'),
          dispatchers: r.all(el, 'dispatcher'),
          span: el.span,
        };
        webXml.filterMappings.push(m);
        break;
      }
      case 'servlet': {
        const name = r.required(el, 'servlet-name');
        if (!name) break;
        const s: ServletDef = {
          name,
          className: r.child(el, 'servlet-class'),
          jspFile: r.child(el, 'jsp-file'),
          initParams: r.params(el, 'init-param'),
          span: el.span,
        };
        webXml.servlets.push(s);
        break;
      }
      case 'servlet-mapping': {
        const servletName = r.required(el, 'servlet-name');
        if (!servletName) break;
        const m: ServletMapping = { servletName, urlPatterns: r.all(el, 'url-pattern'), span: el.span };
        webXml.servletMappings.push(m);
        break;
      }
      case 'mime-mapping': {
        const extension = r.required(el, 'extension');
        const mimeType = r.required(el, 'mime-type');
        if (extension && mimeType) webXml.mimeMappings.push({ extension, mimeType, span: el.span } satisfies MimeMapping);
        break;
      }
      case 'welcome-file-list':
        webXml.welcomeFiles.push(...r.all(el, 'welcome-file'));
        break;
      case 'session-config':
        webXml.sessionTimeout = r.child(el, 'session-timeout') ?? webXml.sessionTimeout;
        break;
      case 'context-param':
        webXml.contextParams.push(...r.paramOf(el));
        break;
      case 'request-character-encoding':
        webXml.requestCharacterEncoding = r.text(el);
        break;
      case 'error-page':
        webXml.errorPages!.push({
          errorCode: r.child(el, 'error-code'),
          exceptionType: r.child(el, 'exception-type'),
          location: r.child(el, 'location'),
          span: el.span,
        } satisfies ErrorPage);
        break;
      case 'login-config':
        webXml.realmName = r.child(el, 'realm-name') ?? webXml.realmName;
        break;
      default:
        break;
    }
  }
  return { webXml, source, diagnostics };
}
