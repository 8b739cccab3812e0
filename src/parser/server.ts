import type {
  Attributes,
  ConfigElement,
  ConnectorDef,
  ContextDef,
  Diagnostic,
  EngineDef,
  HostDef,
  Located,
  RoleDef,
  ServerXml,
  ServiceDef,
  SourceFile,
  Span,
  TomcatUsers,
  UserDef,
} from '../model/index.js';
import type { LineIndex } from './lines.js';
import { resolveProperties, unresolvedDiagnostics } from './properties.js';
import { toSource } from './source.js';
import { elementText, parseXmlTree, type XmlElement } from './xml.js';

class ElementReader {
  constructor(
    readonly lines: LineIndex,
    readonly raw: string,
    private readonly properties: Record<string, string> | null,
    readonly diagnostics: Diagnostic[],
  ) {}

  /** Each element's attributes are read once: the generic tree and the typed views share them (and their diagnostics). */
  private readonly read = new WeakMap<XmlElement, Attributes>();

  attributes(el: XmlElement): Attributes {
    const known = this.read.get(el);
    if (known) return known;
    const out: Attributes = {};
    this.read.set(el, out);
    for (const a of el.attributes) {
      if (a.qname.startsWith('xmlns') || a.qname.includes(':')) continue;
      let value = a.value;
      if (this.properties && value.includes('${')) {
        const r = resolveProperties(value, this.properties);
        value = r.value;
        this.diagnostics.push(...unresolvedDiagnostics(r.unresolved, a.valueSpan));
      }
      out[a.name] = { value, span: a.valueSpan };
    }
    return out;
  }

  private readonly elements = new WeakMap<XmlElement, ConfigElement>();

  /** The element as written, built once per element (the typed views and the whole tree share the objects). */
  generic(el: XmlElement): ConfigElement {
    const known = this.elements.get(el);
    if (known) return known;
    const attributes = this.attributes(el);
    const names: Record<string, Span> = {};
    for (const a of el.attributes) if (a.name in attributes) names[a.name] = a.nameSpan;
    const out: ConfigElement = {
      tag: el.name,
      className: attributes['className'] ?? null,
      attributes,
      children: el.children.map((c) => this.generic(c)),
      span: el.span,
      names,
    };
    this.elements.set(el, out);
    return out;
  }

  context(el: XmlElement, file: string): ContextDef {
    const attributes = this.attributes(el);
    return {
      file,
      path: attributes['path'] ?? null,
      docBase: attributes['docBase'] ?? null,
      attributes,
      valves: el.children.filter((c) => c.name === 'Valve').map((c) => this.generic(c)),
      children: el.children.map((c) => this.generic(c)),
      span: el.span,
      element: this.generic(el),
    };
  }

  host(el: XmlElement, file: string): HostDef | null {
    const attributes = this.attributes(el);
    const name = attributes['name'];
    if (!name) {
      this.diagnostics.push({
        ruleId: 'server-missing-attribute',
        severity: 'error',
        message: '<Host> has no name attribute: Tomcat cannot route requests to it.',
        span: this.lines.span(el.span.offset, el.contentStart),
      });
      return null;
    }
    const aliases: Located<string>[] = [];
    for (const c of el.children) if (c.name === 'Alias') aliases.push(elementText(c, this.lines, this.raw));
    return {
      name,
      appBase: attributes['appBase'] ?? null,
      aliases,
      attributes,
      contexts: el.children.filter((c) => c.name === 'Context').map((c) => this.context(c, file)),
      valves: el.children.filter((c) => c.name === 'Valve').map((c) => this.generic(c)),
      listeners: el.children.filter((c) => c.name === 'Listener').map((c) => this.generic(c)),
      realms: el.children.filter((c) => c.name === 'Realm').map((c) => this.generic(c)),
      span: el.span,
    };
  }

  engine(el: XmlElement, file: string): EngineDef {
    const attributes = this.attributes(el);
    const hosts: HostDef[] = [];
    for (const c of el.children) {
      if (c.name !== 'Host') continue;
      const h = this.host(c, file);
      if (h) hosts.push(h);
    }
    return {
      name: attributes['name'] ?? null,
      defaultHost: attributes['defaultHost'] ?? null,
      attributes,
      hosts,
      realms: el.children.filter((c) => c.name === 'Realm').map((c) => this.generic(c)),
      valves: el.children.filter((c) => c.name === 'Valve').map((c) => this.generic(c)),
      span: el.span,
    };
  }
}

function wrongRoot(el: XmlElement, expected: string, lines: LineIndex): Diagnostic {
  return {
    ruleId: 'xml-wrong-root',
    severity: 'error',
    message: `Expected a <${expected}> root element, found <${el.qname}>.`,
    span: lines.span(el.span.offset, el.contentStart),
  };
}

/** Parses conf/server.xml, resolving `${...}` references in attribute values. */
export function parseServerXml(
  input: string | Uint8Array,
  file: string,
  properties: Record<string, string>,
): { serverXml: ServerXml | null; source: SourceFile; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = toSource(input, file);
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  const root = doc.root;
  if (!root) return { serverXml: null, source, diagnostics };
  if (root.name !== 'Server') {
    diagnostics.push(wrongRoot(root, 'Server', doc.lines));
    return { serverXml: null, source, diagnostics };
  }
  const r = new ElementReader(doc.lines, source.text, properties, diagnostics);
  const services: ServiceDef[] = [];
  for (const s of root.children) {
    if (s.name !== 'Service') continue;
    const attributes = r.attributes(s);
    const connectors: ConnectorDef[] = s.children
      .filter((c) => c.name === 'Connector')
      .map((c) => ({ attributes: r.attributes(c), children: c.children.map((x) => r.generic(x)), span: c.span }));
    const engineEl = s.children.find((c) => c.name === 'Engine');
    services.push({
      name: attributes['name'] ?? null,
      connectors,
      engine: engineEl ? r.engine(engineEl, file) : null,
      span: s.span,
    });
  }
  const serverXml: ServerXml = {
    file,
    attributes: r.attributes(root),
    listeners: root.children.filter((c) => c.name === 'Listener').map((c) => r.generic(c)),
    globalResources: root.children
      .filter((c) => c.name === 'GlobalNamingResources')
      .flatMap((c) => c.children.map((x) => r.generic(x))),
    services,
    span: root.span,
    element: r.generic(root),
  };
  return { serverXml, source, diagnostics };
}

/** Parses a context file (conf/<Engine>/<Host>/name.xml or META-INF/context.xml). */
export function parseContextXml(
  input: string | Uint8Array,
  file: string,
  properties: Record<string, string>,
): { context: ContextDef | null; source: SourceFile; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = toSource(input, file);
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  const root = doc.root;
  if (!root) return { context: null, source, diagnostics };
  if (root.name !== 'Context') {
    diagnostics.push(wrongRoot(root, 'Context', doc.lines));
    return { context: null, source, diagnostics };
  }
  const r = new ElementReader(doc.lines, source.text, properties, diagnostics);
  return { context: r.context(root, file), source, diagnostics };
}

/**
 * Parses conf/tomcat-users.xml; roles are split from the comma-separated list, each with its own span.
 * With `properties`, `${name}` in attribute values is replaced as Tomcat's digester does.
 */
export function parseTomcatUsers(
  input: string | Uint8Array,
  file: string,
  properties?: Record<string, string>,
): { users: TomcatUsers | null; source: SourceFile; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = toSource(input, file);
  const { doc, diagnostics: xmlDiags } = parseXmlTree(source);
  diagnostics.push(...xmlDiags);
  source.comments = doc.comments;
  const root = doc.root;
  if (!root) return { users: null, source, diagnostics };
  if (root.name !== 'tomcat-users') {
    diagnostics.push(wrongRoot(root, 'tomcat-users', doc.lines));
    return { users: null, source, diagnostics };
  }
  const r = new ElementReader(doc.lines, source.text, properties ?? null, diagnostics);
  const users: UserDef[] = [];
  const roles: RoleDef[] = [];
  for (const el of root.children) {
    const attributes = r.attributes(el);
    if (el.name === 'role') {
      const rolename = attributes['rolename'];
      if (rolename) roles.push({ rolename, span: el.span });
    } else if (el.name === 'user') {
      const username = attributes['username'] ?? attributes['name'];
      if (!username) {
        diagnostics.push({
          ruleId: 'users-missing-attribute',
          severity: 'warning',
          message: '<user> has no username attribute: Tomcat ignores it.',
          span: doc.lines.span(el.span.offset, el.contentStart),
        });
        continue;
      }
      users.push({
        username,
        password: attributes['password'] ?? null,
        roles: splitRoles(attributes['roles'], doc.lines),
        span: el.span,
      });
    }
  }
  return { users: { file, users, roles, span: root.span }, source, diagnostics };
}

function splitRoles(attr: Located<string> | undefined, lines: LineIndex): Located<string>[] {
  if (!attr) return [];
  const out: Located<string>[] = [];
  const re = /[^,\s][^,]*/g;
  let m: RegExpExecArray | null;
  // Offsets inside the attribute are exact only when the raw value has no entity references.
  const exact = attr.span.endOffset - attr.span.offset === attr.value.length;
  while ((m = re.exec(attr.value))) {
    const role = m[0].trimEnd();
    const start = attr.span.offset + m.index;
    out.push({ value: role, span: exact ? lines.span(start, start + role.length) : attr.span });
  }
  return out;
}
