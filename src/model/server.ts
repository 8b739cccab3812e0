import type { Located, Span } from './span.js';

/** Attributes of an element, by name, each with its position. Property references are already resolved. */
export type Attributes = Record<string, Located<string>>;

/** Any configuration element kept generically (Listener, Valve, Realm, Resources...). */
export interface ConfigElement {
  tag: string;
  className: Located<string> | null;
  attributes: Attributes;
  children: ConfigElement[];
  span: Span;
  /** Where each attribute's name is written (for findings about the attribute itself). */
  names?: Record<string, Span>;
}

export interface ContextDef {
  /** server.xml or the context file. */
  file: string;
  path: Located<string> | null;
  docBase: Located<string> | null;
  attributes: Attributes;
  valves: ConfigElement[];
  /** Every child element (Valve, Resources, CookieProcessor, Manager, Realm...), in file order. */
  children?: ConfigElement[];
  span: Span;
  /** The whole <Context> element as written, for what reads every element and attribute (the catalogue rules). */
  element?: ConfigElement;
}

export interface HostDef {
  name: Located<string>;
  appBase: Located<string> | null;
  aliases: Located<string>[];
  attributes: Attributes;
  contexts: ContextDef[];
  valves: ConfigElement[];
  listeners: ConfigElement[];
  /** The host's own <Realm> elements. */
  realms?: ConfigElement[];
  span: Span;
}

export interface EngineDef {
  name: Located<string> | null;
  defaultHost: Located<string> | null;
  attributes: Attributes;
  hosts: HostDef[];
  realms: ConfigElement[];
  valves: ConfigElement[];
  span: Span;
}

export interface ConnectorDef {
  attributes: Attributes;
  /** SSLHostConfig, Certificate, UpgradeProtocol... */
  children: ConfigElement[];
  span: Span;
}

export interface ServiceDef {
  name: Located<string> | null;
  connectors: ConnectorDef[];
  engine: EngineDef | null;
  span: Span;
}

/** A parsed `conf/server.xml`. */
export interface ServerXml {
  file: string;
  attributes: Attributes;
  listeners: ConfigElement[];
  globalResources: ConfigElement[];
  services: ServiceDef[];
  span: Span;
  /** The whole <Server> element as written, for what reads every element and attribute (the catalogue rules). */
  element?: ConfigElement;
}

export interface UserDef {
  username: Located<string>;
  password: Located<string> | null;
  /** Roles split from the comma-separated `roles` attribute, each with its own span. */
  roles: Located<string>[];
  span: Span;
}

export interface RoleDef {
  rolename: Located<string>;
  span: Span;
}

/** A parsed `conf/tomcat-users.xml`. */
export interface TomcatUsers {
  file: string;
  users: UserDef[];
  roles: RoleDef[];
  span: Span;
}
