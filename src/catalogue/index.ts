/**
 * What each Tomcat version accepts in server.xml and context files, read from Tomcat itself
 * (scripts/TomcatCatalogue.java over the jars of Debian's tomcat10 and libtomcat9-java; the JSON files
 * here are its output, compared byte for byte by test/catalogue). Tomcat 11.0 has no jar here: it is
 * 10.1 less what Tomcat's migration notes and 10.1's own deprecation notes say 11.0 removed
 * (removed-11.0.json, docs/catalogue.md).
 *
 * The questions it answers are the ones Tomcat's digester asks while it reads a file: which class an
 * element creates (its default or its className attribute), whether that class exists on this
 * version and is the kind the parent takes, and what IntrospectionUtils.setProperty does with each
 * attribute: call a setter, fall back on a generic setProperty (a Connector's goes to its protocol
 * handler, which goes to its endpoint), or fail, which SetPropertiesRule logs as
 * "Match [pattern] failed to set property [name] to [value]" before going on without it.
 */
import data90 from './tomcat-9.0.json' with { type: 'json' };
import data101 from './tomcat-10.1.json' with { type: 'json' };
import removed110 from './removed-11.0.json' with { type: 'json' };

export type CatalogueVersion = '9.0' | '10.1' | '11.0';
export const CATALOGUE_VERSIONS: readonly CatalogueVersion[] = ['9.0', '10.1', '11.0'];

/** One digester pattern ("Server/Service/Connector", "Context/Manager"): what its rules do. */
export interface ElementData {
  /** The class it creates when no className is given; null: the className attribute is required. */
  create?: string | null;
  /** The attribute naming another class ("className"). */
  classAttr?: string;
  /** Whether a SetPropertiesRule sets its attributes (without one they are ignored without a word). */
  props?: boolean;
  /** Attributes the SetPropertiesRule leaves to another rule (Connector's protocol and executor). */
  exclude?: string[];
  /** The type the parent's add method takes: a className must name a class of that type. */
  type?: string;
  add?: string;
  /** Read for its text (Alias, WatchedResource), not its attributes. */
  body?: boolean;
  /** The other rules on the pattern, by simple name (ListenerCreateRule, ConnectorCreateRule...). */
  rules?: string[];
}

/** One class: its own public setters (inherited ones are its superclass's), by the name after "set". */
export interface ClassData {
  super?: string;
  abstract?: boolean;
  /** @Deprecated on the class. */
  deprecatedClass?: boolean;
  /** Setters whose every overload is @Deprecated. */
  deprecated?: string[];
  /** "string", "int", "long", "boolean", "address", "other", or "int|long"-style unions of overloads. */
  props: Record<string, string>;
  /** A generic setProperty(name, value), and whether it answers (boolean) or accepts everything (void). */
  setProperty?: 'boolean' | 'void';
}

export interface CatalogueData {
  version: string;
  fakeAttributes: Record<string, string[]>;
  elements: Record<string, ElementData>;
  /** Per type a parent's add method takes, the public concrete classes of the jars of that type. */
  kinds: Record<string, string[]>;
  /** Per protocol handler, the endpoint its setProperty forwards to. */
  endpoints: Record<string, string>;
  /** The protocol names a Connector maps to a handler ("HTTP/1.1"). */
  protocols: Record<string, string>;
  classes: Record<string, ClassData>;
}

interface Removals {
  source: string;
  classes: Record<string, string[]>;
  attributes: Record<string, string[]>;
}

const PROTOCOL_HANDLER = 'org.apache.coyote.ProtocolHandler';
const CONNECTOR = 'org.apache.catalina.connector.Connector';
const SOCKET_PROPERTIES = 'org.apache.tomcat.util.net.SocketProperties';

/** What IntrospectionUtils.setProperty makes of one attribute. */
export type SetResult =
  /** A setter took it. */
  | { kind: 'set'; type: string }
  /** The digester skips it (className, or a fake attribute such as Context's source). */
  | { kind: 'skipped' }
  /** A generic setProperty took it (a Resource's factory parameters, ErrorReportValve's errorCode.404). */
  | { kind: 'generic' }
  /** No setter, and no generic setProperty that takes it: "failed to set property", ignored. */
  | { kind: 'unknown' }
  /** A setter of that name exists but cannot convert the value (an int setter given "8k"): ignored the same way. */
  | { kind: 'bad-value'; type: string }
  /** The class is not in the catalogue (a third-party class): nothing can be said. */
  | { kind: 'unknown-class' };

/** Java's Integer.valueOf / Long.valueOf: an optional sign and decimal digits, in range; no spaces. */
function parsesAs(type: 'int' | 'long', value: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(value)) return false;
  const n = BigInt(value);
  return type === 'int' ? n >= -(2n ** 31n) && n < 2n ** 31n : n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** IntrospectionUtils.capitalize: the first character upper-cased, the rest as written. */
export function setterName(attribute: string): string {
  return attribute.charAt(0).toUpperCase() + attribute.slice(1);
}

export class Catalogue {
  readonly version: CatalogueVersion;
  private readonly flat = new Map<string, Map<string, string>>();
  private readonly kindOfClass = new Map<string, string[]>();

  constructor(
    version: CatalogueVersion,
    readonly data: CatalogueData,
  ) {
    this.version = version;
    for (const [type, list] of Object.entries(data.kinds))
      for (const c of list) {
        const kinds = this.kindOfClass.get(c) ?? [];
        kinds.push(type);
        this.kindOfClass.set(c, kinds);
      }
  }

  /** Tomcat's full version the catalogue was read from ("10.1.60.0"; 11.0: derived from 10.1's). */
  get tomcatVersion(): string {
    return this.data.version;
  }

  element(pattern: string): ElementData | null {
    return this.data.elements[pattern] ?? null;
  }

  /** Every pattern the digesters know. */
  patterns(): string[] {
    return Object.keys(this.data.elements);
  }

  /** The classes an element may name: the public concrete classes of its parent's type. */
  classesOf(type: string): readonly string[] {
    return this.data.kinds[type] ?? [];
  }

  /** The types (of the parents' add methods) a class is one of; empty when the version has no such class. */
  kindsOf(className: string): readonly string[] {
    return this.kindOfClass.get(className) ?? [];
  }

  /** Whether the version has the class among the ones configuration can name. */
  hasClass(className: string): boolean {
    return this.kindOfClass.has(className) || className in this.data.classes;
  }

  /** The class a Connector's protocol attribute makes (absent: HTTP/1.1), or null when the version has none. */
  protocolHandler(protocol: string | undefined): string | null {
    const p = protocol ?? 'HTTP/1.1';
    const alias = this.data.protocols[p];
    if (alias) return alias;
    return this.classesOf(PROTOCOL_HANDLER).includes(p) ? p : null;
  }

  /** Every setter of a class and its superclasses, by the name after "set"; null when the class is not here. */
  properties(className: string): ReadonlyMap<string, string> | null {
    const known = this.flat.get(className);
    if (known) return known;
    if (!(className in this.data.classes)) return null;
    const out = new Map<string, string>();
    for (let c: string | undefined = className; c; c = this.data.classes[c]?.super)
      for (const [name, type] of Object.entries(this.data.classes[c]?.props ?? {}))
        if (!out.has(name)) out.set(name, type);
    this.flat.set(className, out);
    return out;
  }

  /** The generic setProperty a class inherits, if any. */
  private genericOf(className: string): { owner: string; returns: 'boolean' | 'void' } | null {
    for (let c: string | undefined = className; c; c = this.data.classes[c]?.super) {
      const g = this.data.classes[c]?.setProperty;
      if (g) return { owner: c, returns: g };
    }
    return null;
  }

  /** Whether the digester skips the attribute on an object of this class before setting anything. */
  private isFake(className: string, attribute: string): boolean {
    if (this.data.fakeAttributes['java.lang.Object']?.includes(attribute)) return true;
    for (let c: string | undefined = className; c; c = this.data.classes[c]?.super)
      if (this.data.fakeAttributes[c]?.includes(attribute)) return true;
    return false;
  }

  /**
   * IntrospectionUtils.setProperty(object, name, value, invokeSetProperty): a setX(String), else the first
   * setX(int|long|boolean|InetAddress|...) that converts the value, else the generic setProperty.
   * `protocol`: for a Connector, the handler class its setProperty forwards to.
   */
  setProperty(className: string, attribute: string, value: string, protocol?: string | null): SetResult {
    if (this.isFake(className, attribute)) return { kind: 'skipped' };
    return this.introspect(className, attribute, value, true, protocol ?? null);
  }

  private introspect(
    className: string,
    attribute: string,
    value: string,
    invokeSetProperty: boolean,
    protocol: string | null,
  ): SetResult {
    const props = this.properties(className);
    if (!props) return { kind: 'unknown-class' };
    const type = props.get(setterName(attribute));
    let badType: string | null = null;
    if (type !== undefined) {
      const types = type.split('|');
      if (types.includes('string')) return { kind: 'set', type };
      for (const t of types) {
        if ((t === 'int' || t === 'long') && !parsesAs(t, value)) continue;
        // boolean: Boolean.valueOf never fails; InetAddress and other types: Tomcat calls the setter.
        return { kind: 'set', type: t };
      }
      badType = type;
    }
    const generic = invokeSetProperty ? this.genericOf(className) : null;
    if (generic) {
      const r = this.genericTakes(generic.owner, generic.returns, attribute, value, protocol);
      if (r.kind === 'set' || r.kind === 'generic') return { kind: 'generic' };
      if (r.kind === 'bad-value' && !badType) badType = r.type;
    }
    return badType ? { kind: 'bad-value', type: badType } : { kind: 'unknown' };
  }

  /** What the generic setProperty of Tomcat's own classes does with it (each read from its code). */
  private genericTakes(
    owner: string,
    returns: 'boolean' | 'void',
    attribute: string,
    value: string,
    protocol: string | null,
  ): SetResult {
    if (returns === 'void') return { kind: 'generic' };
    switch (owner) {
      case CONNECTOR:
        // Connector.setProperty: IntrospectionUtils.setProperty(protocolHandler, name, value); no handler: false.
        return protocol ? this.introspect(protocol, attribute, value, true, protocol) : { kind: 'unknown' };
      case 'org.apache.coyote.AbstractProtocol': {
        // AbstractProtocol.setProperty: endpoint.setProperty, which sends "socket.x" to SocketProperties
        // and anything else to its own setters (without a generic fallback).
        const endpoint = protocol ? this.data.endpoints[protocol] : undefined;
        return endpoint ? this.endpointTakes(endpoint, attribute, value) : { kind: 'unknown' };
      }
      case 'org.apache.tomcat.util.net.AbstractEndpoint':
        return this.endpointTakes(protocol ?? '', attribute, value);
      case 'org.apache.catalina.valves.ErrorReportValve':
        // errorCode.<int> and exceptionType.<class>: error pages; anything else is refused.
        return (attribute.startsWith('errorCode.') && parsesAs('int', attribute.slice(10))) ||
          attribute.startsWith('exceptionType.')
          ? { kind: 'generic' }
          : { kind: 'unknown' };
      default:
        // A generic setProperty whose answer tollgate has not read: assume it takes the attribute.
        return { kind: 'generic' };
    }
  }

  private endpointTakes(endpoint: string, attribute: string, value: string): SetResult {
    if (attribute.startsWith('socket.'))
      return this.introspect(SOCKET_PROPERTIES, attribute.slice(7), value, true, null);
    return this.introspect(endpoint, attribute, value, false, null);
  }

  /** A Connector's attribute, as the connector's SetAllPropertiesRule sets it. */
  connectorAttribute(protocolHandler: string | null, attribute: string, value: string): SetResult {
    return this.setProperty(CONNECTOR, attribute, value, protocolHandler);
  }
}

/** 10.1's data less what 11.0 removed (removed-11.0.json), as a catalogue of its own. */
function derive(from: CatalogueData, removals: Removals, version: string): CatalogueData {
  const kinds: Record<string, string[]> = {};
  const gone = new Set(Object.values(removals.classes).flat());
  for (const [type, list] of Object.entries(from.kinds)) kinds[type] = list.filter((c) => !gone.has(c));
  const classes: Record<string, ClassData> = {};
  for (const [name, c] of Object.entries(from.classes)) {
    if (gone.has(name)) continue;
    const drop = new Set(removals.attributes[name] ?? []);
    if (drop.size === 0) classes[name] = c;
    else classes[name] = { ...c, props: Object.fromEntries(Object.entries(c.props).filter(([k]) => !drop.has(k))) };
  }
  const endpoints = Object.fromEntries(Object.entries(from.endpoints).filter(([p]) => !gone.has(p)));
  return { ...from, version, kinds, classes, endpoints };
}

const cache = new Map<CatalogueVersion, Catalogue>();

/** The catalogue of one Tomcat version. */
export function catalogue(version: CatalogueVersion): Catalogue {
  let c = cache.get(version);
  if (c) return c;
  const d90 = data90 as unknown as CatalogueData;
  const d101 = data101 as unknown as CatalogueData;
  const data =
    version === '9.0' ? d90 : version === '10.1' ? d101 : derive(d101, removed110 as unknown as Removals, '11.0');
  c = new Catalogue(version, data);
  cache.set(version, c);
  return c;
}

/** Where the 11.0 catalogue comes from (no 11.0 jar is read). */
export const REMOVED_IN_11_SOURCE: string = (removed110 as unknown as Removals).source;

/** What one version has that another does not: classes by type, and setters by class. */
export interface CatalogueDiff {
  from: CatalogueVersion;
  to: CatalogueVersion;
  /** Classes of `from` that `to` cannot load, with the type (parent's add method) they were. */
  removedClasses: { type: string; className: string }[];
  addedClasses: { type: string; className: string }[];
  /** Setters of a class both have that `to` lacks (inherited ones included). */
  removedAttributes: { className: string; attribute: string }[];
  addedAttributes: { className: string; attribute: string }[];
}

/** What changed between two versions: what `migrate` rewrites and lint explains. */
export function catalogueDiff(from: CatalogueVersion, to: CatalogueVersion): CatalogueDiff {
  const a = catalogue(from);
  const b = catalogue(to);
  const classes = (x: Catalogue, y: Catalogue) =>
    Object.entries(x.data.kinds).flatMap(([type, list]) =>
      list.filter((c) => !y.classesOf(type).includes(c)).map((className) => ({ type, className })),
    );
  const attributes = (x: Catalogue, y: Catalogue) => {
    const out: { className: string; attribute: string }[] = [];
    for (const name of Object.keys(x.data.classes).sort()) {
      const px = x.properties(name);
      const py = y.properties(name);
      if (!px || !py) continue;
      for (const attr of [...px.keys()].sort()) if (!py.has(attr)) out.push({ className: name, attribute: attr });
    }
    return out;
  };
  return {
    from,
    to,
    removedClasses: classes(a, b),
    addedClasses: classes(b, a),
    removedAttributes: attributes(a, b),
    addedAttributes: attributes(b, a),
  };
}
