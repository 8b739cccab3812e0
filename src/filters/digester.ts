/**
 * What Tomcat's digester makes of server.xml and of every context file, element by element, as the
 * catalogue of the targeted version (src/catalogue) says: the class each element creates and whether
 * that version can load it, what IntrospectionUtils does with each attribute, and the start-up checks
 * that follow from what was read (a TLS connector without the SSLHostConfig it needs, a realm without
 * a setting its start needs). Lint reports these findings and the plan refuses what they refuse: one
 * judgement for both.
 *
 * Observed on Tomcat 10.1.60 and 9.0.70 (test/conformance/catalogue.conformance.test.ts):
 * - a class that cannot be loaded stops the digester: in server.xml "Cannot start server. Server
 *   instance is not configured"; in a context file "Parse error in context.xml for [/b]" and that
 *   context does not start (conf/context.xml: every context); a Server-level <Listener optional="true">
 *   is skipped without a word (ListenerCreateRule), nowhere else;
 * - an attribute no setter takes: "Match [Server/Service/Engine/Host] failed to set property
 *   [xmlValidation] to [false]", and Tomcat goes on without it;
 * - a Connector whose protocol class is missing (Http11AprProtocol on 10.1): "Protocol handler
 *   instantiation failed", the connector does not start; with executor= (or sslImplementationName=)
 *   the digester itself fails and the server does not start;
 * - SSLEnabled="true" without an <SSLHostConfig> on 10.1: "No SSLHostConfig element was found with the
 *   hostName [_default_] to match the defaultSSLHostConfigName for the connector", the connector does
 *   not start (9.0 builds that SSLHostConfig from the connector's own TLS attributes and starts it);
 * - a DataSourceRealm without userTable on 10.1: "No user table was specified", the context is not
 *   deployed (9.0 starts it).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  catalogue,
  CATALOGUE_VERSIONS,
  setterName,
  type Catalogue,
  type CatalogueVersion,
  type SetResult,
} from '../catalogue/index.js';
import type { CatalinaBase, ConfigElement, ContextDef, Span } from '../model/index.js';
import { suggestParam } from './validate.js';

export type DigestKind =
  | 'unknown-attribute'
  | 'invalid-value'
  | 'class-not-found'
  | 'protocol-not-found'
  | 'tls-without-host-config'
  | 'missing-attribute';

/** Where a context file applies, which decides what its refusal stops. */
export type ContextScope = 'global' | 'host-default' | 'context';

export interface DigestFinding {
  kind: DigestKind;
  message: string;
  span: Span;
  file: string;
  /** What Tomcat does not start because of it; null when it goes on without the setting. */
  refuses: 'server' | 'connector' | 'context' | null;
  /** The element the finding is about (for a connector: the <Connector> element). */
  element: ConfigElement;
  /** For a context file: where it applies. */
  scope?: ContextScope;
}

/** Tomcat's own packages: a class named there that the version does not have is not loadable. */
const STOCK = /^(org\.apache\.(catalina|tomcat|coyote|naming|jasper)|org\.vendor\.container)\./;
const SERVER_ROOT = 'Server';

/** Whether the base or home has a lib/*.jar: classes beyond the JDK's and Tomcat's may then be on Tomcat's class path. */
export function baseHasJars(base: Pick<CatalinaBase, 'base' | 'home'>): boolean {
  return [join(base.base, 'lib'), join(base.home, 'lib')].some((d) => {
    // lib/ may be a file, a FIFO or a link to one (a hostile repository's, test/fuzz/layouts.ts): no jars then.
    try {
      return existsSync(d) && readdirSync(d).some((f) => f.endsWith('.jar'));
    } catch {
      return false;
    }
  });
}

const simple = (cls: string) => cls.slice(cls.lastIndexOf('.') + 1);
const isTrueValue = (v: string | undefined) => v !== undefined && v.toLowerCase() === 'true';

/** The versions (other than `v`) whose answer differs, as "Tomcat 9.0 sets it". */
function otherVersions(v: CatalogueVersion, accepted: (c: Catalogue) => boolean): string {
  const yes = CATALOGUE_VERSIONS.filter((x) => x !== v && accepted(catalogue(x)));
  return yes.length > 0 ? ` (Tomcat ${yes.join(' and ')} ${yes.length > 1 ? 'take' : 'takes'} it)` : '';
}

/** Where an attribute the element's class does not have went, when a child element's class has it. */
function movedTo(cat: Catalogue, pattern: string, attribute: string): string | null {
  const name = setterName(attribute);
  for (const [childTag, prefixes] of [
    ['Resources', ['']],
    ['SSLHostConfig', ['', 'Ssl']],
    ['SSLHostConfig/Certificate', ['', 'Certificate']],
  ] as const) {
    const child = cat.element(`${pattern}/${childTag}`);
    const cls = child?.create;
    if (!cls) continue;
    const props = cat.properties(cls);
    for (const prefix of prefixes) {
      const bare = name.replace(/^SSL(?=[A-Z])/, '');
      for (const n of [prefix + name, prefix + bare])
        if (props?.has(n)) {
          const attr = n.charAt(0).toLowerCase() + n.slice(1);
          return `<${childTag.replace('/', '><')} ${attr}="...">`;
        }
    }
  }
  return null;
}

class Walker {
  readonly out: DigestFinding[] = [];
  /** Whether server.xml declares AprLifecycleListener, without which an APR connector cannot start. */
  aprListener = true;

  constructor(
    readonly cat: Catalogue,
    readonly file: string,
    readonly extraJars: boolean,
    readonly scope: ContextScope | undefined,
  ) {}

  private push(f: Omit<DigestFinding, 'file' | 'scope'>): void {
    this.out.push({ ...f, file: this.file, ...(this.scope ? { scope: this.scope } : {}) });
  }

  /** What a class problem stops: the server for server.xml, the context(s) for a context file. */
  private get classRefuses(): 'server' | 'context' {
    return this.scope ? 'context' : 'server';
  }

  private refusalText(): string {
    if (!this.scope)
      return 'Tomcat cannot read server.xml and does not start ("Cannot start server. Server instance is not configured")';
    const which =
      this.scope === 'global'
        ? 'every context (conf/context.xml is read for each one)'
        : this.scope === 'host-default'
          ? 'every context of the host (context.xml.default is read for each one)'
          : 'the context';
    return `Tomcat cannot parse the file ("Parse error in context.xml") and does not start ${which}`;
  }

  /**
   * The version difference, when other versions of the catalogue have what this one lacks: "Tomcat 9.0
   * starts this connector; 10.1 refuses it." `what` is what the refusal stops.
   */
  private versionDifference(had: readonly CatalogueVersion[], what: 'server' | 'connector' | 'context'): string {
    if (had.length === 0) return '';
    const [thing, it] =
      what === 'server'
        ? ['this server', 'it']
        : what === 'connector'
          ? ['this connector', 'it']
          : this.scope === 'global'
            ? ['every context', 'them']
            : this.scope === 'host-default'
              ? ["the host's contexts", 'them']
              : ['this context', 'it'];
    return ` Tomcat ${had.join(' and ')} ${had.length > 1 ? 'start' : 'starts'} ${thing}; ${this.cat.version} refuses ${it}.`;
  }

  /** Why the version cannot load `cls` for an element whose parent takes `type`, or null when it can (or cannot tell). */
  private classProblem(cls: string, type: string | undefined, tag: string): string | null {
    const v = this.cat.version;
    const name = cls.replace(/^org\.vendor\.container\./, 'org.apache.catalina.');
    if (this.cat.hasClass(name)) {
      const kinds = this.cat.kindsOf(name);
      if (type && kinds.length > 0 && !kinds.includes(type) && this.cat.classesOf(type).length > 0)
        return `${cls} is a ${simple(kinds[0]!)} class, not a ${tag}: the parent's add method cannot take it`;
      return null;
    }
    if (STOCK.test(cls)) {
      const known = type ? this.cat.classesOf(type) : [];
      const guess = suggestParam(name, [...known]);
      if (this.extraJars && guess.length === 0) return null;
      return `Tomcat ${v} has no class ${cls} (ClassNotFoundException)${guess.length > 0 ? `. Did you mean ${guess.join(' or ')}?` : ''}`;
    }
    if (this.extraJars) return null;
    return `${cls} is not on Tomcat's class path (ClassNotFoundException): it is not one of Tomcat's classes and the base has no lib/*.jar that could hold it`;
  }

  walk(el: ConfigElement, pattern: string): void {
    const rule = this.cat.element(pattern);
    // No rule for the pattern: Tomcat's digester skips the element and everything in it without a word.
    if (!rule) return;
    let cls: string | null = rule.create ?? null;
    let protocol: string | null = null;
    let classOk = true;
    const named = rule.classAttr ? el.attributes[rule.classAttr] : undefined;
    const isConnector = rule.rules?.includes('ConnectorCreateRule') ?? false;
    if (isConnector) {
      protocol = this.protocolOf(el);
      classOk = protocol !== null;
      if (protocol && /AprProtocol$/.test(protocol) && !this.aprListener) this.aprWithoutListener(el, protocol);
    } else if (named) {
      cls = named.value;
      const optional = rule.rules?.includes('ListenerCreateRule') && isTrueValue(el.attributes['optional']?.value);
      const why = this.classProblem(cls, rule.type, el.tag);
      if (why) {
        classOk = false;
        // ListenerCreateRule: an optional Server listener that cannot be created is skipped (observed: no log line).
        if (!optional)
          this.push({
            kind: 'class-not-found',
            message: `<${el.tag} ${rule.classAttr}="${cls}">: ${why}${why.endsWith('?') ? '' : '.'} ${this.refusalText()}.${this.versionDifference(
              CATALOGUE_VERSIONS.filter(
                (x) =>
                  x !== this.cat.version &&
                  catalogue(x).hasClass(cls!.replace(/^org\.vendor\.container\./, 'org.apache.catalina.')),
              ),
              this.classRefuses,
            )}`,
            span: named.span,
            refuses: this.classRefuses,
            element: el,
          });
      } else if (!this.cat.hasClass(cls.replace(/^org\.vendor\.container\./, 'org.apache.catalina.'))) classOk = false;
      else cls = cls.replace(/^org\.vendor\.container\./, 'org.apache.catalina.');
    }
    // ListenerCreateRule reads optional itself: no setter is asked for it (observed on 9.0.70 and 10.1.60: no log line).
    const exclude = rule.rules?.includes('ListenerCreateRule')
      ? [...(rule.exclude ?? []), 'optional']
      : (rule.exclude ?? []);
    if (rule.props && classOk && cls) this.attributes(el, pattern, cls, protocol, exclude);
    if (isConnector && classOk) this.tls(el);
    if (classOk && cls) this.required(el, cls);
    for (const c of el.children) this.walk(c, `${pattern}/${c.tag}`);
  }

  /**
   * An APR handler the version has, in a server.xml without AprLifecycleListener: the connector fails
   * to initialise ("The configured protocol [...] requires the AprLifecycleListener which is not
   * available", observed on 9.0.70) while the rest of the server starts.
   */
  private aprWithoutListener(el: ConfigElement, protocol: string): void {
    const attr = el.attributes['protocol']!;
    const nio = /Ajp/i.test(protocol)
      ? 'org.apache.coyote.ajp.AjpNioProtocol'
      : 'org.apache.coyote.http11.Http11NioProtocol';
    this.push({
      kind: 'protocol-not-found',
      message: `<Connector protocol="${attr.value}">: Tomcat ${this.cat.version} loads the APR/native library only through <Listener className="org.apache.catalina.core.AprLifecycleListener"/>, which this server.xml does not declare: the connector fails to initialise ("The configured protocol [${protocol}] requires the AprLifecycleListener which is not available") and does not start. Add the listener (and the tomcat-native library), or use ${nio}.`,
      span: attr.span,
      refuses: 'connector',
      element: el,
    });
  }

  /** The handler class of a Connector, or null (with its finding) when the version has none. */
  private protocolOf(el: ConfigElement): string | null {
    const attr = el.attributes['protocol'];
    const handler = this.cat.protocolHandler(attr?.value);
    if (handler) return handler;
    const p = attr!.value;
    // Not Tomcat's: a third-party handler the base's jars may hold.
    if (!STOCK.test(p) && this.extraJars) return null;
    const had = CATALOGUE_VERSIONS.filter((x) => x !== this.cat.version && catalogue(x).protocolHandler(p));
    const stops = el.attributes['executor'] ?? el.attributes['sslImplementationName'];
    const nio = /Ajp/i.test(p) ? 'org.apache.coyote.ajp.AjpNioProtocol' : 'org.apache.coyote.http11.Http11NioProtocol';
    this.push({
      kind: 'protocol-not-found',
      message: stops
        ? `<Connector protocol="${p}">: Tomcat ${this.cat.version} has no such protocol handler, and with ${stops === el.attributes['executor'] ? 'executor' : 'sslImplementationName'}= set the digester fails on the missing handler: Tomcat cannot read server.xml and does not start ("Cannot start server. Server instance is not configured").${this.versionDifference(had, 'server')} Use ${nio}.`
        : `<Connector protocol="${p}">: Tomcat ${this.cat.version} has no such protocol handler: "Protocol handler instantiation failed" (ClassNotFoundException) and the connector does not start.${this.versionDifference(had, 'connector')} Use ${nio}.`,
      span: attr!.span,
      refuses: stops ? 'server' : 'connector',
      element: el,
    });
    return null;
  }

  private attributes(
    el: ConfigElement,
    pattern: string,
    cls: string,
    protocol: string | null,
    exclude: string[],
  ): void {
    const v = this.cat.version;
    for (const [name, a] of Object.entries(el.attributes)) {
      if (exclude.includes(name)) continue;
      const judge = (c: Catalogue): SetResult =>
        protocol !== null || pattern.endsWith('/Connector')
          ? c.connectorAttribute(c.protocolHandler(el.attributes['protocol']?.value), name, a.value)
          : c.setProperty(cls, name, a.value);
      const r = judge(this.cat);
      if (r.kind !== 'unknown' && r.kind !== 'bad-value') continue;
      const logged = `"Match [${pattern}] failed to set property [${name}] to [${a.value}]"`;
      const span = el.names?.[name] ?? a.span;
      if (r.kind === 'bad-value') {
        this.push({
          kind: 'invalid-value',
          message: `${name}="${a.value}" on <${el.tag}>: Tomcat ${v} converts this attribute to ${r.type === 'int' ? 'an int' : `a ${r.type}`} (${r.type === 'int' ? 'Integer' : 'Long'}.valueOf: digits, an optional sign, no spaces) and cannot convert this value: it logs ${logged} and keeps its default.`,
          span: a.span,
          refuses: null,
          element: el,
        });
        continue;
      }
      const elsewhere = otherVersions(v, (c) => {
        const x = judge(c);
        return x.kind === 'set' || x.kind === 'generic';
      });
      const moved = movedTo(this.cat, pattern, name);
      const props = this.cat.properties(cls);
      const names = props ? [...props.keys()].map((k) => k.charAt(0).toLowerCase() + k.slice(1)) : [];
      const guess = moved ? [] : suggestParam(name, names);
      const hint = moved
        ? ` On ${v} it belongs on ${moved}.`
        : guess.length > 0
          ? ` Did you mean ${guess.join(' or ')}?`
          : '';
      this.push({
        kind: 'unknown-attribute',
        message: `<${el.tag}> has no attribute ${name} on Tomcat ${v}${elsewhere}: Tomcat logs ${logged} and ignores it, so the setting has no effect.${hint}`,
        span,
        refuses: null,
        element: el,
      });
    }
  }

  /** SSLEnabled="true" needs the SSLHostConfig the connector's defaultSSLHostConfigName names. */
  private tls(el: ConfigElement): void {
    const enabled = el.attributes['SSLEnabled'];
    if (!enabled || !isTrueValue(enabled.value)) return;
    const wanted = (el.attributes['defaultSSLHostConfigName']?.value ?? '_default_').toLowerCase();
    const configs = el.children.filter((c) => c.tag === 'SSLHostConfig');
    if (configs.some((c) => (c.attributes['hostName']?.value ?? '_default_').toLowerCase() === wanted)) return;
    // Tomcat 9.0 makes the default SSLHostConfig from the connector's own TLS attributes when there is none.
    if (configs.length === 0 && this.cat.version === '9.0') return;
    const tls9 =
      configs.length === 0
        ? " Tomcat 9.0 built it from the connector's own TLS attributes and started this connector;"
        : '';
    this.push({
      kind: 'tls-without-host-config',
      message: `SSLEnabled="true" but no <SSLHostConfig hostName="${wanted}">:${tls9} Tomcat ${this.cat.version} logs "No SSLHostConfig element was found with the hostName [${wanted}] to match the defaultSSLHostConfigName for the connector" and does not start the connector. Move the TLS settings into <SSLHostConfig> and <Certificate> (tollgate migrate --to 10.1 does).`,
      span: enabled.span,
      refuses: 'connector',
      element: el,
    });
  }

  /** Settings a class's start needs (read from its startInternal; only where Tomcat checks them). */
  private required(el: ConfigElement, cls: string): void {
    const checks = REQUIRED[cls];
    if (!checks || this.cat.version === '9.0') return;
    const set = (n: string) => (el.attributes[n]?.value ?? '') !== '';
    for (const [attrs, logged] of checks) {
      const missing = attrs.length === 1 ? !set(attrs[0]!) : attrs.some(set) && !attrs.every(set) ? true : false;
      if (!missing) continue;
      this.push({
        kind: 'missing-attribute',
        message: `<${el.tag}> ${simple(cls)} ${attrs.length === 1 ? `without ${attrs[0]}` : `with only one of ${attrs.join(' and ')}`}: Tomcat ${this.cat.version} does not start the realm ("${logged}"; Tomcat 9.0 did not check)${this.scope ? ' and the context is not deployed' : ', so nothing authenticates against it'}.`,
        span: el.className?.span ?? el.span,
        refuses: this.scope ? 'context' : null,
        element: el,
      });
      return;
    }
  }
}

/**
 * Per class, the attributes its startInternal refuses to start without, with what it logs
 * (Tomcat 10.1.60's DataSourceRealm.startInternal; 9.0.70 has no such checks).
 */
const REQUIRED: Record<string, readonly (readonly [readonly string[], string])[]> = {
  'org.apache.catalina.realm.DataSourceRealm': [
    [['userTable'], 'No user table was specified'],
    [['userNameCol'], 'No column was specified for user names'],
    [['userCredCol'], 'No column was specified for user credentials'],
    [
      ['userRoleTable', 'roleNameCol'],
      'Role configuration is incomplete: both userRoleTable and roleNameCol must be specified together',
    ],
  ],
};

export interface DigestOptions {
  target: CatalogueVersion;
  /** Whether lib/ holds jars (classes outside Tomcat's may then load); computed from the base when absent. */
  extraJars?: boolean;
}

const memo = new WeakMap<CatalinaBase, Map<string, DigestFinding[]>>();

/** The context files of a base with where each applies: conf/context.xml, each host's default, each context's own. */
function contextFiles(base: CatalinaBase): { def: ContextDef; scope: ContextScope }[] {
  const out: { def: ContextDef; scope: ContextScope }[] = [];
  const seen = new Set<ContextDef>();
  const add = (def: ContextDef | null | undefined, scope: ContextScope) => {
    if (!def || seen.has(def) || def.file === base.serverXml?.file) return;
    seen.add(def);
    out.push({ def, scope });
  };
  add(base.contextXml, 'global');
  for (const h of base.hosts) {
    add(h.contextDefault, 'host-default');
    for (const c of h.contexts) add(c.contextDef, 'context');
  }
  return out;
}

/** Every finding of server.xml and of each context file, for the targeted version (memoised per base). */
export function digestBase(base: CatalinaBase, opts: DigestOptions): DigestFinding[] {
  const extraJars = opts.extraJars ?? baseHasJars(base);
  const key = `${opts.target}:${extraJars}`;
  let byKey = memo.get(base);
  const known = byKey?.get(key);
  if (known) return known;
  const out: DigestFinding[] = [];
  const server = base.serverXml;
  // The catalogue where a file needs it (catalogue() keeps each version's): a lint of web.xml files never reads it.
  if (server?.element) {
    const w = new Walker(catalogue(opts.target), server.file, extraJars, undefined);
    w.aprListener = server.element.children.some(
      (c) =>
        c.tag === 'Listener' &&
        c.attributes['className']?.value.trim() === 'org.apache.catalina.core.AprLifecycleListener',
    );
    w.walk(server.element, SERVER_ROOT);
    out.push(...w.out);
  }
  for (const { def, scope } of contextFiles(base)) {
    if (!def.element) continue;
    const w = new Walker(catalogue(opts.target), def.file, extraJars, scope);
    w.walk(def.element, 'Context');
    out.push(...w.out);
  }
  if (!byKey) memo.set(base, (byKey = new Map()));
  byKey.set(key, out);
  return out;
}
