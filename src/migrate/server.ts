/**
 * server.xml and context files (conf/context.xml, conf/<Engine>/<Host>/*.xml, META-INF/context.xml):
 * the Tomcat 8.5/9 forms Tomcat 10.1 refuses or ignores, rewritten into the 10.1 form.
 */
import { catalogue } from '../catalogue/index.js';
import type { XmlAttribute, XmlElement } from '../parser/index.js';
import {
  APR_ONLY_CONNECTOR,
  CONNECTOR_TLS,
  CONTEXT_TO_RESOURCES,
  MANUAL_CLASSES,
  PEM_CERTIFICATE,
  PROTOCOL_REPLACEMENTS,
  REMOVED_ATTRIBUTES,
  REMOVED_LISTENERS,
  SSLHOSTCONFIG_CERTIFICATE,
} from './changes.js';
import {
  appendChildrenEdits,
  attributeSource,
  childIndent,
  indentOf,
  lineEnding,
  removeElementEdit,
  renderElement,
  tagEdits,
  type Edit,
  type NewElement,
  type TagChange,
} from './edit.js';
import type { Step } from './types.js';

const attr = (el: XmlElement, name: string): XmlAttribute | undefined => el.attributes.find((a) => a.qname === name);

/** Collects the edits of one file, one TagChange per start tag (so several rules can touch one tag). */
class FileEdits {
  readonly edits: Edit[] = [];
  readonly steps: Step[] = [];
  private readonly tags = new Map<XmlElement, { remove: Set<string>; set: Map<string, string>; add: string[] }>();

  constructor(readonly text: string) {}

  tag(el: XmlElement): { remove: Set<string>; set: Map<string, string>; add: string[] } {
    let t = this.tags.get(el);
    if (!t) this.tags.set(el, (t = { remove: new Set(), set: new Map(), add: [] }));
    return t;
  }

  step(at: XmlElement | XmlAttribute, message: string, manual = false): void {
    const span = 'nameSpan' in at ? at.nameSpan : at.span;
    this.steps.push({ span, message, manual });
  }

  /** Something worth knowing about a rewrite, with nothing to do. */
  note(at: XmlElement, message: string): void {
    this.steps.push({ span: at.span, message, manual: false, note: true });
  }

  /** Every edit, the start tags' last (they are built from what the rules asked of each tag). */
  all(): Edit[] {
    const out = [...this.edits];
    for (const [el, t] of this.tags) out.push(...tagEdits(el, this.text, t satisfies TagChange));
    return out;
  }
}

/** What the server.xml rewrite needs to know of the whole file before it starts. */
interface ServerFacts {
  /** It has useAprConnector="true": Tomcat 9 ran "HTTP/1.1" and "AJP/1.3" connectors on APR. */
  aprDefault: boolean;
}

function serverFacts(root: XmlElement): ServerFacts {
  const facts: ServerFacts = { aprDefault: false };
  for (const l of root.children) {
    if (l.name !== 'Listener' || attr(l, 'className')?.value.trim() !== 'org.apache.catalina.core.AprLifecycleListener')
      continue;
    if (attr(l, 'useAprConnector')?.value.trim().toLowerCase() === 'true') facts.aprDefault = true;
  }
  return facts;
}

/** Rewrites a parsed server.xml or context file; returns its edits and the steps taken or left to the user. */
export function migrateServerTree(root: XmlElement, text: string): { edits: Edit[]; steps: Step[] } {
  const f = new FileEdits(text);
  const facts = root.name === 'Server' ? serverFacts(root) : { aprDefault: false };
  const walk = (el: XmlElement, parent: XmlElement | null, pattern: string): void => {
    const className = attr(el, 'className')?.value.trim();
    if (el.name === 'Listener' && className && REMOVED_LISTENERS[className]) {
      f.edits.push(removeElementEdit(text, el));
      f.step(
        el,
        `Removed the ${className} listener: ${REMOVED_LISTENERS[className]}; Tomcat 10.1 cannot load it and does not start.`,
      );
      return;
    }
    if (className && MANUAL_CLASSES[className]) f.step(el, `${MANUAL_CLASSES[className]}.`, true);
    removeAttributes(f, el, REMOVED_ATTRIBUTES[el.name] ?? []);
    if (el.name === 'Listener' && className) removeAttributes(f, el, REMOVED_ATTRIBUTES[className] ?? []);
    if (el.name === 'Connector') migrateConnector(f, el, parent, facts);
    if (el.name === 'SSLHostConfig') nestCertificate(f, el, parent);
    if (el.name === 'Context') moveToResources(f, el, parent);
    dropRemovedIn101(f, el, pattern);
    for (const c of el.children) walk(c, el, `${pattern}/${c.name}`);
  };
  walk(root, null, root.name);
  return { edits: f.all(), steps: f.steps };
}

function removeAttributes(f: FileEdits, el: XmlElement, removed: readonly { name: string; why: string }[]): void {
  for (const r of removed) {
    const a = attr(el, r.name);
    if (!a) continue;
    f.tag(el).remove.add(a.qname);
    f.step(a, `Removed ${r.name} from <${el.name}>: ${r.why}; Tomcat 10.1 ignores it with a warning.`);
  }
}

const PROTOCOL_WORDS = new Set(['HTTP/1.1', 'AJP/1.3']);

function migrateConnector(f: FileEdits, el: XmlElement, parent: XmlElement | null, facts: ServerFacts): void {
  const protocol = attr(el, 'protocol');
  const protocolValue = protocol?.value.trim() ?? 'HTTP/1.1';
  const replacement = PROTOCOL_REPLACEMENTS[protocolValue];
  const wasApr = protocolValue.includes('Apr') || (facts.aprDefault && PROTOCOL_WORDS.has(protocolValue));
  if (protocol && replacement) {
    f.tag(el).set.set('protocol', replacement);
    f.step(
      protocol,
      `Changed protocol ${protocolValue} to ${replacement}: Tomcat 10.1 has no such connector and does not start the server.`,
    );
  }
  if (wasApr) {
    for (const a of el.attributes) {
      if (!APR_ONLY_CONNECTOR.has(a.qname)) continue;
      f.tag(el).remove.add(a.qname);
      f.step(a, `Removed ${a.qname}: only the APR connector had it; Tomcat 10.1 would ignore it with a warning.`);
    }
  }

  const legacy = el.attributes.filter((a) => Object.hasOwn(CONNECTOR_TLS, a.qname));
  const existingSsl = el.children.filter((c) => c.name === 'SSLHostConfig');
  const pem =
    legacy.some((a) => PEM_CERTIFICATE.has(a.qname)) ||
    existingSsl.some((s) => [s, ...s.children].some((c) => c.attributes.some((a) => PEM_CERTIFICATE.has(a.qname))));
  const sslEnabled = attr(el, 'SSLEnabled')?.value.trim().toLowerCase() === 'true';
  if (wasApr && pem && sslEnabled && !attr(el, 'sslImplementationName')) {
    // Not sslImplementationName="...OpenSSLImplementation": Tomcat 10.1.60 refuses the connector with it
    // when the installed tomcat-native is older than 1.3.9 (Debian 12 ships 1.2.35), while without it NIO
    // takes OpenSSL when the AprLifecycleListener loaded a tomcat-native 10.1 accepts and JSSE otherwise.
    f.note(
      el,
      'The APR connector used OpenSSL. The NIO connector uses OpenSSL too when the AprLifecycleListener loads a tomcat-native Tomcat 10.1 accepts (1.3.9 or later, or 2.x), and JSSE otherwise; both read these PEM files.',
    );
  }
  if (!legacy.length) return;

  const hostName = attr(el, 'defaultSSLHostConfigName')?.value ?? '_default_';
  const clash = existingSsl.find(
    (s) => (attr(s, 'hostName')?.value ?? '_default_').toLowerCase() === hostName.toLowerCase(),
  );
  if (clash) {
    f.step(
      clash,
      `This connector has TLS attributes (${legacy.map((a) => a.qname).join(', ')}) and an <SSLHostConfig> for ${hostName}: Tomcat 9 refuses that pair too. Move the attributes into this element by hand.`,
      true,
    );
    return;
  }
  const hostAttrs: string[] = hostName === '_default_' ? [] : [`hostName="${hostName}"`];
  const certAttrs: string[] = [];
  // Tomcat 9 set the attributes in document order, so of two that name one property (SSLProtocol and
  // sslEnabledProtocols both set protocols) the later one won: only it is moved.
  const last = new Map<string, XmlAttribute>();
  for (const a of legacy) last.set(CONNECTOR_TLS[a.qname]!.to + '.' + CONNECTOR_TLS[a.qname]!.name, a);
  for (const a of legacy) {
    const move = CONNECTOR_TLS[a.qname]!;
    f.tag(el).remove.add(a.qname);
    const winner = last.get(move.to + '.' + move.name)!;
    if (winner !== a) {
      f.step(
        a,
        `Removed ${a.qname}: ${winner.qname}, later on this <Connector>, sets the same ${move.to} property (${move.name}), and Tomcat 9 kept the later one.`,
      );
      continue;
    }
    const source = attributeSource(f.text, a);
    (move.to === 'Certificate' ? certAttrs : hostAttrs).push(move.name + source.slice(a.qname.length));
  }
  const certificate: NewElement[] =
    certAttrs.length || sslEnabled ? [{ name: 'Certificate', attributes: certAttrs, children: [] }] : [];
  const sslHost: NewElement = { name: 'SSLHostConfig', attributes: hostAttrs, children: certificate };
  const indent = childIndent(f.text, el, parent);
  const own = indentOf(f.text, el.span.offset) ?? '';
  const step = indent.startsWith(own) && indent.length > own.length ? indent.slice(own.length) : '  ';
  f.edits.push(...appendChildrenEdits(f.text, el, renderElement(sslHost, indent, step, lineEnding(f.text)), own));
  f.step(
    legacy[0]!,
    `Moved ${legacy.map((a) => a.qname).join(', ')} into <SSLHostConfig>${certificate.length ? '/<Certificate>' : ''}: Tomcat 10.1 has no TLS attributes on <Connector>, and without an SSLHostConfig the connector does not start.`,
  );
}

/** Tomcat 9's `<SSLHostConfig certificateKeystoreFile=...>`: in 10.1 those go on a `<Certificate>`. */
function nestCertificate(f: FileEdits, el: XmlElement, parent: XmlElement | null): void {
  const moved = el.attributes.filter((a) => SSLHOSTCONFIG_CERTIFICATE.has(a.qname));
  if (!moved.length) return;
  if (el.children.some((c) => c.name === 'Certificate')) {
    f.step(
      moved[0]!,
      `${moved.map((a) => a.qname).join(', ')} on an <SSLHostConfig> that also has <Certificate> elements: move them into the right <Certificate> by hand; Tomcat 10.1 ignores them here.`,
      true,
    );
    return;
  }
  for (const a of moved) f.tag(el).remove.add(a.qname);
  const cert: NewElement = {
    name: 'Certificate',
    attributes: moved.map((a) => attributeSource(f.text, a)),
    children: [],
  };
  const indent = childIndent(f.text, el, parent);
  const own = indentOf(f.text, el.span.offset) ?? '';
  const step = indent.startsWith(own) && indent.length > own.length ? indent.slice(own.length) : '  ';
  f.edits.push(...appendChildrenEdits(f.text, el, renderElement(cert, indent, step, lineEnding(f.text)), own));
  f.step(
    moved[0]!,
    `Moved ${moved.map((a) => a.qname).join(', ')} into a <Certificate>: Tomcat 10.1's <SSLHostConfig> has no certificate attributes.`,
  );
}

/** Tomcat 7's resource cache attributes on `<Context>`: since 8.0 they belong on its `<Resources>`. */
function moveToResources(f: FileEdits, el: XmlElement, parent: XmlElement | null): void {
  const moved = el.attributes.filter((a) => Object.hasOwn(CONTEXT_TO_RESOURCES, a.qname));
  if (!moved.length) return;
  for (const a of moved) f.tag(el).remove.add(a.qname);
  const renamed = (a: XmlAttribute): string => {
    const source = attributeSource(f.text, a);
    return CONTEXT_TO_RESOURCES[a.qname]! + source.slice(a.qname.length);
  };
  const resources = el.children.find((c) => c.name === 'Resources');
  if (resources) {
    const kept = moved.filter((a) => !attr(resources, CONTEXT_TO_RESOURCES[a.qname]!));
    f.tag(resources).add.push(...kept.map(renamed));
  } else {
    const indent = childIndent(f.text, el, parent);
    const own = indentOf(f.text, el.span.offset) ?? '';
    const res: NewElement = { name: 'Resources', attributes: moved.map(renamed), children: [] };
    f.edits.push(...appendChildrenEdits(f.text, el, renderElement(res, indent, '  ', lineEnding(f.text)), own));
  }
  f.step(
    moved[0]!,
    `Moved ${moved.map((a) => a.qname).join(', ')} from <Context> to its <Resources>${moved.some((a) => a.qname === 'cacheTTL') ? ' (cacheTTL as cacheTtl)' : ''}: Tomcat 8.0 moved them there, and Tomcat 10.1 ignores them on <Context> with a warning.`,
  );
}

/**
 * Every other attribute Tomcat 9.0 set and 10.1 has no property for, as the catalogue of both versions'
 * jars says (src/catalogue: their digester rules and setters, IntrospectionUtils' way of setting them):
 * 10.1 logs "failed to set property" and ignores it, so it goes. Attributes the rewrites above moved or
 * removed are not looked at again; a class 10.1 cannot load at all is left to its own step.
 */
function dropRemovedIn101(f: FileEdits, el: XmlElement, pattern: string): void {
  const c9 = catalogue('9.0');
  const c10 = catalogue('10.1');
  const element = c9.element(pattern);
  if (!element?.props) return;
  const classAttr = element.classAttr;
  const className = (classAttr && attr(el, classAttr)?.value.trim()) || element.create;
  if (!className) return;
  const tag = f.tag(el);
  const connector = el.name === 'Connector' && pattern.endsWith('Service/Connector');
  const protocol = attr(el, 'protocol')?.value.trim();
  const handler9 = connector ? c9.protocolHandler(protocol) : null;
  const handler10 = connector ? c10.protocolHandler(tag.set.get('protocol') ?? protocol) : null;
  for (const a of el.attributes) {
    const name = a.qname;
    if (name === classAttr || name.includes(':') || name === 'xmlns' || tag.remove.has(name)) continue;
    if (element.exclude?.includes(name) || Object.hasOwn(CONNECTOR_TLS, name)) continue;
    const on9 = connector ? c9.connectorAttribute(handler9, name, a.value) : c9.setProperty(className, name, a.value);
    if (on9.kind !== 'set' && on9.kind !== 'generic') continue;
    const on10 = connector
      ? c10.connectorAttribute(handler10, name, a.value)
      : c10.setProperty(className, name, a.value);
    if (on10.kind !== 'unknown') continue;
    tag.remove.add(name);
    f.step(
      a,
      `Removed ${name} from <${el.name}>: Tomcat 9.0 set it, 10.1 has no such property (it logs "failed to set property" and ignores it).`,
    );
  }
}
