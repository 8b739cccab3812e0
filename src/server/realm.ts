/**
 * Users and roles from conf/tomcat-users.xml behind the Realm configured in
 * server.xml: a user database realm checking passwords with the configured
 * CredentialHandler, optionally wrapped in LockOutRealm semantics.
 */
import type { ConfigElement, Diagnostic, Located, TomcatUsers } from '../model/index.js';
import {
  getLogger,
  MemoryLockoutStore,
  type LockoutRecord,
  type LockoutStore,
  type StateBackend,
} from '../runtime/index.js';
import { createCredentialHandler, type CredentialHandler, type CredentialHandlerSettings } from './credentials.js';

export interface UserRecord {
  username: string;
  /** The stored credential (plain or a digest); null means the user can never log in. */
  password: string | null;
  roles: readonly string[];
}

/** An authenticated user. */
export interface Principal {
  readonly name: string;
  readonly roles: ReadonlySet<string>;
}

/** LockOutRealm's settings; Tomcat's defaults when omitted. */
export interface LockoutSettings {
  /** Failed attempts in a row before a user is locked (default 5). */
  failureCount?: number;
  /** Seconds a locked user stays locked after the last failure (default 300). */
  lockOutTime?: number;
  /** Users whose failures are remembered, least recently failed unlocked ones dropped first (default 1000); locked users stay until their lock expires. */
  cacheSize?: number;
  /** Compare user names for lockout case-sensitively (default false). */
  caseSensitive?: boolean;
}

export interface RealmOptions {
  users: TomcatUsers | readonly UserRecord[] | null;
  /** Default: plain-text comparison (MessageDigestCredentialHandler without algorithm). */
  credentialHandler?: CredentialHandler | CredentialHandlerSettings;
  /** LockOutRealm semantics; null or omitted: no lockout. */
  lockout?: LockoutSettings | null;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
  /** Where the failed-users table lives (default: in memory, bounded by cacheSize). */
  lockoutStore?: LockoutStore;
}

const logger = getLogger('org.apache.catalina.realm.LockOutRealm');

/** A user database realm, with LockOutRealm's protection when configured. */
export class UserRealm {
  private readonly users: Map<string, UserRecord>;
  private readonly handler: CredentialHandler;
  private readonly lockout: Required<LockoutSettings> | null;
  private readonly clock: () => number;
  /** The failed-users table: in memory by default, shared (Redis) when the server's state is. */
  private readonly failed: LockoutStore | null;
  private decoy: Promise<string> | null = null;

  constructor(options: RealmOptions) {
    this.users = new Map();
    for (const u of toRecords(options.users)) this.users.set(u.username, u);
    const h = options.credentialHandler;
    this.handler =
      h === undefined
        ? createCredentialHandler({ kind: 'message-digest', algorithm: null })
        : 'matches' in h
          ? h
          : createCredentialHandler(h);
    this.lockout =
      options.lockout == null
        ? null
        : { failureCount: 5, lockOutTime: 300, cacheSize: 1000, caseSensitive: false, ...options.lockout };
    this.clock = options.clock ?? Date.now;
    this.failed = this.lockout === null ? null : (options.lockoutStore ?? new MemoryLockoutStore(this.lockout));
  }

  /** The principal when the password matches and the user is not locked out, else null. */
  async authenticate(username: string | null, password: string | null): Promise<Principal | null> {
    if (username === null) return null;
    const user = this.users.get(username);
    let ok = false;
    if (password === null || user === undefined || user.password === null) {
      // The same work as for a real user, whatever is missing: timing does not tell whether the user
      // exists, and a failure (a header without a password counts as one) never costs less than a real
      // check, so failures cannot be sprayed cheaply to crowd records out of the lock-out table.
      this.decoy ??= this.handler.mutate(`decoy-${Math.random()}`);
      await this.handler.matches(password ?? '', await this.decoy);
    } else {
      ok = await this.handler.matches(password, user.password);
    }
    const principal = ok ? { name: user!.username, roles: new Set(user!.roles) } : null;
    return this.lockout === null ? principal : this.filterLocked(username, principal);
  }

  /** Whether the principal holds the role (`*` is not special here: callers check named roles). */
  hasRole(principal: Principal | null, role: string): boolean {
    return principal !== null && principal.roles.has(role);
  }

  /** Whether LockOutRealm currently refuses this user name (true while the table cannot be read: fail closed). */
  async isLocked(username: string): Promise<boolean> {
    if (this.lockout === null) return false;
    try {
      const rec = await this.failed!.get(this.key(username));
      return rec !== null && this.locks(rec, this.clock());
    } catch {
      return true;
    }
  }

  /** Whether a record holds a lock at `now` (Tomcat compares whole seconds since the last failure). */
  private locks(rec: LockoutRecord, now: number): boolean {
    return (
      rec.failures >= this.lockout!.failureCount &&
      Math.floor((now - rec.lastFailure) / 1000) < this.lockout!.lockOutTime
    );
  }

  /** Clears the failure record of a user (as a successful login does). */
  async unlock(username: string): Promise<void> {
    if (this.failed !== null) await this.failed.clear(this.key(username));
  }

  /**
   * Counts a failure, or lets a principal through unless its name is locked. A table that cannot be
   * reached refuses everyone (the caller answers 401): its outage is logged by the store, once.
   */
  private async filterLocked(username: string, principal: Principal | null): Promise<Principal | null> {
    const table = this.failed!;
    const key = this.key(username);
    const now = this.clock();
    let rec: LockoutRecord | null;
    try {
      // Failures are counted for unknown users too, so a lockout never tells whether a user exists.
      rec = principal === null ? await table.registerFailure(key, now, this.lockout!) : await table.get(key);
    } catch {
      return null;
    }
    if (rec !== null && this.locks(rec, now)) {
      logger.warning(`An attempt was made to authenticate the locked user [${username}]`);
      return null;
    }
    if (principal === null) return null;
    if (rec !== null) {
      try {
        await table.clear(key);
      } catch {
        return null;
      }
    }
    return principal;
  }

  private key(username: string): string {
    return this.lockout !== null && !this.lockout.caseSensitive ? username.toLowerCase() : username;
  }
}

function toRecords(users: RealmOptions['users']): UserRecord[] {
  if (users === null) return [];
  if (Array.isArray(users)) return [...(users as readonly UserRecord[])];
  return (users as TomcatUsers).users.map((u) => ({
    username: u.username.value,
    password: u.password?.value ?? null,
    roles: u.roles.map((r) => r.value),
  }));
}

// ---- server.xml <Realm> configuration

const PREFIXES = ['org.apache.catalina.realm.', 'org.vendor.container.realm.'];

function simpleName(className: Located<string> | null): string {
  const v = className?.value.trim() ?? '';
  for (const p of PREFIXES) if (v.startsWith(p)) return v.slice(p.length);
  return v;
}

/**
 * Reads the Engine's (or Host's) `<Realm>` elements into a realm over
 * `users`: LockOutRealm and CombinedRealm nest, UserDatabaseRealm and
 * MemoryRealm use tomcat-users.xml, `<CredentialHandler>` sets how passwords
 * are stored. Without any realm nobody can log in, as in Tomcat.
 */
export function realmFromConfig(
  users: TomcatUsers | null,
  realms: readonly ConfigElement[],
  options: { clock?: () => number; backend?: StateBackend } = {},
): { realm: UserRealm; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let lockout: LockoutSettings | null = null;
  let store: ConfigElement | null = null;

  const visit = (el: ConfigElement): void => {
    const name = simpleName(el.className);
    if (name === 'LockOutRealm') {
      lockout ??= {
        failureCount: intAttr(el, 'failureCount', 5, diagnostics),
        lockOutTime: intAttr(el, 'lockOutTime', 300, diagnostics),
        cacheSize: intAttr(el, 'cacheSize', 1000, diagnostics),
      };
    }
    if (name === 'LockOutRealm' || name === 'CombinedRealm') {
      for (const c of el.children) if (c.tag === 'Realm') visit(c);
      return;
    }
    if (name === 'UserDatabaseRealm' || name === 'MemoryRealm') {
      store ??= el;
      return;
    }
    if (name !== 'NullRealm') {
      diagnostics.push({
        ruleId: 'realm-unsupported',
        severity: 'warning',
        message: `tollgate serve reads users from conf/tomcat-users.xml only; the realm [${el.className?.value ?? '(no className)'}] is ignored and its users cannot log in.`,
        span: el.className?.span ?? el.span,
      });
    }
  };
  for (const r of realms) visit(r);

  if (realms.length === 0) {
    return { realm: new UserRealm({ users: null, clock: options.clock }), diagnostics };
  }
  const chosen = store as ConfigElement | null;
  const handlerEl = chosen?.children.find((c) => c.tag === 'CredentialHandler') ?? null;
  const handler = handlerEl === null ? undefined : credentialHandlerFrom(handlerEl, diagnostics);
  const settings = lockout as LockoutSettings | null;
  const lockoutStore =
    settings === null || options.backend === undefined
      ? undefined
      : options.backend.lockouts('engine', {
          failureCount: settings.failureCount ?? 5,
          lockOutTime: settings.lockOutTime ?? 300,
          cacheSize: settings.cacheSize ?? 1000,
        });
  const realm = new UserRealm({
    users: chosen === null ? null : users,
    credentialHandler: handler,
    lockout,
    clock: options.clock,
    lockoutStore,
  });
  return { realm, diagnostics };
}

/** A handler that refuses every password: a misconfigured handler must fail closed. */
const REFUSE_ALL: CredentialHandler = { matches: async () => false, mutate: async (s) => s };

function credentialHandlerFrom(el: ConfigElement, diagnostics: Diagnostic[]): CredentialHandler {
  const settings = handlerSettings(el, diagnostics);
  if (settings === null) return REFUSE_ALL;
  try {
    return createCredentialHandler(settings);
  } catch (err) {
    diagnostics.push({
      ruleId: 'credential-handler-invalid',
      severity: 'error',
      message: `${(err as Error).message}: no password can be checked, so every login fails.`,
      span: el.attributes['algorithm']?.span ?? el.span,
    });
    return REFUSE_ALL;
  }
}

function handlerSettings(el: ConfigElement, diagnostics: Diagnostic[]): CredentialHandlerSettings | null {
  const name = simpleName(el.className);
  const algorithm = el.attributes['algorithm']?.value ?? null;
  const optionalInt = (attr: string): number | undefined =>
    intValue(el, attr, diagnostics, 'the handler default applies') ?? undefined;
  if (name === 'MessageDigestCredentialHandler' || name === '') {
    const enc = el.attributes['encoding'];
    let encoding: 'utf-8' | 'latin1' = 'utf-8';
    if (enc !== undefined) {
      const v = enc.value.trim().toUpperCase().replace(/_/g, '-');
      if (v === 'ISO-8859-1' || v === 'LATIN1' || v === 'ISO8859-1') encoding = 'latin1';
      else if (v !== 'UTF-8' && v !== 'UTF8') {
        diagnostics.push({
          ruleId: 'credential-handler-invalid',
          severity: 'warning',
          message: `The encoding [${enc.value}] is not supported so the current setting of [UTF-8] will still be used`,
          span: enc.span,
        });
      }
    }
    return {
      kind: 'message-digest',
      algorithm,
      iterations: optionalInt('iterations'),
      saltLength: optionalInt('saltLength'),
      encoding,
      digestInRfc3112Order: el.attributes['digestInRfc3112Order']?.value.trim() === 'true',
    };
  }
  if (name === 'SecretKeyCredentialHandler') {
    return {
      kind: 'secret-key',
      ...(algorithm === null ? {} : { algorithm }),
      iterations: optionalInt('iterations'),
      saltLength: optionalInt('saltLength'),
      keyLength: optionalInt('keyLength'),
    };
  }
  if (name === 'NestedCredentialHandler') {
    const handlers: CredentialHandlerSettings[] = [];
    for (const c of el.children) {
      if (c.tag !== 'CredentialHandler') continue;
      const s = handlerSettings(c, diagnostics);
      if (s !== null) handlers.push(s);
    }
    if (handlers.length > 0) return { kind: 'nested', handlers };
  }
  diagnostics.push({
    ruleId: 'credential-handler-invalid',
    severity: 'error',
    message: `Unknown or empty CredentialHandler [${el.className?.value ?? ''}]: every login fails.`,
    span: el.className?.span ?? el.span,
  });
  return null;
}

function intAttr(el: ConfigElement, attr: string, dflt: number, diagnostics: Diagnostic[]): number {
  return intValue(el, attr, diagnostics, `Tomcat's default ${dflt} applies`) ?? dflt;
}

/** The attribute as an integer; null when absent or not an integer (then with a diagnostic). */
function intValue(el: ConfigElement, attr: string, diagnostics: Diagnostic[], fallback: string): number | null {
  const a = el.attributes[attr];
  if (a === undefined) return null;
  const v = a.value.trim();
  if (/^-?\d{1,9}$/.test(v)) return Number(v);
  diagnostics.push({
    ruleId: 'realm-invalid-attribute',
    severity: 'error',
    message: `${attr}="${a.value}" is not an integer; ${fallback}.`,
    span: a.span,
  });
  return null;
}
