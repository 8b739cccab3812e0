import type { Diagnostic, ErrorPage, FilterDef, FilterMapping, Located, MimeMapping, Param, SecurityConstraint, ServletDef, ServletMapping, SourceFile, Span, WebResourceCollection, WebXml, WebXmlGeneration } from '../model/index.js';
import { scanSimple, type RawAttribute, type SimpleSink } from './fast-xml.js';
import { LineIndex } from './lines.js';
import { resolveProperties } from './properties.js';
import { parseXmlTree, type XmlAttribute, type XmlElement } from './xml.js';
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

/**
 * What the descriptor reader needs of an element: an XmlElement of the tree,
 * or a Node of the direct path (parseDirect), which computes text and span on demand.
 */
interface Element {
  readonly name: string;
  readonly qname: string;
  readonly children: readonly Element[];
  readonly text: string;
  readonly span: Span;
  readonly contentStart: number;
  readonly contentEnd: number;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** How many of `el.children` are its children: all of an XmlElement's, the first childCount of a Node's (its array is reused). */
function childCount(el: Element): number {
  return el instanceof Node ? el.childCount : el.children.length;
}

/**
 * A copy of a filled array with no spare room. The model lives as long as the
 * base: an array grown by push keeps room for 17 entries (152 bytes) where
 * most hold one or two, and that was an eighth of what loadBase kept per app.
 */
function exact<T>(a: T[]): T[] {
  return a.length === 0 ? a : a.slice();
}

/** The model's lists without spare room (see exact). */
function compact(w: WebXml): WebXml {
  w.filters = exact(w.filters);
  w.filterMappings = exact(w.filterMappings);
  w.servlets = exact(w.servlets);
  w.servletMappings = exact(w.servletMappings);
  w.mimeMappings = exact(w.mimeMappings);
  w.welcomeFiles = exact(w.welcomeFiles);
  w.contextParams = exact(w.contextParams);
  if (w.errorPages) w.errorPages = exact(w.errorPages);
  if (w.securityConstraints) w.securityConstraints = exact(w.securityConstraints);
  if (w.securityRoles) w.securityRoles = exact(w.securityRoles);
  if (w.trackingModes) w.trackingModes = exact(w.trackingModes);
  return w;
}

/** Where all() gathers values before copying them out exactly (reused: V8 drops an array's storage when its length is set to 0). */
const SCRATCH: Located<string>[] = [];

/**
 * Elements whose text is a name the configuration repeats from file to file and compares
 * all the time (merge keys its maps by them, lint matches them against parameter and class
 * names): their values are interned.
 */
const NAME_ELEMENTS = new Set(['filter-name', 'filter-class', 'param-name', 'servlet-name', 'servlet-class', 'url-pattern', 'dispatcher', 'async-supported']);

/** Canonical copies of name values, bounded: emptied when full (a base of unusual names just interns less). */
const INTERNED = new Map<string, string>();
const MAX_INTERNED = 4096;
const MAX_INTERNED_LENGTH = 128;

/**
 * One flat copy per distinct name: equal names are then the same string, which V8 compares and
 * hashes at once, where two slices of two files' text are compared character by character through
 * its slow path. A copy (not the slice itself) so the table never keeps a file's text alive.
 */
function intern(value: string): string {
  if (value.length > MAX_INTERNED_LENGTH) return value;
  const known = INTERNED.get(value);
  if (known !== undefined) return known;
  if (INTERNED.size >= MAX_INTERNED) INTERNED.clear();
  // A slice shorter than 13 characters is already a copy; JSON.parse makes a flat one of a longer slice.
  const copy = value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
  INTERNED.set(copy, copy);
  return copy;
}

/** Reads the children of an element that Tomcat's digester reads, with their text located. */
class Reader {
  /**
   * Properties to replace, when a value can hold `${` at all: the text has one, or a reference
   * (`&#36;{`) may spell one. Otherwise values are not searched one by one.
   */
  private readonly replacing: Record<string, string> | undefined;

  constructor(
    private readonly lines: LineIndex,
    private readonly raw: string,
    private readonly diagnostics: Diagnostic[],
    properties: Record<string, string> | undefined,
  ) {
    this.replacing = properties && (raw.includes('${') || raw.includes('&')) ? properties : undefined;
  }

  /** Tomcat's digester replaces `${name}` in every body text with a system property (unknown names stay as written). */
  text(el: Element): Located<string> {
    // As elementText (xml.ts): the trimmed text, located at the trimmed characters of the content.
    const raw = this.raw;
    let s = el.contentStart;
    let e = el.contentEnd;
    while (s < e && isSpace(raw.charCodeAt(s))) s++;
    while (e > s && isSpace(raw.charCodeAt(e - 1))) e--;
    // The content as one piece of text (no child, comment or entity in it): sliced out trimmed as located,
    // then trimmed as JavaScript trims, which only differs for other white space (U+00A0 and above) at an end.
    let value: string;
    if (el instanceof Node && el.isWholeContent()) {
      value = raw.slice(s, e);
      if (e > s && (raw.charCodeAt(s) > 127 || raw.charCodeAt(e - 1) > 127)) value = value.trim();
    } else {
      value = el.text.trim();
    }
    if (this.replacing && value.includes('${')) value = resolveProperties(value, this.replacing).value;
    if (NAME_ELEMENTS.has(el.name)) value = intern(value);
    return { value, span: this.lines.span(s, e) };
  }

  child(el: Element, name: string): Located<string> | null {
    const cs = el.children;
    for (let i = 0, n = childCount(el); i < n; i++) if (cs[i]!.name === name) return this.text(cs[i]!);
    return null;
  }

  /** The first child element of that name. */
  element(el: Element, name: string): Element | null {
    const cs = el.children;
    for (let i = 0, n = childCount(el); i < n; i++) if (cs[i]!.name === name) return cs[i]!;
    return null;
  }

  all(el: Element, name: string): Located<string>[] {
    const cs = el.children;
    let k = 0;
    for (let i = 0, n = childCount(el); i < n; i++) if (cs[i]!.name === name) SCRATCH[k++] = this.text(cs[i]!);
    return k === 0 ? [] : SCRATCH.slice(0, k);
  }

  required(el: Element, name: string): Located<string> | null {
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

  /**
   * Whether a <filter-name> or <servlet-name> of a definition is empty, reported: FilterDef and ServletDef
   * refuse it ("Invalid <filter-name> [] in filter definition") and the application does not start.
   */
  emptyName(name: Located<string>, kind: 'filter' | 'servlet'): boolean {
    if (name.value !== '') return false;
    this.diagnostics.push({
      ruleId: 'webxml-missing-element',
      severity: 'error',
      message: `<${kind}-name> is empty: Tomcat refuses the definition ("Invalid <${kind}-name> [] in ${kind} definition") and the application does not start.`,
      span: name.span,
    });
    return true;
  }

  params(el: Element, tag: string): Param[] {
    const out: Param[] = [];
    const cs = el.children;
    for (let i = 0, n = childCount(el); i < n; i++) if (cs[i]!.name === tag) this.paramInto(cs[i]!, out);
    return exact(out);
  }

  /** One `<init-param>`/`<context-param>` added to `out`; nothing when it has no name. */
  paramInto(p: Element, out: Param[]): void {
    const name = this.required(p, 'param-name');
    const value = this.child(p, 'param-value') ?? { value: '', span: this.lines.span(p.contentEnd, p.contentEnd) };
    if (name) out.push({ name, value, span: p.span });
  }
}

/** Without namespace processing an element is known by its name as written, prefix included. */
function matchQualifiedNames(el: XmlElement): void {
  el.name = el.qname;
  for (const c of el.children) matchQualifiedNames(c);
}

function generationOf(namespace: string, doctype: string | null, version: string | null): WebXmlGeneration {
  if (version && VERSIONS.has(version)) return version as WebXmlGeneration;
  if (doctype) {
    if (doctype.includes('Web Application 2.2')) return '2.2';
    if (doctype.includes('Web Application 2.3')) return '2.3';
  }
  return NAMESPACES[namespace] ?? 'unknown';
}

/** How Tomcat's digester reads a descriptor (the Context's xmlNamespaceAware; false by default). */
export interface WebXmlOptions {
  /**
   * With namespace processing, prefixed elements (`<j2ee:filter>`) are read by local name.
   * Without it (Tomcat's default) names are matched as written, so Tomcat ignores them.
   */
  namespaceAware?: boolean;
  /** false: read through the XML tree even where the direct path could (tests compare both). */
  direct?: boolean;
}

/** Reads one child of the root into the model, as Tomcat's digester rules for web.xml do. */
function readElement(el: Element, r: Reader, webXml: WebXml): void {
  switch (el.name) {
    case 'filter': {
      const name = r.required(el, 'filter-name');
      if (!name || r.emptyName(name, 'filter')) break;
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
      if (!name || r.emptyName(name, 'servlet')) break;
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
    case 'session-config': {
      webXml.sessionTimeout = r.child(el, 'session-timeout') ?? webXml.sessionTimeout;
      const cookie = r.element(el, 'cookie-config');
      if (cookie) webXml.sessionCookieConfig = { httpOnly: r.child(cookie, 'http-only'), secure: r.child(cookie, 'secure'), span: cookie.span };
      const modes = r.all(el, 'tracking-mode');
      if (modes.length > 0) (webXml.trackingModes ??= []).push(...modes);
      break;
    }
    case 'security-constraint':
      (webXml.securityConstraints ??= []).push(readSecurityConstraint(el, r));
      break;
    case 'security-role': {
      const role = r.child(el, 'role-name');
      if (role) (webXml.securityRoles ??= []).push(role);
      break;
    }
    case 'deny-uncovered-http-methods':
      webXml.denyUncoveredHttpMethods = el.span;
      break;
    case 'context-param':
      r.paramInto(el, webXml.contextParams);
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
      webXml.loginConfig = { authMethod: r.child(el, 'auth-method'), span: el.span };
      break;
    default:
      break;
  }
}

/** A `<security-constraint>` (its elements lie within the three levels below the root that are read). */
function readSecurityConstraint(el: Element, r: Reader): SecurityConstraint {
  const collections: WebResourceCollection[] = [];
  let authRoles: Located<string>[] | null = null;
  let transportGuarantee: Located<string> | null = null;
  const cs = el.children;
  for (let i = 0, n = childCount(el); i < n; i++) {
    const c = cs[i]!;
    if (c.name === 'web-resource-collection') {
      collections.push({ urlPatterns: r.all(c, 'url-pattern'), httpMethods: r.all(c, 'http-method'), httpMethodOmissions: r.all(c, 'http-method-omission'), span: c.span });
    } else if (c.name === 'auth-constraint') {
      // Several <auth-constraint>s are read as one list of roles, as the digester adds each role to the one constraint.
      authRoles = [...(authRoles ?? []), ...r.all(c, 'role-name')];
    } else if (c.name === 'user-data-constraint') {
      transportGuarantee = r.child(c, 'transport-guarantee') ?? transportGuarantee;
    }
  }
  return { collections, authRoles, transportGuarantee, span: el.span };
}

function unknownNamespace(namespace: string, qname: string, span: Span): Diagnostic {
  return {
    ruleId: 'xml-unknown-namespace',
    severity: 'warning',
    message: `Unknown namespace "${namespace}" on <${qname}>. Tomcat still reads the elements (it matches names, not namespaces: observed on Tomcat 10.1.60), but schema validation (xmlValidation="true") and XML editors reject the file. Use the j2ee, javaee, xmlns.jcp.org or jakarta.ee namespace of the descriptor's version.`,
    span,
  };
}

function prefixedElement(qname: string, span: Span): Diagnostic {
  return {
    ruleId: 'xml-unknown-namespace',
    severity: 'error',
    message: `Tomcat ignores <${qname}>: it reads descriptors without namespace processing (xmlNamespaceAware is false by default) and matches element names as written (observed on Tomcat 10.1.60). Drop the prefix, or set xmlNamespaceAware="true" on the <Context>.`,
    span,
  };
}

/** An unprefixed attribute of the root, `${...}` replaced. */
function rootAttribute(attributes: readonly XmlAttribute[], name: string, properties: Record<string, string> | undefined): Located<string> | null {
  const a = attributes.find((x) => x.name === name && x.qname === name);
  if (!a) return null;
  const value = properties && a.value.includes('${') ? resolveProperties(a.value, properties).value : a.value;
  return { value, span: a.valueSpan };
}

/** Stands in for the root's span until its end tag is read. */
const PENDING: Span = { file: '', line: 0, column: 0, endLine: 0, endColumn: 0, offset: 0, endOffset: 0 };

/**
 * An element of the direct path below the root (levels 1 to 3, all the
 * digester rules look at). Nodes are reused from one child of the root to the
 * next and from one file to the next (parsing never nests): the model keeps
 * the strings and spans read from them, never a node.
 */
class Node implements Element {
  name = '';
  qname = '';
  start = 0;
  end = 0;
  contentStart = 0;
  contentEnd = 0;
  /**
   * The children are the first childCount entries, and the text segments the first segmentCount
   * [from, to) offset pairs: the arrays are reused without shrinking (V8 drops the storage of an
   * array whose length is set to 0, so clearing them cost an allocation per element).
   */
  readonly children: Node[] = [];
  childCount = 0;
  private readonly segments: number[] = [];
  private segmentCount = 0;
  private spanOf: Span | null = null;
  private sink: DirectSink | null = null;

  reset(sink: DirectSink, name: string, qname: string, start: number, end: number): void {
    this.sink = sink;
    this.name = name;
    this.qname = qname;
    this.start = start;
    this.end = end;
    this.contentStart = end;
    this.contentEnd = end;
    this.childCount = 0;
    this.segmentCount = 0;
    this.spanOf = null;
  }

  get span(): Span {
    return (this.spanOf ??= this.sink!.lines.span(this.start, this.end));
  }

  /** Lets go of the file once it is read (the pool outlives it). */
  release(): void {
    this.sink = null;
    this.spanOf = null;
  }

  /** Whether the text is the whole content, in one piece: no child element, comment or entity inside. */
  isWholeContent(): boolean {
    return this.segmentCount === 2 && this.segments[0] === this.contentStart && this.segments[1] === this.contentEnd;
  }

  /** The character data, as the tree concatenates it. */
  get text(): string {
    const seg = this.segments;
    const n = this.segmentCount;
    if (n === 0) return '';
    const raw = this.sink!.raw;
    let t = raw.slice(seg[0], seg[1]);
    for (let k = 2; k < n; k += 2) t += raw.slice(seg[k], seg[k + 1]);
    return t;
  }

  addChild(node: Node): void {
    this.children[this.childCount++] = node;
  }

  addText(from: number, to: number): void {
    this.segments[this.segmentCount++] = from;
    this.segments[this.segmentCount++] = to;
  }
}

/** Deepest level below the root whose elements the digester rules read (<web-app><filter><init-param><param-name>). */
const NODE_DEPTH = 3;

/** Nodes for the elements of one child of the root, shared by all files; the open node at each level 1..NODE_DEPTH. */
const POOL: Node[] = [];
const OPEN_NODES: Node[] = [];

/**
 * Builds the model while fast-xml.ts scans the document, without the tree:
 * each child of the root is read (readElement) as soon as its end tag is seen.
 */
class DirectSink implements SimpleSink {
  webXml: WebXml | null = null;
  rootWarning: Diagnostic | null = null;
  readonly prefixed: Diagnostic[] = [];
  readonly modelDiagnostics: Diagnostic[] = [];
  private readonly reader: Reader;
  /** How many nodes of POOL the current child of the root uses. */
  private used = 0;

  constructor(
    readonly lines: LineIndex,
    readonly raw: string,
    private readonly file: string,
    private readonly properties: Record<string, string> | undefined,
    /** Names are matched as written (prefix included): no namespace processing and a prefix declared. */
    readonly qualified: boolean,
  ) {
    this.reader = new Reader(lines, raw, this.modelDiagnostics, properties);
  }

  open(depth: number, lt: number, end: number, qname: string, local: string, namespace: string, attributes: readonly RawAttribute[], selfClosing: boolean): boolean {
    const name = this.qualified ? qname : local;
    if (depth === 0) return this.openRoot(lt, end, name, qname, namespace, attributes, selfClosing);
    if (depth > NODE_DEPTH) return true;
    let node = POOL[this.used];
    if (!node) POOL.push((node = new Node()));
    this.used++;
    node.reset(this, name, qname, lt, end);
    if (depth > 1) OPEN_NODES[depth - 2]!.addChild(node);
    if (!selfClosing) OPEN_NODES[depth - 1] = node;
    else if (depth === 1) this.finish(node);
    return true;
  }

  close(depth: number, start: number, lt: number, end: number): void {
    if (depth === 0) {
      this.webXml!.span = this.lines.span(start, end);
      return;
    }
    if (depth > NODE_DEPTH) return;
    const node = OPEN_NODES[depth - 1]!;
    node.contentEnd = lt;
    node.end = end;
    if (depth === 1) this.finish(node);
  }

  text(depth: number, from: number, to: number): void {
    if (depth >= 1 && depth <= NODE_DEPTH) OPEN_NODES[depth - 1]!.addText(from, to);
  }

  /** A child of the root is complete: read it, then reuse its nodes. */
  private finish(node: Node): void {
    // Only a name matched as written can have a prefix (a local name never does).
    if (this.qualified && node.qname.includes(':')) this.prefixed.push(prefixedElement(node.qname, this.lines.span(node.start, node.contentStart)));
    readElement(node, this.reader, this.webXml!);
    this.used = 0;
  }

  /** As rootAttribute, from the attributes as written: only the ones read are located. */
  private rootAttribute(attributes: readonly RawAttribute[], name: string): Located<string> | null {
    // An unprefixed attribute's local name is its qualified name; a prefixed one's never is.
    const a = attributes.find((x) => x.qname === name);
    if (!a) return null;
    const value = this.properties && a.value.includes('${') ? resolveProperties(a.value, this.properties).value : a.value;
    return { value, span: this.lines.span(a.valueStart, a.valueEnd) };
  }

  private openRoot(lt: number, end: number, name: string, qname: string, namespace: string, attributes: readonly RawAttribute[], selfClosing: boolean): boolean {
    // Another root (a snippet, a prefixed descriptor...) takes the tree path, which reports it.
    if (name !== 'web-app' && name !== 'web-fragment') return false;
    if (namespace && !(namespace in NAMESPACES)) this.rootWarning = unknownNamespace(namespace, qname, this.lines.span(lt, end));
    const version = this.rootAttribute(attributes, 'version');
    this.webXml = {
      file: this.file,
      root: name,
      generation: generationOf(namespace, null, version?.value ?? null),
      namespace: namespace || null,
      version,
      metadataComplete: this.rootAttribute(attributes, 'metadata-complete'),
      span: selfClosing ? this.lines.span(lt, end) : PENDING,
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
      doctype: null,
    };
    return true;
  }
}

/**
 * The model of a descriptor fast-xml.ts reads (no DOCTYPE, entity, CDATA...)
 * whose root is <web-app> or <web-fragment>, built without the tree; null for
 * every other document, which the tree path reads. The same model, diagnostics
 * and comments as the tree path (test/parser/direct-webxml.test.ts compares them).
 */
function parseDirect(source: SourceFile, diagnostics: Diagnostic[], properties: Record<string, string> | undefined, options: WebXmlOptions): WebXml | null {
  const text = source.text;
  // Every span is worked out before this returns (a Node's lazily, while its element is read; Node.release ends that).
  const lines = LineIndex.transient(source.path, text);
  const sink = new DirectSink(lines, text, source.path, properties, !options.namespaceAware && text.includes('xmlns:'));
  const comments = scanSimple(text, lines, sink);
  for (const node of POOL) node.release();
  if (!comments || !sink.webXml) return null;
  source.comments = comments;
  if (sink.rootWarning) diagnostics.push(sink.rootWarning);
  diagnostics.push(...sink.prefixed, ...sink.modelDiagnostics);
  return compact(sink.webXml);
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
  const direct = options.direct === false ? null : parseDirect(source, diagnostics, properties, options);
  if (direct) return { webXml: direct, source, diagnostics };
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  let root = doc.root;
  if (!root) return { webXml: null, source, diagnostics };
  const lines = doc.lines;
  // Where Java's parser would give up: a syntax error, or an entity it refuses (not a mere declaration).
  const malformed = xmlDiags.find((d) => d.severity === 'error' && (d.ruleId === 'xml-malformed' || d.ruleId === 'xml-entity-expansion' || d.ruleId === 'xml-external-dtd'))?.span;
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
  if (root.namespace && !(root.namespace in NAMESPACES)) diagnostics.push(unknownNamespace(root.namespace, root.qname, lines.span(root.span.offset, root.contentStart)));
  for (const el of root.children) {
    if (el.name.includes(':')) diagnostics.push(prefixedElement(el.qname, lines.span(el.span.offset, el.contentStart)));
  }
  const r = new Reader(lines, source.text, diagnostics, properties);
  const version = rootAttribute(root.attributes, 'version', properties);
  const webXml: WebXml = {
    file,
    root: root.name as WebXml['root'],
    generation: generationOf(root.namespace, doc.doctype?.value ?? null, version?.value ?? null),
    namespace: root.namespace || null,
    version,
    metadataComplete: rootAttribute(root.attributes, 'metadata-complete', properties),
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
  for (const el of root.children) readElement(el, r, webXml);
  return { webXml: compact(webXml), source, diagnostics };
}
