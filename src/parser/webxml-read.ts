/**
 * What both web.xml readers share: how Tomcat's digester reads the children of <web-app> into the
 * model (readElement), from an element of the positioned tree (webxml-tree.ts) or a pooled node of
 * the direct path (webxml-direct.ts).
 */
import type {
  Diagnostic,
  ErrorPage,
  FilterDef,
  FilterMapping,
  Located,
  MimeMapping,
  Param,
  SecurityConstraint,
  ServletDef,
  ServletMapping,
  Span,
  WebResourceCollection,
  WebXml,
  WebXmlGeneration,
} from '../model/index.js';
import type { LineIndex } from './lines.js';
import { resolveProperties } from './properties.js';
import { BoundedCache } from '../protocol/memo.js';

export const NAMESPACES: Record<string, WebXmlGeneration> = {
  'http://java.sun.com/xml/ns/j2ee': '2.4',
  'http://java.sun.com/xml/ns/javaee': '2.5',
  'http://xmlns.jcp.org/xml/ns/javaee': '3.1',
  'https://jakarta.ee/xml/ns/jakartaee': '5.0',
};

const VERSIONS = new Set(['2.2', '2.3', '2.4', '2.5', '3.0', '3.1', '4.0', '5.0', '6.0', '6.1']);

/**
 * What the descriptor reader needs of an element: an XmlElement of the tree,
 * or a Node of the direct path (parseDirect), which computes text and span on demand.
 */
export interface Element {
  readonly name: string;
  readonly qname: string;
  readonly children: readonly Element[];
  readonly text: string;
  readonly span: Span;
  readonly contentStart: number;
  readonly contentEnd: number;
  /** How many of `children` are its children (a pooled node reuses its array); all of them when absent. */
  readonly childCount?: number;
  /** Whether the text is the whole content in one piece (then sliced from the source as located). */
  isWholeContent?(): boolean;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** How many of `el.children` are its children: all of an XmlElement's, the first childCount of a Node's (its array is reused). */
function childCount(el: Element): number {
  return el.childCount ?? el.children.length;
}

/**
 * A copy of a filled array with no spare room. The model lives as long as the
 * base: an array grown by push keeps room for 17 entries (152 bytes) where
 * most hold one or two, and that was an eighth of what loadBase kept per app.
 */
export function exact<T>(a: T[]): T[] {
  return a.length === 0 ? a : a.slice();
}

/** The model's lists without spare room (see exact). */
export function compact(w: WebXml): WebXml {
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
const NAME_ELEMENTS = new Set([
  'filter-name',
  'filter-class',
  'param-name',
  'servlet-name',
  'servlet-class',
  'url-pattern',
  'dispatcher',
  'async-supported',
]);

/** Canonical copies of name values, bounded (a base of unusual names just interns less). */
const MAX_INTERNED_LENGTH = 128;
const INTERNED = new BoundedCache<string, string>(4096, MAX_INTERNED_LENGTH);

/**
 * One flat copy per distinct name: equal names are then the same string, which V8 compares and
 * hashes at once, where two slices of two files' text are compared character by character through
 * its slow path. A copy (not the slice itself) so the table never keeps a file's text alive.
 */
function intern(value: string): string {
  if (value.length > MAX_INTERNED_LENGTH) return value;
  const known = INTERNED.get(value);
  if (known !== undefined) return known;
  // A slice shorter than 13 characters is already a copy; JSON.parse makes a flat one of a longer slice.
  const copy = value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
  INTERNED.set(copy, copy);
  return copy;
}

/** Reads the children of an element that Tomcat's digester reads, with their text located. */
export class Reader {
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
    if (el.isWholeContent?.() === true) {
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

/** What a descriptor's root says about it; newWebXml adds the empty lists the children fill. */
export type WebXmlHead = Pick<
  WebXml,
  'file' | 'root' | 'generation' | 'namespace' | 'version' | 'metadataComplete' | 'span' | 'doctype'
>;

/** The model of a descriptor before its children are read: one literal for both readers, so the model has one shape. */
export function newWebXml(head: WebXmlHead): WebXml {
  return {
    file: head.file,
    root: head.root,
    generation: head.generation,
    namespace: head.namespace,
    version: head.version,
    metadataComplete: head.metadataComplete,
    span: head.span,
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
    doctype: head.doctype,
  };
}

export function generationOf(namespace: string, doctype: string | null, version: string | null): WebXmlGeneration {
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
export function readElement(el: Element, r: Reader, webXml: WebXml): void {
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
      if (cookie)
        webXml.sessionCookieConfig = {
          httpOnly: r.child(cookie, 'http-only'),
          secure: r.child(cookie, 'secure'),
          span: cookie.span,
        };
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
      collections.push({
        urlPatterns: r.all(c, 'url-pattern'),
        httpMethods: r.all(c, 'http-method'),
        httpMethodOmissions: r.all(c, 'http-method-omission'),
        span: c.span,
      });
    } else if (c.name === 'auth-constraint') {
      // Several <auth-constraint>s are read as one list of roles, as the digester adds each role to the one constraint.
      authRoles = [...(authRoles ?? []), ...r.all(c, 'role-name')];
    } else if (c.name === 'user-data-constraint') {
      transportGuarantee = r.child(c, 'transport-guarantee') ?? transportGuarantee;
    }
  }
  return { collections, authRoles, transportGuarantee, span: el.span };
}

export function unknownNamespace(namespace: string, qname: string, span: Span): Diagnostic {
  return {
    ruleId: 'xml-unknown-namespace',
    severity: 'warning',
    message: `Unknown namespace "${namespace}" on <${qname}>. Tomcat still reads the elements (it matches names, not namespaces: observed on Tomcat 10.1.60), but schema validation (xmlValidation="true") and XML editors reject the file. Use the j2ee, javaee, xmlns.jcp.org or jakarta.ee namespace of the descriptor's version.`,
    span,
  };
}

export function prefixedElement(qname: string, span: Span): Diagnostic {
  return {
    ruleId: 'xml-unknown-namespace',
    severity: 'error',
    message: `Tomcat ignores <${qname}>: it reads descriptors without namespace processing (xmlNamespaceAware is false by default) and matches element names as written (observed on Tomcat 10.1.60). Drop the prefix, or set xmlNamespaceAware="true" on the <Context>.`,
    span,
  };
}
