/**
 * The plan stage: a loaded CATALINA_BASE as Tomcat 10.1 would run it. Whether
 * the server starts, its hosts, and for every context whether Tomcat starts it
 * (with the reasons it would log, as diagnostics with file:line:column) and
 * what it runs: validated filters, the selector table, MIME map, welcome
 * files, error pages. The one place that decides what starts: lint, chain,
 * compile and serve all read it.
 *
 * The decision uses Tomcat's facts, never lint severities: a descriptor Tomcat
 * cannot parse, where its digester stops, what StandardContext refuses, and a
 * filter whose init fails (FilterBase.isConfigProblemFatal and each filter's
 * init code, as src/filters knows them).
 */
import { existsSync, opendirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contextsOf, selectorTableOf, type MergedFilter, type ResolvedContext } from '../chain/index.js';
import { mergeErrorPages, type MergedErrorPage } from '../chain/merge.js';
import { javaHashMapOrder } from '../chain/mime.js';
import { isJavaClassName, PLATFORM } from '../filters/class-name.js';
import { catalogue } from '../catalogue/index.js';
import { digestBase, type DigestFinding } from '../filters/digester.js';
import {
  findFilterSpec,
  plannedFilter,
  suggestParam,
  FILTER_SPECS,
  validateFilterDef,
  type PlannedFilter,
  type TomcatTarget,
} from '../filters/index.js';
import type { CatalinaBase, Diagnostic, LoadedContext, LoadedHost } from '../model/index.js';
import { parseContextName } from '../parser/index.js';
import type { SelectorTable } from '../protocol/chain-selector.js';
import { isSupportedCharset } from '../protocol/charset.js';
import { maxActiveSessionsOf, resourcesOf, type ResourcesSettings } from './resources.js';

export { DEFAULT_RESOURCES, type ResourcesSettings } from './resources.js';

/** What a started context runs: the one description both compiled modules and `tollgate serve` are built from. */
export interface ContextPlan {
  host: string;
  contextPath: string;
  /** Absolute directory of the application (static files). */
  docBase: string;
  /** `<host>/<context base name>.mjs`: where compile writes the module. */
  fileName: string;
  /** The descriptors merged into it, relative to the base. */
  sources: string[];
  filters: PlannedFilter[];
  table: SelectorTable;
  sessionTimeoutMinutes: number;
  /** `<Manager maxActiveSessions>`: -1 (Tomcat's default) for no limit. */
  maxActiveSessions: number;
  requestCharacterEncoding: string | null;
  mimeMappings: Record<string, string>;
  welcomeFiles: string[];
  errorPages: MergedErrorPage[];
  /** The context's `<Resources>`: the static resource cache and allowLinking. */
  resources: ResourcesSettings;
}

export type StartState = 'starts' | 'refused';

/** One context of a host, as Tomcat would deploy it. */
export interface PlannedContext {
  host: string;
  contextPath: string;
  /** Tomcat's base name (`ROOT`, `foo#bar##2`). */
  name: string;
  docBase: string;
  state: StartState;
  /** Why Tomcat does not start it (empty when it does), where the user has to change something. */
  reasons: Diagnostic[];
  /**
   * Set when Tomcat starts the context but tollgate's runtime cannot run it (a filter class it has no
   * Node implementation of, a value it cannot run exactly, a request encoding Node cannot decode).
   */
  unrunnable: string | null;
  /** What compile and serve run; null when the context is refused or cannot run on Node. */
  run: ContextPlan | null;
  /** The merged configuration, for the commands that show it (chain). */
  resolved: ResolvedContext;
}

export interface PlannedHost {
  name: string;
  aliases: string[];
  /** The appBase attribute as written ("webapps" by default). */
  appBase: string;
  /** Absolute appBase. */
  appBasePath: string;
  contexts: PlannedContext[];
}

export interface ServerPlan {
  state: StartState;
  /** Why Tomcat does not start at all (a server.xml it cannot parse). */
  reasons: Diagnostic[];
}

/** One <Connector> of server.xml, as the targeted Tomcat starts it. */
export interface PlannedConnector {
  service: string;
  /** The port attribute as written ('' when absent). */
  port: string;
  /** The protocol handler class the version makes of the protocol attribute; null when it has none. */
  protocolHandler: string | null;
  /** Refused when the server is, or when the connector itself does not start. */
  state: StartState;
  reasons: Diagnostic[];
}

/** A context left out of compile and serve, with why. */
export interface SkippedContext {
  host: string;
  contextPath: string;
  state: StartState;
  reason: string;
  /** The diagnostics behind the reason (file:line:column), empty when it is not about a file. */
  diagnostics: Diagnostic[];
}

export interface Plan {
  base: CatalinaBase;
  server: ServerPlan;
  /** Every connector of server.xml, in file order. */
  connectors: PlannedConnector[];
  engineName: string;
  defaultHost: string;
  hosts: PlannedHost[];
  /** Every context of every host, in host order. */
  contexts: PlannedContext[];
  /** The contexts that run (Tomcat starts them and Node can run them). */
  plans: ContextPlan[];
  /** The others: refused by Tomcat, or started by Tomcat but not runnable on Node. */
  skipped: SkippedContext[];
  /** Every reason of every refusal, once each. */
  diagnostics: Diagnostic[];
}

export interface PlanOptions {
  target?: TomcatTarget;
  /**
   * Findings that keep tollgate from running a context Tomcat starts, found by a stage the plan cannot
   * import (lint's regex-redos: a pattern open to catastrophic backtracking ties up one Java thread, but
   * Node's only one): every context whose descriptors hold one is not run.
   */
  unsafe?: readonly Diagnostic[];
}

/**
 * Findings after which Tomcat's parser gives up on the file; for a tollgate.chain.json (which holds
 * every context) one that breaks the document or its schema, as no context in it can be read with certainty.
 */
const UNPARSEABLE = new Set([
  'xml-malformed',
  // An encoding Java does not know, bytes invalid in the declared one, or UTF-16 bytes declaring another: the parser
  // stops ("java.io.UnsupportedEncodingException", "Content is not allowed in prolog", observed on 10.1.60).
  'xml-encoding',
  'xml-entity-expansion',
  'xml-external-dtd',
  'json-malformed',
  'json-chain-invalid',
]);

/** The first error that stops Tomcat parsing each file, by absolute path. */
function unparseableFiles(base: CatalinaBase): Map<string, Diagnostic> {
  const out = new Map<string, Diagnostic>();
  for (const d of base.diagnostics) {
    if (d.severity === 'error' && UNPARSEABLE.has(d.ruleId) && !out.has(d.span.file)) out.set(d.span.file, d);
  }
  return out;
}

/**
 * Findings after which tollgate has not read a file that Tomcat reads and starts with (over 8 MiB,
 * unreadable here, nested past 10,000 levels): what the file configures is unknown, so a context
 * that depends on it is not run rather than run without it.
 */
const NOT_READ = new Set(['file-too-large', 'file-unreadable', 'xml-deep-nesting']);

function unreadFiles(base: CatalinaBase): Map<string, Diagnostic> {
  const out = new Map<string, Diagnostic>();
  for (const d of base.diagnostics) {
    if (d.severity === 'error' && NOT_READ.has(d.ruleId) && !out.has(d.span.file)) out.set(d.span.file, d);
  }
  return out;
}

/** Every descriptor a context's configuration comes from, read or not. */
/** Where a host's context files and defaults live: its xmlBase, or conf/<Engine>/<Host>. */
function configBaseOf(base: CatalinaBase, host: LoadedHost): string {
  const xmlBase = host.def?.attributes['xmlBase']?.value;
  return xmlBase ? resolve(base.base, xmlBase) : join(base.base, 'conf', host.engineName, host.name);
}

function descriptorFiles(base: CatalinaBase, c: ResolvedContext): string[] {
  const configBase = configBaseOf(base, c.host);
  const files = [
    join(base.base, 'conf', 'web.xml'),
    join(configBase, 'web.xml.default'),
    join(c.context.docBase, 'WEB-INF', 'web.xml'),
    join(c.context.docBase, 'WEB-INF', 'tomcat-web.xml'),
  ];
  if (c.context.contextDef) files.push(c.context.contextDef.file);
  else if (c.context.source === 'app-dir') files.push(join(c.context.docBase, 'META-INF', 'context.xml'));
  return files;
}

/** A path segment that stays one segment: host names come from server.xml and JSON as written ("..", "a/../../b"). */
function segment(name: string): string {
  const safe = name.replace(/[%/\\\0]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
  return safe === '' || safe === '.' || safe === '..' ? safe.replace(/\./g, '%2E') || '%00' : safe;
}

function moduleName(c: ResolvedContext): string {
  const name = c.context.path === '' ? 'ROOT' : c.context.path.slice(1).replace(/\//g, '#');
  return `${segment(c.host.name)}/${segment(name)}.mjs`;
}

/** Tomcat's filter package, and the spec's name for it. */
const FILTER_PACKAGES = ['org.apache.catalina.filters', 'org.vendor.container.filters'];
const SIMPLE_NAMES = FILTER_SPECS.map((s) => s.simpleName);

/**
 * A class in Tomcat's filter package that is not one of its filters: Tomcat cannot load or
 * instantiate it (ClassNotFoundException, InstantiationException: test/fixtures/tomcat-observed/filter-class.json).
 */
function missingTomcatClass(f: MergedFilter): Diagnostic | null {
  const cls = f.className;
  if (!cls) return null;
  const name = cls.value.trim();
  const dot = name.lastIndexOf('.');
  if (!FILTER_PACKAGES.includes(name.slice(0, Math.max(0, dot))) || findFilterSpec(name)) return null;
  const guess = suggestParam(name.slice(dot + 1), SIMPLE_NAMES);
  return {
    ruleId: 'unknown-filter-class',
    severity: 'error',
    message: `Tomcat cannot load filter class ${name} for "${f.name}" (no such filter in its filter package), so the filter and the application do not start.${guess.length ? ` Did you mean ${guess.join(' or ')}?` : ''}`,
    span: cls.span,
  };
}

/**
 * Whether Tomcat's common class loader can find a class an init-param names (randomClass): a .class file
 * under lib/ of CATALINA_BASE or CATALINA_HOME, or possibly a jar of CATALINA_BASE/lib (the jars of
 * CATALINA_HOME/lib are Tomcat's own, which hold no class outside its platform packages).
 */
function commonLoaderMayHave(base: CatalinaBase, className: string): boolean {
  const file = `${className.replace(/\./g, '/')}.class`;
  if (existsSync(join(base.base, 'lib', file)) || existsSync(join(base.home, 'lib', file))) return true;
  return listed(join(base.base, 'lib')).some((f) => f.toLowerCase().endsWith('.jar'));
}

/** A class-name init-param naming a class the filter's Class.forName cannot find: the filter fails in init. */
function missingParamClass(base: CatalinaBase, f: MergedFilter): Diagnostic | null {
  const spec = findFilterSpec(f.className?.value ?? '');
  if (!spec) return null;
  for (const p of f.initParams) {
    const name = spec.resolveParam(p.name.value);
    const v = p.value.value.trim();
    if (name === null || spec.paramKinds[name] !== 'class-name' || !isJavaClassName(v) || PLATFORM.test(v)) continue;
    if (commonLoaderMayHave(base, v)) continue;
    return {
      ruleId: 'filter-param-invalid',
      severity: 'error',
      message: `${p.name.value}: Tomcat cannot load ${v} (no ${v.replace(/\./g, '/')}.class in lib/ of CATALINA_BASE or CATALINA_HOME, and no jar in CATALINA_BASE/lib), so ${spec.simpleName} and the application do not start`,
      span: p.value.span,
    };
  }
  return null;
}

/** Why one merged filter does not start on Tomcat, and whether Node can run it when it does. */
interface FilterVerdict {
  refusals: Diagnostic[];
  run: ContextPlan['filters'][number] | null;
  unrunnable: string | null;
}

function filterVerdict(
  base: CatalinaBase,
  f: MergedFilter,
  target: TomcatTarget,
  cache: Map<MergedFilter, FilterVerdict>,
): FilterVerdict {
  const hit = cache.get(f);
  if (hit) return hit;
  let verdict: FilterVerdict;
  const missing = missingTomcatClass(f) ?? missingParamClass(base, f);
  if (missing) verdict = { refusals: [missing], run: null, unrunnable: null };
  else {
    const v = validateFilterDef({ ...f.def, className: f.className, initParams: f.initParams }, { target });
    if (v.refusals.length > 0) verdict = { refusals: v.refusals, run: null, unrunnable: null };
    else if (!v.spec)
      verdict = {
        refusals: [],
        run: null,
        unrunnable: `filter "${f.name}" (${f.className?.value ?? 'no class'}) has no Node implementation`,
      };
    else if (v.config === null) {
      const why = v.diagnostics.find((d) => d.severity !== 'info');
      verdict = {
        refusals: [],
        run: null,
        unrunnable: `filter "${f.name}" has a value Tomcat accepts but tollgate cannot run${why ? `: ${why.message}` : ''}`,
      };
    } else
      verdict = {
        refusals: [],
        run: plannedFilter(f.name, f.className!.value, v.spec, v.config),
        unrunnable: null,
      };
  }
  cache.set(f, verdict);
  return verdict;
}

/**
 * Directory entries in the order the file system lists them, as Java's File.list() returns them:
 * readdirSync sorts (libuv's scandir), an opendir stream does not.
 */
function listed(dir: string): string[] {
  const out: string[] = [];
  try {
    const d = opendirSync(dir);
    try {
      for (let e = d.readSync(); e !== null; e = d.readSync()) out.push(e.name);
    } finally {
      d.closeSync();
    }
  } catch {
    return out;
  }
  return out;
}

/**
 * The context a host starts first, which is the one that parses conf/web.xml and web.xml.default
 * (ContextConfig caches the defaults per host, also after a parse error). Contexts of server.xml start
 * first, in the order of the Host's children HashMap; then HostConfig deploys context files, WARs and
 * directories in the order File.list() gives (one start-stop thread: one after another).
 */
function firstDeployed(
  base: CatalinaBase,
  host: LoadedHost,
  unparseable: Map<string, Diagnostic>,
): LoadedContext | null {
  // A context whose context file Tomcat cannot parse is deployed as a FailedContext, which never reads the defaults.
  const deployable = host.contexts.filter((c) => !unparseable.has(contextFileOf(base, c) ?? ''));
  const byName = new Map(deployable.map((c) => [c.name, c]));
  const fromServerXml = deployable.filter((c) => c.source === 'server-xml');
  if (fromServerXml.length > 0) {
    const names = fromServerXml.map((c) => (c.version ? `${c.path}##${c.version}` : c.path));
    const first = javaHashMapOrder(names, names.length)[0]!;
    return fromServerXml[names.indexOf(first)]!;
  }
  const configBase = configBaseOf(base, host);
  for (const f of listed(configBase)) {
    if (!f.toLowerCase().endsWith('.xml')) continue;
    const c = byName.get(parseContextName(f.slice(0, -4)).name);
    if (c?.source === 'context-file') return c;
  }
  const entries = listed(host.appBase);
  for (const f of entries) {
    if (!f.toLowerCase().endsWith('.war')) continue;
    const c = byName.get(parseContextName(f.slice(0, -4)).name);
    if (c?.source === 'app-dir' && c.docBase.toLowerCase().endsWith('.war')) return c;
  }
  for (const f of entries) {
    const c = byName.get(parseContextName(f).name);
    if (c?.source === 'app-dir') return c;
  }
  return deployable[0] ?? null;
}

/** The context file Tomcat reads for a context (its own file or META-INF/context.xml), null for one of server.xml. */
function contextFileOf(base: CatalinaBase, c: LoadedContext): string | null {
  const file = c.contextDef?.file ?? (c.source === 'app-dir' ? join(c.docBase, 'META-INF', 'context.xml') : null);
  return file === base.serverXml?.file ? null : file;
}

/** Why Tomcat refuses a context because of its descriptors: parse errors, digester stops, StandardContext checks. */
function descriptorRefusals(
  base: CatalinaBase,
  c: ResolvedContext,
  unparseable: Map<string, Diagnostic>,
  first: () => LoadedContext | null,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // META-INF/context.xml or the context file: HostConfig deploys a FailedContext instead.
  const contextFile = contextFileOf(base, c.context);
  const ownXml = contextFile ? unparseable.get(contextFile) : undefined;
  if (ownXml) out.push(ownXml);
  // conf/context.xml and the host's context.xml.default are parsed for every context it starts: "Parse error
  // in context.xml for [/x]" marks each one unavailable (observed on Tomcat 10.1.60, scripts/observe-rules.ts).
  for (const file of [
    join(base.base, 'conf', 'context.xml'),
    join(configBaseOf(base, c.host), 'context.xml.default'),
  ]) {
    const bad = unparseable.get(file);
    if (bad) out.push(bad);
  }
  // "Parse error in application web.xml": ContextConfig marks the context unavailable.
  for (const xml of [c.context.webXml, c.context.tomcatWebXml]) {
    const bad = xml ? unparseable.get(xml.file) : undefined;
    if (bad) out.push(bad);
  }
  if (c.merged.startup === 'fails') out.push(...c.merged.refusals);
  // conf/web.xml and web.xml.default are parsed once per host: the first context to start fails with their
  // error, the others start with what was read before it.
  const defaults: Diagnostic[] = c.merged.startup === 'first-on-host-fails' ? [...c.merged.refusals] : [];
  for (const xml of [base.globalWebXml, c.host.webXmlDefault]) {
    const bad = xml ? unparseable.get(xml.file) : undefined;
    if (bad) defaults.push(bad);
  }
  if (defaults.length > 0 && c.context === first()) out.push(...defaults);
  return out;
}

function sourcesOf(base: CatalinaBase, c: ResolvedContext): string[] {
  const files = new Set<string>();
  if (base.globalWebXml) files.add(base.globalWebXml.file);
  if (c.host.webXmlDefault) files.add(c.host.webXmlDefault.file);
  if (c.context.tomcatWebXml) files.add(c.context.tomcatWebXml.file);
  if (c.context.webXml) files.add(c.context.webXml.file);
  return [...files].map((f) => relative(base.base, f) || f).sort();
}

function unique(ds: Diagnostic[]): Diagnostic[] {
  return [...new Set(ds)];
}

/** The first file:line:column of a list of diagnostics, relative to the base, for one-line reasons. */
function reasonText(base: CatalinaBase, reasons: Diagnostic[]): string {
  const d = reasons[0]!;
  const file = relative(base.base, d.span.file) || d.span.file;
  const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : '';
  return `${file}:${d.span.line}:${d.span.column}: ${d.message}${more}`;
}

/** The lint rule that reports each kind of digester finding, for the reasons the plan gives. */
const RULE_OF_KIND: Record<DigestFinding['kind'], string> = {
  'unknown-attribute': 'attribute-unknown',
  'invalid-value': 'attribute-invalid-value',
  'class-not-found': 'server-class-not-found',
  'protocol-not-found': 'connector-protocol-not-found',
  'tls-without-host-config': 'connector-tls-without-host-config',
  'missing-attribute': 'realm-missing-attribute',
};

/**
 * Whether a refusal found in a context file stops this context: its own file, conf/context.xml (every
 * context) or its host's context.xml.default; override="true" on the context skips the two defaults
 * (ContextConfig.contextConfig).
 */
function contextFileApplies(base: CatalinaBase, c: ResolvedContext, f: DigestFinding): boolean {
  if (f.scope === 'context') return f.file === contextFileOf(base, c.context);
  if (c.context.contextDef?.attributes['override']?.value.toLowerCase() === 'true') return false;
  if (f.scope === 'global') return true;
  return f.file === c.host.contextDefault?.file;
}

function planConnectors(
  base: CatalinaBase,
  server: ServerPlan,
  digest: DigestFinding[],
  refusal: (f: DigestFinding) => Diagnostic,
  target: TomcatTarget,
): PlannedConnector[] {
  const out: PlannedConnector[] = [];
  for (const s of base.serverXml?.services ?? [])
    for (const c of s.connectors) {
      // Asked for here (catalogue() keeps each version's): a base without connectors, web.xml files alone, never reads it.
      const cat = catalogue(target);
      const mine = digest.filter((f) => f.refuses === 'connector' && f.element.span.offset === c.span.offset);
      const reasons = server.state === 'refused' ? [...server.reasons] : mine.map(refusal);
      out.push({
        service: s.name?.value ?? '',
        port: c.attributes['port']?.value ?? '',
        protocolHandler: cat.protocolHandler(c.attributes['protocol']?.value),
        state: reasons.length > 0 ? 'refused' : 'starts',
        reasons,
      });
    }
  return out;
}

/** Plans every context of a base: what Tomcat 10.1 starts, and what each started context runs. */
export function planBase(base: CatalinaBase, opts: PlanOptions = {}): Plan {
  const target = opts.target ?? '10.1';
  const unparseable = unparseableFiles(base);
  const unread = unreadFiles(base);
  // What the digester makes of server.xml and the context files on this version (src/filters/digester.ts):
  // a class server.xml names that Tomcat cannot load stops the digester as a parse error does.
  const digest = digestBase(base, { target });
  const refusals = new Map<DigestFinding, Diagnostic>();
  const refusal = (f: DigestFinding): Diagnostic => {
    let d = refusals.get(f);
    if (!d)
      refusals.set(
        f,
        (d = {
          ruleId: f.kind === 'class-not-found' && f.scope ? 'context-class-not-found' : RULE_OF_KIND[f.kind],
          severity: 'error',
          message: f.message,
          span: f.span,
        }),
      );
    return d;
  };
  const serverDigest = digest.find((f) => f.refuses === 'server');
  const serverReason = base.serverXml
    ? (unparseable.get(base.serverXml.file) ?? (serverDigest ? refusal(serverDigest) : undefined))
    : [...unparseable.values()].find((d) => d.span.file === join(base.base, 'conf', 'server.xml'));
  const server: ServerPlan = serverReason
    ? { state: 'refused', reasons: [serverReason] }
    : { state: 'starts', reasons: [] };
  const connectors = planConnectors(base, server, digest, refusal, target);
  const contextRefusals = digest.filter((f) => f.refuses === 'context');
  const verdicts = new Map<MergedFilter, FilterVerdict>();
  const firsts = new Map<LoadedHost, LoadedContext | null>();
  const hosts = new Map<LoadedHost, PlannedHost>();
  for (const h of base.hosts) {
    hosts.set(h, {
      name: h.name,
      aliases: [...h.aliases],
      appBase: h.def?.appBase?.value ?? 'webapps',
      appBasePath: h.appBase,
      contexts: [],
    });
  }
  const contexts: PlannedContext[] = [];
  const plans: ContextPlan[] = [];
  const skipped: SkippedContext[] = [];
  for (const c of contextsOf(base)) {
    const first = (): LoadedContext | null => {
      if (!firsts.has(c.host)) firsts.set(c.host, firstDeployed(base, c.host, unparseable));
      return firsts.get(c.host)!;
    };
    const reasons = server.state === 'refused' ? [...server.reasons] : descriptorRefusals(base, c, unparseable, first);
    if (server.state === 'starts')
      for (const f of contextRefusals) if (contextFileApplies(base, c, f)) reasons.push(refusal(f));
    // StandardContext.filterStart initialises every defined filter, mapped or not.
    const filters: ContextPlan['filters'] = [];
    let unrunnable: string | null = null;
    const { filters: merged, table } = selectorTableOf(c.merged);
    for (const f of merged) {
      const v = filterVerdict(base, f, target, verdicts);
      reasons.push(...v.refusals);
      if (v.run) filters.push(v.run);
      else unrunnable ??= v.unrunnable;
    }
    // The runtime decodes requests in this charset and cannot start a context with one it does not know.
    const requestCharacterEncoding =
      c.context.webXml?.requestCharacterEncoding?.value ?? base.globalWebXml?.requestCharacterEncoding?.value ?? null;
    if (requestCharacterEncoding !== null && !isSupportedCharset(requestCharacterEncoding)) {
      unrunnable ??= `<request-character-encoding> ${JSON.stringify(requestCharacterEncoding)} is not a character set the Node runtime can decode`;
    }
    const unsafe = opts.unsafe?.length
      ? descriptorFiles(base, c)
          .map((f) => opts.unsafe!.find((d) => d.span.file === f))
          .find((x) => x !== undefined)
      : undefined;
    if (unsafe)
      unrunnable ??= `tollgate does not run it: ${relative(base.base, unsafe.span.file) || unsafe.span.file}:${unsafe.span.line}:${unsafe.span.column}: ${unsafe.message}`;
    if (unread.size > 0) {
      const d = descriptorFiles(base, c)
        .map((f) => unread.get(f))
        .find((x) => x !== undefined);
      if (d)
        unrunnable = `tollgate did not read ${relative(base.base, d.span.file) || d.span.file}, which Tomcat reads: ${d.message}`;
    }
    const state: StartState = reasons.length > 0 ? 'refused' : 'starts';
    const run: ContextPlan | null =
      state === 'starts' && unrunnable === null
        ? {
            host: c.host.name,
            contextPath: c.context.path,
            docBase: c.context.docBase,
            fileName: moduleName(c),
            sources: sourcesOf(base, c),
            filters,
            table,
            sessionTimeoutMinutes: c.merged.sessionTimeoutMinutes,
            maxActiveSessions: maxActiveSessionsOf(base, c.host, c.context),
            requestCharacterEncoding,
            mimeMappings: Object.fromEntries(c.merged.mimeMappings),
            welcomeFiles: [...c.merged.welcomeFiles],
            errorPages: mergeErrorPages(
              base.globalWebXml,
              c.host.webXmlDefault,
              c.context.webXml,
              c.context.tomcatWebXml ?? null,
            ),
            resources: resourcesOf(base, c.host, c.context),
          }
        : null;
    const planned: PlannedContext = {
      host: c.host.name,
      contextPath: c.context.path,
      name: c.context.name,
      docBase: c.context.docBase,
      state,
      reasons: unique(reasons),
      unrunnable: state === 'starts' ? unrunnable : null,
      run,
      resolved: c,
    };
    contexts.push(planned);
    hosts.get(c.host)!.contexts.push(planned);
    if (run) plans.push(run);
    else if (state === 'refused')
      skipped.push({
        host: planned.host,
        contextPath: planned.contextPath,
        state,
        reason: `Tomcat does not start it: ${reasonText(base, planned.reasons)}`,
        diagnostics: planned.reasons,
      });
    else
      skipped.push({
        host: planned.host,
        contextPath: planned.contextPath,
        state,
        reason: `Tomcat starts it, but tollgate cannot run it: ${unrunnable}`,
        diagnostics: [],
      });
  }
  const diagnostics = unique([
    ...server.reasons,
    ...connectors.flatMap((c) => c.reasons),
    ...contexts.flatMap((c) => c.reasons),
  ]);
  return {
    base,
    server,
    connectors,
    engineName: base.engineName,
    defaultHost: base.defaultHost,
    hosts: [...hosts.values()],
    contexts,
    plans,
    skipped,
    diagnostics,
  };
}

/** The planned context Tomcat's Mapper gives a request, passing over contexts that did not start; null: no context (404). */
export function routeOf(host: PlannedHost, uri: string): PlannedContext | null {
  let best: PlannedContext | null = null;
  for (const c of host.contexts) {
    if (c.state !== 'starts') continue;
    if (c.contextPath === '' || uri === c.contextPath || uri.startsWith(c.contextPath + '/')) {
      if (!best || c.contextPath.length > best.contextPath.length) best = c;
    }
  }
  return best;
}
