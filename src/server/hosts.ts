/**
 * The virtual hosts of the running container: routing by Host header, and
 * the add/remove/start/stop operations behind the host manager. Every
 * mutation runs on one queue, so concurrent commands never lose or
 * duplicate a host and a snapshot taken on the queue is a state that existed.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CatalinaBase } from '../model/index.js';
import { getLogger } from '../runtime/index.js';

/** What a host is configured with (the parameters of the host manager's `add`). */
export interface HostSettings {
  /** Lower case, as Tomcat keeps host names. */
  name: string;
  /** Lower case, without duplicates. */
  aliases: string[];
  /** As written (relative to the base, or absolute). */
  appBase: string;
  autoDeploy: boolean;
  deployOnStartup: boolean;
  deployXML: boolean;
  copyXML: boolean;
  unpackWARs: boolean;
  /** The host manager's `manager` flag: the host should get the manager application at /manager. */
  manager: boolean;
}

export type HostState = 'started' | 'stopped';

/** A host of the registry. Immutable: a change makes a new object. */
export interface VirtualHost extends Readonly<Omit<HostSettings, 'aliases'>> {
  readonly aliases: readonly string[];
  /** Absolute, canonical appBase. */
  readonly appBasePath: string;
  readonly state: HostState;
  /** Whether conf/server.xml holds this host as it is (read from it, or persisted since). */
  readonly inServerXml: boolean;
}

export type HostEvent = { type: 'added' | 'removed' | 'started' | 'stopped'; host: VirtualHost };
/** Called on the mutation queue; an `added` or `started` listener that fails makes the operation fail. */
export type HostListener = (event: HostEvent) => void | Promise<void>;

/** Why an operation did not happen. */
export type HostFailure =
  | { code: 'invalid-name' }
  | { code: 'exists' }
  | { code: 'no-such-host' }
  | { code: 'already-started' }
  | { code: 'already-stopped' }
  | { code: 'outside-base'; path: string; expected: string }
  | { code: 'exposes-conf'; path: string; conf: string }
  | { code: 'appbase-create-failed'; path: string }
  /** The path cannot be checked at all (Java's canonicalisation fails: NUL, or longer than PATH_MAX). */
  | { code: 'path-check-error'; path: string; expected: string; reason: string }
  | { code: 'config-base-failed'; outside: { path: string; expected: string; reason?: string } | null }
  | { code: 'listener-failed'; error: unknown }
  /** The instances sharing the state store could not be told of the change (src/server/fleet.ts); `message` says so. */
  | { code: 'fleet-unreachable'; message: string };

export type HostResult = { ok: true; host: VirtualHost } | { ok: false; failure: HostFailure };

/** The `add` parameters; booleans default as the host manager defaults them. */
export interface AddHostInput {
  name: string | null;
  aliases?: string | readonly string[] | null;
  appBase?: string | null;
  autoDeploy?: boolean;
  deployOnStartup?: boolean;
  deployXML?: boolean;
  copyXML?: boolean;
  unpackWARs?: boolean;
  manager?: boolean;
}

export interface AddPolicy {
  /** Accept an appBase outside CATALINA_BASE (Tomcat accepts absolute ones; default false). */
  allowAppBaseOutsideBase?: boolean;
}

export interface HostRegistryOptions {
  /** CATALINA_BASE. */
  base: string;
  /** Engine name (`Catalina`): new hosts get conf/<engine>/<host>/. */
  engineName: string;
  defaultHost: string;
  hosts?: readonly (Partial<HostSettings> & { name: string; appBasePath?: string; state?: HostState })[];
  /** Directories no appBase may contain, equal or lie in (default: the base's conf/). */
  protectedDirs?: readonly string[];
}

const logger = getLogger('org.apache.catalina.manager.host.HostManagerServlet');

export class HostRegistry {
  readonly base: string;
  readonly engineName: string;
  readonly defaultHost: string;
  private readonly protectedDirs: readonly string[];
  private hosts: VirtualHost[] = [];
  private routes = new Map<string, VirtualHost>();
  private wildcards = new Map<string, VirtualHost>();
  private readonly listeners = new Set<HostListener>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: HostRegistryOptions) {
    if (options === null || typeof options !== 'object' || typeof options.base !== 'string')
      throw new TypeError('HostRegistry needs { base, engineName, defaultHost }');
    this.base = resolve(options.base);
    this.engineName = options.engineName;
    this.defaultHost = options.defaultHost.toLowerCase();
    this.protectedDirs = (options.protectedDirs ?? [join(this.base, 'conf')]).map((d) => resolve(d));
    for (const h of options.hosts ?? []) {
      const appBase = h.appBase ?? 'webapps';
      this.hosts.push({
        ...defaults(h.name),
        ...h,
        name: h.name.toLowerCase(),
        aliases: uniqueLower(h.aliases ?? []),
        appBase,
        appBasePath: h.appBasePath ?? resolve(this.base, appBase),
        state: h.state ?? 'started',
        inServerXml: true,
      });
    }
    this.reroute();
  }

  /** The hosts of a loaded CATALINA_BASE, with their server.xml settings. */
  static fromBase(base: CatalinaBase, options: Partial<Pick<HostRegistryOptions, 'protectedDirs'>> = {}): HostRegistry {
    const bool = (v: string | undefined, d: boolean): boolean =>
      v === undefined ? d : v.trim().toLowerCase() === 'true';
    return new HostRegistry({
      base: base.base,
      engineName: base.engineName,
      defaultHost: base.defaultHost,
      ...options,
      hosts: base.hosts.map((h) => {
        const a = h.def?.attributes ?? {};
        return {
          name: h.name,
          aliases: h.aliases,
          appBase: a['appBase']?.value ?? 'webapps',
          appBasePath: h.appBase,
          autoDeploy: bool(a['autoDeploy']?.value, true),
          deployOnStartup: bool(a['deployOnStartup']?.value, true),
          deployXML: bool(a['deployXML']?.value, true),
          copyXML: bool(a['copyXML']?.value, false),
          unpackWARs: bool(a['unpackWARs']?.value, true),
        };
      }),
    });
  }

  /** Every host, started or not, in the order they were defined or added. */
  list(): readonly VirtualHost[] {
    return this.hosts;
  }

  /** A host by name (case-insensitive). */
  get(name: string): VirtualHost | undefined {
    const n = name.toLowerCase();
    return this.hosts.find((h) => h.name === n);
  }

  /**
   * The started host serving a request's Host header (name or alias,
   * case-insensitive, port ignored, `*.domain` aliases matched), else the
   * default host when it is started, else null.
   */
  resolve(hostHeader: string | null | undefined): VirtualHost | null {
    if (hostHeader) {
      const name = stripPort(hostHeader).toLowerCase();
      const exact = this.routes.get(name);
      if (exact !== undefined) return exact;
      const dot = name.indexOf('.');
      if (dot >= 0) {
        const wild = this.wildcards.get(name.slice(dot));
        if (wild !== undefined) return wild;
      }
    }
    return this.routes.get(this.defaultHost) ?? null;
  }

  /** Registers a listener (the container deploys and undeploys contexts with it); returns the unsubscribe function. */
  subscribe(listener: HostListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `fn` on the mutation queue: no add/remove/start/stop runs while it does. */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Records that conf/server.xml now holds these hosts as they are (after a persist). */
  markPersisted(names: readonly string[]): void {
    const set = new Set(names);
    this.hosts = this.hosts.map((h) => (set.has(h.name) && !h.inServerXml ? { ...h, inServerXml: true } : h));
    this.reroute();
  }

  /** Adds and starts a host; creates its appBase and conf/<engine>/<host>/ when missing. */
  add(input: AddHostInput, policy: AddPolicy = {}): Promise<HostResult> {
    return this.exclusive(async () => {
      const raw = input.name ?? '';
      if (raw === '') return fail({ code: 'invalid-name' });
      const name = raw.toLowerCase();
      if (this.get(name) !== undefined) return fail({ code: 'exists' });
      const appBase = input.appBase == null || input.appBase === '' ? raw : input.appBase;
      const requested = isAbsolute(appBase) ? appBase : join(this.base, appBase);
      const base = await canonical(this.base);
      const unusable = unusablePath(requested);
      if (unusable !== null)
        return fail({ code: 'path-check-error', path: requested, expected: base, reason: unusable });
      const appBasePath = await canonical(requested);
      if (!(policy.allowAppBaseOutsideBase ?? false) && !within(appBasePath, base)) {
        return fail({ code: 'outside-base', path: appBasePath, expected: base });
      }
      for (const dir of this.protectedDirs) {
        const conf = await canonical(dir);
        if (within(appBasePath, conf) || within(conf, appBasePath))
          return fail({ code: 'exposes-conf', path: appBasePath, conf });
      }
      const configBase = await this.configBase(raw);
      if (typeof configBase !== 'string') return fail({ code: 'config-base-failed', outside: configBase });
      // Every check that can refuse runs before anything is created (Tomcat makes the appBase before it checks configBase).
      if (!plausibleHostName(raw)) return fail({ code: 'invalid-name' });
      try {
        await mkdir(appBasePath, { recursive: true });
      } catch {
        return fail({ code: 'appbase-create-failed', path: appBasePath });
      }
      try {
        await mkdir(configBase, { recursive: true });
      } catch {
        return fail({ code: 'config-base-failed', outside: null });
      }

      const host: VirtualHost = {
        name,
        aliases: uniqueLower(typeof input.aliases === 'string' ? input.aliases.split(/[, ]+/) : (input.aliases ?? [])),
        appBase,
        appBasePath,
        autoDeploy: input.autoDeploy ?? true,
        deployOnStartup: input.deployOnStartup ?? true,
        deployXML: input.deployXML ?? true,
        copyXML: input.copyXML ?? false,
        unpackWARs: input.unpackWARs ?? true,
        manager: input.manager ?? false,
        state: 'started',
        inServerXml: false,
      };
      this.hosts = [...this.hosts, host];
      this.reroute();
      const error = await this.emit({ type: 'added', host });
      if (error !== null) {
        this.hosts = this.hosts.filter((h) => h !== host);
        this.reroute();
        return fail({ code: 'listener-failed', error });
      }
      return { ok: true, host } as const;
    });
  }

  /** Removes a host (never its files). */
  remove(name: string | null): Promise<HostResult> {
    return this.exclusive(async () => {
      const host = this.lookup(name);
      if (!('name' in host)) return host;
      this.hosts = this.hosts.filter((h) => h !== host);
      this.reroute();
      await this.emit({ type: 'removed', host });
      return { ok: true, host } as const;
    });
  }

  /** Puts a stopped host back into routing. */
  start(name: string | null): Promise<HostResult> {
    return this.transition(name, 'started');
  }

  /** Takes a host out of routing; its requests then go to the default host, as in Tomcat's mapper. */
  stop(name: string | null): Promise<HostResult> {
    return this.transition(name, 'stopped');
  }

  private transition(name: string | null, to: HostState): Promise<HostResult> {
    return this.exclusive(async () => {
      const host = this.lookup(name);
      if (!('name' in host)) return host;
      if (host.state === to) return fail({ code: to === 'started' ? 'already-started' : 'already-stopped' });
      const next: VirtualHost = { ...host, state: to };
      this.hosts = this.hosts.map((h) => (h === host ? next : h));
      this.reroute();
      const error = await this.emit({ type: to, host: next });
      if (error !== null && to === 'started') {
        this.hosts = this.hosts.map((h) => (h === next ? host : h));
        this.reroute();
        return fail({ code: 'listener-failed', error });
      }
      return { ok: true, host: next } as const;
    });
  }

  private lookup(name: string | null): VirtualHost | { ok: false; failure: HostFailure } {
    if (name === null || name === '') return fail({ code: 'invalid-name' });
    return this.get(name) ?? fail({ code: 'no-such-host' });
  }

  /** conf/<engine>/<host>/ when it lies in conf/; else why not (the path outside conf/ when that is the reason). */
  private async configBase(name: string): Promise<string | { path: string; expected: string; reason?: string }> {
    const conf = join(this.base, 'conf');
    const dir = join(conf, this.engineName, name);
    const realConf = await canonical(conf);
    const unusable = unusablePath(dir);
    if (unusable !== null) return { path: dir, expected: realConf, reason: unusable };
    const realDir = await canonical(dir);
    if (!within(realDir, realConf)) return { path: realDir, expected: realConf };
    return realDir;
  }

  private async emit(event: HostEvent): Promise<unknown> {
    let first: unknown = null;
    for (const l of this.listeners) {
      try {
        await l(event);
      } catch (err) {
        logger.severe(`A listener failed on host [${event.host.name}] ${event.type}`, err);
        first ??= err ?? new Error('listener failed');
      }
    }
    return first;
  }

  private reroute(): void {
    const routes = new Map<string, VirtualHost>();
    const wildcards = new Map<string, VirtualHost>();
    const started = this.hosts.filter((h) => h.state === 'started');
    // As Tomcat's Mapper.addHost, host by host in the order they were registered: a name already mapped (another
    // host's name or alias) keeps routing to that host, and the newcomer is not mapped at all, its aliases
    // included ("Do not add aliases, as removeHost(hostName) won't be able to remove them"); an alias already
    // mapped is skipped.
    for (const h of started) {
      if (!add(h.name, h)) continue;
      for (const a of h.aliases) add(a, h);
    }
    this.routes = routes;
    this.wildcards = wildcards;

    function add(key: string, h: VirtualHost): boolean {
      const map = key.startsWith('*.') ? wildcards : routes;
      const k = key.startsWith('*.') ? key.slice(1) : key;
      if (map.has(k)) return false;
      map.set(k, h);
      return true;
    }
  }
}

function fail(failure: HostFailure): { ok: false; failure: HostFailure } {
  return { ok: false, failure };
}

function defaults(name: string): Omit<HostSettings, 'name'> {
  return {
    aliases: [],
    appBase: name,
    autoDeploy: true,
    deployOnStartup: true,
    deployXML: true,
    copyXML: false,
    unpackWARs: true,
    manager: false,
  };
}

function uniqueLower(list: Iterable<string>): string[] {
  const out: string[] = [];
  for (const a of list) {
    const v = a.trim().toLowerCase();
    if (v !== '' && !out.includes(v)) out.push(v);
  }
  return out;
}

/** `host:port`, `[v6]:port` or a bare name, without the port. */
function stripPort(host: string): string {
  const h = host.trim();
  if (h.startsWith('[')) {
    const close = h.indexOf(']');
    return close < 0 ? h : h.slice(0, close + 1);
  }
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/** Why Java's File.getCanonicalFile would fail for `path` (its IOException message), or null. */
function unusablePath(path: string): string | null {
  if (path.includes('\0')) return 'Invalid file path';
  // Linux PATH_MAX, counted with the terminating NUL as realpath(3) does.
  if (Buffer.byteLength(path) + 1 > 4096) return 'File name too long';
  return null;
}

/**
 * Whether a name can be a host at all. Tomcat adds `a/b`, `a\b`, `a b`,
 * `.` and `..` (with an appBase of their own); none can ever match a Host
 * header, and the slashes and dots turn the name into a path under
 * conf/<engine>/, so tollgate refuses them as invalid names.
 */
function plausibleHostName(name: string): boolean {
  return name !== '.' && name !== '..' && !/[\x00-\x20\x7f/\\]/.test(name);
}

/** Whether `path` is `dir` or lies inside it (path components, not string prefixes). */
function within(path: string, dir: string): boolean {
  if (path === dir) return true;
  const rel = relative(dir, path);
  return rel !== '' && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** Like Java's getCanonicalFile: symlinks of the existing part resolved, the missing rest appended. */
async function canonical(path: string): Promise<string> {
  const abs = resolve(path);
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = await realpath(cur);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return abs;
      missing.push(cur.slice(parent.length).replace(/^[/\\]/, ''));
      cur = parent;
    }
  }
}
