import { realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type {
  CatalinaBase,
  ContextDef,
  Diagnostic,
  FileScope,
  HostDef,
  LoadedContext,
  LoadedHost,
  PropertiesFile,
  SetenvFile,
  SourceFile,
  WebXml,
} from '../model/index.js';
import { fileStartSpan } from '../model/index.js';
import { contextBaseName, isContextPathValid, parseContextName } from './context-name.js';
import { parsePropertiesFile } from './properties-file.js';
import { parseSetenv } from './setenv.js';
import {
  acceptConfigBytes,
  entriesInScope,
  existsInScope,
  fileScope,
  isDirInScope,
  isFileInScope,
  listInScope,
  placeOf,
  readInScope,
  refused,
  scopeOf,
  type ReadResult,
} from './files.js';
import { parseContextXml, parseServerXml, parseTomcatUsers } from './server.js';
import { parseWebXml, type WebXmlOptions } from './webxml.js';

interface Reader {
  /** Where files may be read from (the file-access layer's scope). */
  scope: FileScope;
  files: Map<string, SourceFile>;
  diagnostics: Diagnostic[];
  partition?: BasePartition;
  overlay?: ReadonlyMap<string, Uint8Array>;
  cache?: ParseCache;
  /** The properties of this load as a string, for cache keys (set when a cache is given). */
  propertiesKey?: string;
}

/**
 * Parse results kept between loads of the same base (the language server loads it again on every
 * keystroke): a file whose bytes, properties and options are those of the last load is not parsed
 * again. The models are read-only downstream, so sharing them between loads is safe.
 */
export class ParseCache {
  private readonly entries = new Map<string, { bytes: Uint8Array; key: string; value: unknown }>();

  /** `parse()`'s result for these bytes of `path`, from the last load when nothing changed. */
  get<T>(path: string, bytes: Uint8Array, key: string, parse: () => T): T {
    const hit = this.entries.get(path);
    if (hit !== undefined && hit.key === key && Buffer.compare(hit.bytes, bytes) === 0) return hit.value as T;
    const value = parse();
    this.entries.set(path, { bytes, key, value });
    return value;
  }
}

function parsed<T>(r: Reader, path: string, bytes: Uint8Array, options: string, parse: () => T): T {
  return r.cache ? r.cache.get(path, bytes, `${options}\0${r.propertiesKey}`, parse) : parse();
}

/**
 * One part of a base split between worker threads: every part discovers every
 * context the same way, but reads the application descriptors of its own
 * contexts only (candidate contexts are dealt round-robin in discovery order).
 */
export interface BasePartition {
  index: number;
  count: number;
  /** Filled by loadBase: names of hosts that deploy at least one context, in any part. */
  hostsWithContexts: Set<string>;
  /** Filled by loadBase: application files this part read that no context of another part reads. */
  ownFiles: Set<string>;
}

/** Per host: which candidate contexts this part reads, and which docBases more than one candidate shares. */
class PartTracker {
  private seq = 0;
  private readonly docBases = new Map<string, number>();
  private readonly mine: string[] = [];

  constructor(private readonly partition: BasePartition | undefined) {}

  /** Counts a candidate context at `docBase`; true when this part reads it. */
  claim(docBase: string): boolean {
    if (!this.partition) return true;
    this.docBases.set(docBase, (this.docBases.get(docBase) ?? 0) + 1);
    const own = this.seq++ % this.partition.count === this.partition.index;
    if (own) this.mine.push(docBase);
    return own;
  }

  finish(host: LoadedHost, anyContext: boolean): void {
    const p = this.partition;
    if (!p) return;
    if (anyContext) p.hostsWithContexts.add(host.name);
    for (const d of this.mine) {
      if (this.docBases.get(d) !== 1) continue;
      for (const f of [
        join(d, 'WEB-INF', 'web.xml'),
        join(d, 'WEB-INF', 'tomcat-web.xml'),
        join(d, 'META-INF', 'context.xml'),
      ])
        p.ownFiles.add(f);
    }
  }
}

/**
 * How readBytes treats a path that cannot be looked up. `optional`: an application's own optional
 * descriptors (META-INF/context.xml, WEB-INF/tomcat-web.xml, logging.properties), nearly always
 * absent: a path that cannot be looked up (EACCES, ENAMETOOLONG...) is absent, as it is to Tomcat's
 * File.exists(). Otherwise the failure is reported.
 */
type Presence = 'unknown' | 'optional';

/** Reads a file, or null when absent, unreadable or too large (then with a diagnostic). */
function readBytes(path: string, r: Reader, presence: Presence = 'unknown'): Uint8Array | null {
  // An editor's unsaved buffer stands in for the file (it may not exist on disk yet).
  const unsaved = r.overlay?.get(path);
  const result = unsaved !== undefined ? acceptConfigBytes(path, unsaved) : readFromDisk(path, presence, r.scope);
  if (result === null) return null;
  if ('bytes' in result) return result.bytes;
  if ('diagnostic' in result) r.diagnostics.push(result.diagnostic);
  return null;
}

function readFromDisk(path: string, presence: Presence, scope: FileScope): ReadResult | null {
  if (presence === 'optional') {
    const place = placeOf(path, scope);
    if ('absent' in place || ('refused' in place && place.lookup)) return null;
  }
  return readInScope(path, scope);
}

/**
 * Reads a descriptor in a place Tomcat reads as a web-app (conf/web.xml, web.xml.default,
 * WEB-INF/web.xml, WEB-INF/tomcat-web.xml). What Tomcat ignores there (another root element,
 * a prefixed root without namespace processing, a <web-fragment>) is reported and read as absent.
 */
function readWebXml(
  path: string,
  properties: Record<string, string>,
  r: Reader,
  options: WebXmlOptions = {},
  presence?: Presence,
): WebXml | null {
  const bytes = readBytes(path, r, presence ?? 'unknown');
  if (!bytes) return null;
  const { webXml, source, diagnostics } = parsed(
    r,
    path,
    bytes,
    options.namespaceAware === false ? 'web:plain' : 'web:ns',
    () => parseWebXml(bytes, path, properties, options),
  );
  r.files.set(path, source);
  r.diagnostics.push(...diagnostics);
  if (webXml?.root === 'web-fragment') {
    r.diagnostics.push({
      ruleId: 'xml-wrong-root',
      severity: 'error',
      message:
        "A <web-fragment> is read from a JAR's META-INF/web-fragment.xml only: here Tomcat expects <web-app> and ignores every element of this file, so the application starts without its filters and mappings (observed on Tomcat 10.1.60).",
      // The start of the root's start tag: `<web-fragment`.
      span: {
        ...webXml.span,
        endLine: webXml.span.line,
        endColumn: webXml.span.column + 13,
        endOffset: webXml.span.offset + 13,
      },
    });
    return null;
  }
  // A snippet without <web-app> is read by parseWebXml for its own checks; Tomcat ignores it.
  if (webXml && diagnostics.some((d) => d.ruleId === 'xml-wrong-root')) return null;
  return webXml;
}

function readContextFile(
  path: string,
  properties: Record<string, string>,
  r: Reader,
  presence: Presence = 'unknown',
): ContextDef | null {
  const bytes = readBytes(path, r, presence);
  if (!bytes) return null;
  const { context, source, diagnostics } = parsed(r, path, bytes, 'context', () =>
    parseContextXml(bytes, path, properties),
  );
  r.files.set(path, source);
  r.diagnostics.push(...diagnostics);
  return context;
}

function readPropertiesFile(path: string, r: Reader): PropertiesFile | null {
  return readPropertiesFileIf(path, r, 'unknown');
}

function readPropertiesFileIf(path: string, r: Reader, presence: Presence = 'optional'): PropertiesFile | null {
  const bytes = readBytes(path, r, presence);
  if (!bytes) return null;
  const { properties, source } = parsePropertiesFile(bytes, path);
  r.files.set(path, source);
  return properties;
}

/** catalina.sh sources $CATALINA_BASE/bin/setenv.sh when it is readable, else $CATALINA_HOME/bin/setenv.sh. */
function readSetenv(base: string, home: string, r: Reader): SetenvFile | null {
  for (const dir of base === home ? [base] : [base, home]) {
    const path = join(dir, 'bin', 'setenv.sh');
    const bytes = readBytes(path, r, 'optional');
    if (!bytes) continue;
    const { setenv, source } = parseSetenv(bytes, path);
    r.files.set(path, source);
    return setenv;
  }
  return null;
}

/** Shared (parseWebXml only reads them). */
const NAMESPACE_AWARE: WebXmlOptions = Object.freeze({ namespaceAware: true });
const NOT_NAMESPACE_AWARE: WebXmlOptions = Object.freeze({ namespaceAware: false });

function flag(def: HostDef | null, name: string, fallback: boolean): boolean {
  const v = def?.attributes[name]?.value;
  return v === undefined ? fallback : v.trim().toLowerCase() === 'true';
}

/**
 * Reads a whole CATALINA_BASE: server.xml, the global web.xml (falling back to
 * CATALINA_HOME's), tomcat-users.xml, and for every host its web.xml.default
 * and its contexts, found as Tomcat's HostConfig finds them. Never throws;
 * what cannot be read becomes a diagnostic and the rest is still read.
 */
export function loadBase(opts: {
  base: string;
  home?: string;
  /** Where files may be read from; default: the base and home, nothing outside them. */
  scope?: FileScope;
  /** With the default scope: follow links and paths out of the base and home (a trusted installation only). */
  followSymlinks?: boolean;
  partition?: BasePartition;
  overlay?: ReadonlyMap<string, Uint8Array>;
  cache?: ParseCache;
}): CatalinaBase {
  const base = resolve(opts.base);
  const home = resolve(opts.home ?? opts.base);
  const scope = opts.scope ?? fileScope([base, home], { followSymlinks: opts.followSymlinks === true });
  const r: Reader = {
    scope,
    files: new Map(),
    diagnostics: [],
    ...(opts.partition ? { partition: opts.partition } : {}),
    ...(opts.overlay ? { overlay: opts.overlay } : {}),
    ...(opts.cache ? { cache: opts.cache } : {}),
  };
  const result: CatalinaBase = {
    base,
    home,
    serverXml: null,
    globalWebXml: null,
    users: null,
    engineName: 'Catalina',
    defaultHost: 'localhost',
    hosts: [],
    properties: {},
    files: r.files,
    diagnostics: r.diagnostics,
    scope,
  };
  if (!isDirInScope(base, scope)) {
    r.diagnostics.push({
      ruleId: 'base-unreadable',
      severity: 'error',
      message: `${base} is not a readable directory.`,
      span: fileStartSpan(base),
    });
    return result;
  }

  const properties = systemProperties(base, home);
  // Tomcat reads conf/catalina.properties of the base only (else the copy inside catalina.jar),
  // and registers each entry as a system property: those are what `${...}` sees.
  const propsPath = join(base, 'conf', 'catalina.properties');
  const propsBytes = readBytes(propsPath, r);
  if (propsBytes) {
    const { properties: file, source } = parsePropertiesFile(propsBytes, propsPath);
    r.files.set(propsPath, source);
    result.catalinaProperties = file;
    for (const e of file.entries) properties[e.key.value] = e.value.value;
    Object.assign(properties, systemProperties(base, home));
  }
  result.properties = properties;
  if (r.cache) r.propertiesKey = JSON.stringify(properties);
  result.loggingProperties = readPropertiesFile(join(base, 'conf', 'logging.properties'), r);
  result.setenv = readSetenv(base, home, r);

  const serverPath = join(base, 'conf', 'server.xml');
  const serverBytes = readBytes(serverPath, r);
  if (serverBytes) {
    const { serverXml, source, diagnostics } = parsed(r, serverPath, serverBytes, 'server', () =>
      parseServerXml(serverBytes, serverPath, properties),
    );
    r.files.set(serverPath, source);
    r.diagnostics.push(...diagnostics);
    result.serverXml = serverXml;
  } else if (isDirInScope(join(base, 'conf'), scope) && !existsInScope(serverPath, scope)) {
    r.diagnostics.push({
      ruleId: 'server-xml-missing',
      severity: 'info',
      message:
        'No conf/server.xml: assuming Tomcat\'s defaults (Engine "Catalina", host "localhost" with appBase "webapps").',
      span: fileStartSpan(serverPath),
    });
  }

  // Every context inherits conf/context.xml (Tomcat reads the base's only).
  result.contextXml = readContextFile(join(base, 'conf', 'context.xml'), properties, r);

  // Only the base's conf/web.xml counts: Tomcat 10.1 does not look in CATALINA_HOME
  // (observed: with it only in the home, the log says "No global web.xml found").
  result.globalWebXml = readWebXml(join(base, 'conf', 'web.xml'), properties, r);

  const usersPath = usersFile(result, base, scope);
  const usersBytes = usersPath ? readBytes(usersPath, r) : null;
  if (usersPath && usersBytes) {
    const { users, source, diagnostics } = parsed(r, usersPath, usersBytes, 'users', () =>
      parseTomcatUsers(usersBytes, usersPath, properties),
    );
    r.files.set(usersPath, source);
    r.diagnostics.push(...diagnostics);
    result.users = users;
  }

  const engine = result.serverXml?.services.find((s) => s.engine)?.engine ?? null;
  result.engineName = engine?.name?.value ?? 'Catalina';
  result.defaultHost = engine?.defaultHost?.value ?? 'localhost';
  const hostDefs: (HostDef | null)[] = engine ? engine.hosts : [null];
  if (engine && engine.hosts.length === 0) {
    r.diagnostics.push({
      ruleId: 'server-no-host',
      severity: 'error',
      message: 'The <Engine> declares no <Host>: Tomcat would serve nothing.',
      span: engine.span,
    });
  }
  for (const def of hostDefs) result.hosts.push(loadHost(result, def, properties, r));
  return result;
}

/** The system properties Tomcat's start script always sets, which `${...}` may name. */
function systemProperties(base: string, home: string): Record<string, string> {
  return {
    'catalina.base': base,
    'catalina.home': home,
    // catalina.sh: -Djava.io.tmpdir="$CATALINA_TMPDIR", which defaults to $CATALINA_BASE/temp.
    'java.io.tmpdir': join(base, 'temp'),
    'file.separator': '/',
    'path.separator': ':',
    'line.separator': '\n',
  };
}

function usersFile(result: CatalinaBase, base: string, scope: FileScope): string | null {
  const resource = result.serverXml?.globalResources.find(
    (g) =>
      g.attributes['pathname'] &&
      /UserDatabase/.test(g.attributes['type']?.value ?? g.attributes['factory']?.value ?? ''),
  );
  const pathname = resource?.attributes['pathname']?.value ?? 'conf/tomcat-users.xml';
  const path = isAbsolute(pathname) ? pathname : join(base, pathname);
  return isFileInScope(path, scope) || 'refused' in placeOf(path, scope) ? path : null;
}

function loadHost(
  result: CatalinaBase,
  def: HostDef | null,
  properties: Record<string, string>,
  r: Reader,
): LoadedHost {
  const name = def?.name.value ?? 'localhost';
  const appBaseAttr = def?.appBase?.value ?? 'webapps';
  const appBase = isAbsolute(appBaseAttr) ? appBaseAttr : join(result.base, appBaseAttr);
  // xmlBase replaces conf/<Engine>/<Host> for context files and web.xml.default alike.
  const xmlBase = def?.attributes['xmlBase']?.value;
  const configBase = xmlBase ? resolve(result.base, xmlBase) : join(result.base, 'conf', result.engineName, name);
  const host: LoadedHost = {
    engineName: result.engineName,
    name,
    aliases: def?.aliases.map((a) => a.value) ?? [],
    appBase,
    def,
    webXmlDefault: readWebXml(join(configBase, 'web.xml.default'), properties, r),
    contexts: [],
  };
  const contextDefault = readContextFile(join(configBase, 'context.xml.default'), properties, r);
  if (contextDefault) host.contextDefault = contextDefault;
  const deployXML = flag(def, 'deployXML', true);
  const unpackWARs = flag(def, 'unpackWARs', true);
  // Without deployOnStartup, autoDeploy still deploys the same applications moments later.
  const deploys = flag(def, 'deployOnStartup', true) || flag(def, 'autoDeploy', true);
  const ignore = deployIgnore(def);
  const taken = new Set<string>();
  const add = (ctx: LoadedContext): void => {
    if (taken.has(ctx.name)) return;
    taken.add(ctx.name);
    host.contexts.push(ctx);
  };
  // In a partial base (worker threads), another part reads this candidate: only its name is taken here.
  const part = new PartTracker(r.partition);
  const done = (): LoadedHost => {
    part.finish(host, taken.size > 0);
    return sortContexts(host);
  };
  // The Context's xmlNamespaceAware decides whether prefixed elements of its descriptors count.
  const nsOf = (c: ContextDef | null): WebXmlOptions =>
    c?.attributes['xmlNamespaceAware']?.value.trim().toLowerCase() === 'true' ? NAMESPACE_AWARE : NOT_NAMESPACE_AWARE;
  // A context of `base` (path, version, name), its WEB-INF/web.xml and WEB-INF/tomcat-web.xml read in that order.
  // `webInf` is the normalised docBase/WEB-INF (no trailing "/"). Tomcat merges tomcat-web.xml between web.xml and the defaults.
  const context = (
    base: { path: string; version: string; name: string },
    docBase: string,
    source: LoadedContext['source'],
    contextDef: ContextDef | null,
    webInf: string,
  ): LoadedContext => {
    const ctx: LoadedContext = {
      path: base.path,
      version: base.version,
      name: base.name,
      docBase,
      source,
      contextDef,
      webXml: readWebXml(`${webInf}${sep}web.xml`, properties, r, nsOf(contextDef)),
    };
    const t = readWebXml(`${webInf}${sep}tomcat-web.xml`, properties, r, nsOf(contextDef), 'optional');
    if (t) ctx.tomcatWebXml = t;
    // JULI's ClassLoaderLogManager gives the application its own configuration from this file.
    const logging = readPropertiesFileIf(`${webInf}${sep}classes${sep}logging.properties`, r);
    if (logging) ctx.loggingProperties = logging;
    return ctx;
  };
  const packedWar = (war: string): void => {
    r.diagnostics.push({
      ruleId: 'war-not-read',
      severity: 'info',
      message: `${basename(war)} is a packed WAR: tollgate reads unpacked applications only, so its WEB-INF/web.xml was not checked.`,
      span: fileStartSpan(war),
    });
  };

  // <Context> elements inside <Host> in server.xml are configured first.
  for (const c of def?.contexts ?? []) {
    const path = normalisePath(c.path?.value ?? '');
    const version = c.attributes['webappVersion']?.value ?? '';
    const docBase = resolveDocBase(c.docBase?.value, appBase, contextBaseName(path, version));
    if (!part.claim(docBase)) {
      taken.add(contextBaseName(path, version));
      continue;
    }
    add(
      context(
        { path, version, name: contextBaseName(path, version) },
        docBase,
        'server-xml',
        c,
        join(docBase, 'WEB-INF'),
      ),
    );
  }
  if (!deploys) return done();
  // Then HostConfig's order: context descriptors, WARs, directories. deployIgnore filters appBase only.
  for (const f of listInScope(configBase, r.scope)) {
    if (!f.toLowerCase().endsWith('.xml')) continue;
    const file = join(configBase, f);
    const cn = parseContextName(f.slice(0, -4));
    if (taken.has(cn.name) || !isContextPathValid(cn.path)) continue;
    if (!isFileInScope(file, r.scope)) {
      notFollowed(file, r);
      // Tomcat's HostConfig deploys every *.xml name there without asking what it is: a directory fails its
      // context, a FIFO blocks the deployer waiting for a writer. tollgate never reads one; it says so.
      if (existsInScope(file, r.scope)) {
        const d = readInScope(file, r.scope);
        if ('diagnostic' in d && !r.diagnostics.some((x) => x.span.file === file && x.ruleId === 'file-unreadable'))
          r.diagnostics.push(d.diagnostic);
      }
      continue;
    }
    const c = readContextFile(file, properties, r);
    if (!c) continue;
    // A docBase inside appBase is ignored (Tomcat warns "will be ignored"): the application is appBase/<name>.
    const given = c.docBase?.value ? resolveDocBase(c.docBase.value, appBase, cn.name) : null;
    const docBase = given && !isInside(given, appBase) ? given : join(appBase, cn.name);
    if (!part.claim(docBase)) {
      taken.add(cn.name);
      continue;
    }
    if (docBase.toLowerCase().endsWith('.war') && isFileInScope(docBase, r.scope)) {
      packedWar(docBase);
      add({ ...cn, docBase, source: 'context-file', contextDef: c, webXml: null });
      continue;
    }
    add(context(cn, docBase, 'context-file', c, join(docBase, 'WEB-INF')));
  }
  const entries = entriesInScope(appBase, r.scope).filter(
    (e) => !/^(?:META-INF|WEB-INF)$/i.test(e.name) && !ignore?.test(e.name),
  );
  // Tomcat follows symbolic links in appBase, so a link to a directory is an application too: when it stays in scope.
  for (const e of entries) if (e.isSymbolicLink()) notFollowed(join(appBase, e.name), r);
  const dirs = new Set(
    entries
      .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDirInScope(join(appBase, e.name), r.scope)))
      .map((e) => e.name),
  );
  for (const e of entries) {
    const f = e.name;
    if (
      !f.toLowerCase().endsWith('.war') ||
      !(e.isFile() || (e.isSymbolicLink() && isFileInScope(join(appBase, f), r.scope)))
    )
      continue;
    const cn = parseContextName(f.slice(0, -4));
    // With unpackWARs (the default) the directory of the same name is the expanded WAR: read that instead.
    if (taken.has(cn.name) || (unpackWARs && dirs.has(cn.name)) || !isContextPathValid(cn.path)) continue;
    if (!part.claim(join(appBase, f))) {
      taken.add(cn.name);
      continue;
    }
    packedWar(join(appBase, f));
    add({ ...cn, docBase: join(appBase, f), source: 'app-dir', contextDef: null, webXml: null });
  }
  // appBase normalised once: a directory entry's name has no "/" and is never "." or "..", so appending it is what join does.
  const appBaseDir = join(appBase, '.');
  for (const f of [...dirs].sort()) {
    const dir = appBaseDir.endsWith(sep) ? appBaseDir + f : `${appBaseDir}${sep}${f}`;
    const cn = parseContextName(f);
    if (taken.has(cn.name) || !isContextPathValid(cn.path)) continue;
    if (!part.claim(dir)) {
      taken.add(cn.name);
      continue;
    }
    const contextDef = deployXML
      ? readContextFile(`${dir}${sep}META-INF${sep}context.xml`, properties, r, 'optional')
      : null;
    add(context(cn, dir, 'app-dir', contextDef, `${dir}${sep}WEB-INF`));
  }
  return done();
}

/** A path in a folder tollgate lists that the scope refuses (a link out of the base, a loop): said, once. */
function notFollowed(path: string, r: Reader): void {
  const place = placeOf(path, r.scope);
  if (!('refused' in place) || r.diagnostics.some((d) => d.span.file === path && d.ruleId === 'file-unreadable'))
    return;
  const d = refused(path, place.refused);
  if ('diagnostic' in d) r.diagnostics.push(d.diagnostic);
}

function sortContexts(host: LoadedHost): LoadedHost {
  host.contexts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return host;
}

/** The host's deployIgnore, matched against whole names as Java's Matcher.matches does. */
function deployIgnore(def: HostDef | null): RegExp | null {
  const pattern = def?.attributes['deployIgnore']?.value;
  if (!pattern) return null;
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
}

/** Whether a path lies in a directory (or is it), after following symbolic links where they exist. */
function isInside(path: string, dir: string): boolean {
  const rel = relative(realOrSelf(dir), realOrSelf(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function normalisePath(p: string): string {
  if (p === '/' || p === '') return '';
  return p.startsWith('/') ? p.replace(/\/+$/, '') : '/' + p.replace(/\/+$/, '');
}

function resolveDocBase(docBase: string | undefined, appBase: string, baseName: string): string {
  if (!docBase) return join(appBase, baseName);
  return isAbsolute(docBase) ? docBase : join(appBase, docBase);
}

/**
 * Discovers the contexts of a host created at run time (the host manager's
 * add): its appBase directories and context files, as for a host of server.xml.
 */
export function loadAddedHost(
  base: CatalinaBase,
  host: { name: string; aliases: readonly string[]; appBase: string },
): LoadedHost {
  const r: Reader = { scope: scopeOf(base), files: base.files, diagnostics: [] };
  const at = fileStartSpan(join(base.base, 'conf', 'server.xml'));
  const def: HostDef = {
    name: { value: host.name, span: at },
    appBase: { value: host.appBase, span: at },
    aliases: host.aliases.map((a) => ({ value: a, span: at })),
    attributes: {},
    contexts: [],
    valves: [],
    listeners: [],
    span: at,
  };
  const loaded = loadHost(base, def, base.properties, r);
  base.diagnostics.push(...r.diagnostics);
  return loaded;
}
