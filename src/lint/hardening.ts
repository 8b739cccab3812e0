import type {
  CatalinaBase,
  ConfigElement,
  ConnectorDef,
  ContextDef,
  LoadedContext,
  LoadedHost,
  Located,
  Span,
} from '../model/index.js';

/** Tomcat reads boolean attributes with Boolean.parseBoolean after trimming: only "true", in any case, is true. */
export function isTrue(a: Located<string> | undefined): boolean {
  return a !== undefined && a.value.trim().toLowerCase() === 'true';
}

export function isFalse(a: Located<string> | undefined): boolean {
  return a !== undefined && a.value.trim().toLowerCase() !== 'true';
}

/** The `<Tag` that opens an element: where a finding about a missing attribute points. */
export function startTag(span: Span, tag: string): Span {
  const n = tag.length + 1;
  return { ...span, endLine: span.line, endColumn: span.column + n, endOffset: span.offset + n };
}

/** The last segment of a class name (`org.apache.catalina.valves.AccessLogValve` -> `AccessLogValve`). */
export function simpleName(el: ConfigElement): string {
  const c = el.className?.value.trim() ?? '';
  return c.slice(c.lastIndexOf('.') + 1);
}

export interface Connector {
  def: ConnectorDef;
  /** AJP or HTTP, from `protocol` as Tomcat's Connector reads it. */
  kind: 'ajp' | 'http';
  /** SSLEnabled="true": Tomcat 10.1 then forces secure=true and scheme=https. */
  tls: boolean;
}

/** Every Connector of server.xml. */
export function connectors(base: CatalinaBase): Connector[] {
  const out: Connector[] = [];
  for (const s of base.serverXml?.services ?? []) {
    for (const def of s.connectors) {
      const protocol = def.attributes['protocol']?.value.trim() ?? 'HTTP/1.1';
      const kind = /^AJP\/1\.3$/i.test(protocol) || /\.ajp\.|Ajp/.test(protocol) ? 'ajp' : 'http';
      out.push({ def, kind, tls: isTrue(def.attributes['SSLEnabled']) });
    }
  }
  return out;
}

/** `address` values that listen on every interface (and absent, for HTTP: Tomcat then binds all). */
export function bindsAll(c: Connector): boolean {
  const a = c.def.attributes['address']?.value.trim();
  // AJP listens on the loopback address unless told otherwise (Tomcat 9.0.31 and later).
  if (a === undefined || a === '') return c.kind === 'http';
  return a === '0.0.0.0' || a === '::' || a === '[::]' || a === '*' || a === '0:0:0:0:0:0:0:0';
}

/** Whether an explicit address is a loopback one (or AJP's default, which is). */
export function isLoopback(c: Connector): boolean {
  const a = c.def.attributes['address']?.value.trim().toLowerCase();
  if (a === undefined || a === '') return c.kind === 'ajp';
  return a === 'localhost' || a.startsWith('127.') || a === '::1' || a === '[::1]' || a === '0:0:0:0:0:0:0:1';
}

/** A context definition and where it applies: conf/context.xml and context.xml.default reach many contexts. */
export interface ContextSite {
  def: ContextDef;
  scope: 'global' | 'host-default' | 'context';
  /** The contexts it configures (one, or every context of the host or base that was found). */
  contexts: LoadedContext[];
  host: LoadedHost | null;
}

// Built once per base: several rules walk the same definitions.
const sites = new WeakMap<CatalinaBase, ContextSite[]>();

/** Every <Context> definition of the base: conf/context.xml, each host's context.xml.default, each context's own. */
export function contextSites(base: CatalinaBase): ContextSite[] {
  const known = sites.get(base);
  if (known) return known;
  const out: ContextSite[] = [];
  sites.set(base, out);
  const all = base.hosts.flatMap((h) => h.contexts);
  if (base.contextXml) out.push({ def: base.contextXml, scope: 'global', contexts: all, host: null });
  for (const h of base.hosts) {
    if (h.contextDefault) out.push({ def: h.contextDefault, scope: 'host-default', contexts: h.contexts, host: h });
    for (const c of h.contexts)
      if (c.contextDef) out.push({ def: c.contextDef, scope: 'context', contexts: [c], host: h });
  }
  return out;
}

/** How a finding names where a context definition applies. */
export function siteName(site: ContextSite): string {
  if (site.scope === 'global') return 'conf/context.xml (every application)';
  if (site.scope === 'host-default')
    return `context.xml.default of host "${site.host?.name}" (every application of the host)`;
  const c = site.contexts[0]!;
  return `the context ${c.path === '' ? '/ (ROOT)' : c.path}`;
}

/**
 * The <Context> definitions a context is configured from, in the order Tomcat applies them: conf/context.xml,
 * the host's context.xml.default, then its own (a server.xml <Context> is configured first and the defaults
 * after it; override="true" skips the defaults).
 */
export function contextChain(base: CatalinaBase, host: LoadedHost, context: LoadedContext): ContextDef[] {
  const own = context.contextDef;
  const defaults = [base.contextXml, host.contextDefault].filter((d): d is ContextDef => !!d);
  if (!own) return defaults;
  if (isTrue(own.attributes['override'])) return [own];
  return context.source === 'server-xml' ? [own, ...defaults] : [...defaults, own];
}

/** The attribute a context ends up with: the last definition in Tomcat's order that sets it. */
export function contextAttribute(chain: ContextDef[], name: string): Located<string> | undefined {
  let found: Located<string> | undefined;
  for (const d of chain) found = d.attributes[name] ?? found;
  return found;
}

/** Every element (children included) of a context chain with this tag. */
export function contextElements(chain: ContextDef[], tag: string): ConfigElement[] {
  const out: ConfigElement[] = [];
  for (const d of chain) for (const c of d.children ?? d.valves) if (c.tag === tag) out.push(c);
  return out;
}

/** The Engine of the first Service that has one (the one whose hosts the loader reads). */
export function engineOf(base: CatalinaBase) {
  return base.serverXml?.services.find((s) => s.engine)?.engine ?? null;
}

/** Tomcat's manager or host-manager application: its servlets, or failing a web.xml, its directory name. */
export function isAdminApp(c: LoadedContext): boolean {
  const servlets = c.webXml?.servlets ?? [];
  if (servlets.some((s) => s.className?.value.trim().startsWith('org.apache.catalina.manager.'))) return true;
  const dir = c.docBase.replace(/[\\/]+$/, '');
  const name = dir.slice(Math.max(dir.lastIndexOf('/'), dir.lastIndexOf('\\')) + 1);
  return c.webXml === null && (name === 'manager' || name === 'host-manager');
}

/** Every <Valve> of the Engine, its Hosts and every context definition, in that order. */
export function allValves(base: CatalinaBase): ConfigElement[] {
  const engine = engineOf(base);
  return [
    ...(engine?.valves ?? []),
    ...(engine?.hosts.flatMap((h) => h.valves) ?? []),
    ...contextSites(base).flatMap((s) => s.def.valves),
  ];
}

/** Tomcat's host manager (its HostManagerServlet, or failing a web.xml its directory name), as against the manager. */
export function isHostManager(c: LoadedContext): boolean {
  const servlets = c.webXml?.servlets ?? [];
  if (servlets.length > 0)
    return servlets.some((s) => s.className?.value.trim().startsWith('org.apache.catalina.manager.host.'));
  return /host-manager[\\/]*$/.test(c.docBase);
}

/** Every Realm of the Engine, its Hosts and every context definition, nested ones (inside LockOutRealm, CombinedRealm) included. */
export function allRealms(base: CatalinaBase): ConfigElement[] {
  const engine = engineOf(base);
  const out: ConfigElement[] = [];
  const walk = (els: readonly ConfigElement[]): void => {
    for (const r of els) {
      if (r.tag !== 'Realm') continue;
      out.push(r);
      walk(r.children);
    }
  };
  walk(engine?.realms ?? []);
  for (const h of engine?.hosts ?? []) walk(h.realms ?? []);
  for (const s of contextSites(base)) walk(s.def.children ?? []);
  return out;
}

/** The Realms a context authenticates against: its own definitions' first, else its Host's, else the Engine's (nested ones included). */
export function realmsOf(base: CatalinaBase, host: LoadedHost, context: LoadedContext): ConfigElement[] {
  const nested = (els: readonly ConfigElement[]): ConfigElement[] =>
    els.filter((e) => e.tag === 'Realm').flatMap((r) => [r, ...nested(r.children)]);
  const own = nested(contextChain(base, host, context).flatMap((d) => d.children ?? []));
  if (own.length > 0) return own;
  const onHost = nested(host.def?.realms ?? []);
  return onHost.length > 0 ? onHost : nested(engineOf(base)?.realms ?? []);
}
