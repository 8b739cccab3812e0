import type { CatalinaBase, ConfigElement, Located, UserDef } from '../../model/index.js';
import type { LintContext } from '../types.js';
import { layersOf } from './webapp.js';

// Two rules ask: answered once per run (one contexts array per run) instead of testing every context twice.
const deployed = new WeakMap<LintContext['contexts'], boolean>();

/** Whether the base deploys the host manager (a context named host-manager, or whose docBase is one). */
export function hostManagerDeployed(ctx: LintContext): boolean {
  let answer = deployed.get(ctx.contexts);
  if (answer === undefined) {
    // endsWith, as /host-manager\/?$/ did: "$" without the m flag is the end of the text only.
    answer = ctx.base.hosts.some((h) =>
      h.contexts.some(
        (c) => c.path === '/host-manager' || c.docBase.endsWith('host-manager') || c.docBase.endsWith('host-manager/'),
      ),
    );
    deployed.set(ctx.contexts, answer);
  }
  return answer;
}

const inUse = new WeakMap<LintContext['contexts'], ReadonlySet<string> | null>();

/**
 * The roles some deployed application's descriptors name (a <security-role> or an <auth-constraint>), worked out
 * once per run; null when that cannot be known (a packed WAR whose descriptor is not read).
 */
export function rolesInUse(ctx: LintContext): ReadonlySet<string> | null {
  if (inUse.has(ctx.contexts)) return inUse.get(ctx.contexts)!;
  let used: Set<string> | null = null;
  if (!ctx.base.diagnostics.some((d) => d.ruleId === 'war-not-read')) {
    used = new Set<string>();
    const seen = new Set<object>();
    for (const c of ctx.contexts) {
      for (const w of layersOf(ctx.base, c)) {
        if (seen.has(w)) continue;
        seen.add(w);
        for (const r of w.securityRoles ?? []) used.add(r.value);
        for (const sc of w.securityConstraints ?? []) for (const r of sc.authRoles ?? []) used.add(r.value);
      }
    }
  }
  inUse.set(ctx.contexts, used);
  return used;
}

/**
 * The roles of Tomcat's own administration applications (manager, host manager, their Tomcat 6 names):
 * a user holding one can deploy code the moment such an application is deployed, so its grant always counts.
 */
export const ADMIN_ROLES: ReadonlySet<string> = new Set([
  'manager-gui',
  'manager-script',
  'manager-jmx',
  'manager-status',
  'admin-gui',
  'admin-script',
  'manager',
  'admin',
]);

export function hasRole(u: UserDef, role: string): boolean {
  return u.roles.some((r) => r.value === role);
}

/** A stored password that is a CredentialHandler digest (hex, or salt$iterations$hex). */
export function isDigest(password: string): boolean {
  return (
    /^[0-9a-f]{32,}$/i.test(password) ||
    /^[0-9a-f]*\$\d+\$[0-9a-f]+$/i.test(password) ||
    /^\{[A-Z0-9-]+\}/.test(password)
  );
}

/**
 * User name and password pairs that Tomcat's own files have shipped or suggested: the examples'
 * users of Tomcat 5.5-6 (tomcat, both and role1 with "tomcat"), the manager's 401/403 pages
 * (tomcat/s3cret), the "<must-be-changed>" placeholder of 7.0 onwards (which is not even
 * well-formed XML in an attribute, so only its text can appear), and the pairs scanners try first.
 */
const DEFAULT_CREDENTIALS = new Set([
  'tomcat:tomcat',
  'both:tomcat',
  'role1:tomcat',
  'tomcat:s3cret',
  'admin:admin',
  'admin:',
  'admin:tomcat',
  'admin:password',
  'admin:changeit',
  'manager:manager',
  'manager:tomcat',
  'tomcat:admin',
  'tomcat:changeit',
  'tomcat:password',
  'role1:role1',
  'both:both',
  'root:root',
  'root:tomcat',
  'deployer:deployer',
  'robot:robot',
  'admin:s3cret',
]);
const PLACEHOLDERS = new Set(['must-be-changed', '<must-be-changed>', 'changeme', 'change-me']);

/** Whether a user has credentials Tomcat's files ship or suggest (see DEFAULT_CREDENTIALS). */
export function hasDefaultCredentials(u: UserDef): boolean {
  const pw = u.password?.value ?? '';
  return (
    DEFAULT_CREDENTIALS.has(`${u.username.value.toLowerCase()}:${pw.toLowerCase()}`) ||
    PLACEHOLDERS.has(pw.toLowerCase())
  );
}

/** How the realm reading tomcat-users.xml compares passwords. */
export interface PasswordCheck {
  /** `plain`: as stored (MessageDigestCredentialHandler without algorithm, Tomcat's default); `digest`: the stored value is a digest; `any`: a NestedCredentialHandler, either. */
  kind: 'plain' | 'digest' | 'any';
  /** The CredentialHandler element or its algorithm attribute, when one is configured. */
  at: Located<string> | null;
}

const REALM = 'org.apache.catalina.realm.UserDatabaseRealm';
const MESSAGE_DIGEST = 'org.apache.catalina.realm.MessageDigestCredentialHandler';
const SECRET_KEY = 'org.apache.catalina.realm.SecretKeyCredentialHandler';
const NESTED = 'org.apache.catalina.realm.NestedCredentialHandler';

function findRealm(elements: readonly ConfigElement[]): ConfigElement | null {
  for (const e of elements) {
    if (e.tag === 'Realm' && e.className?.value.trim() === REALM) return e;
    const inner = findRealm(e.children);
    if (inner) return inner;
  }
  return null;
}

/** How the server's UserDatabaseRealm checks passwords; null when server.xml has none (tomcat-users.xml may then authenticate nobody). */
export function passwordCheckOf(base: CatalinaBase): PasswordCheck | null {
  const engines = (base.serverXml?.services ?? []).flatMap((s) => (s.engine ? [s.engine] : []));
  let realm: ConfigElement | null = null;
  for (const e of engines) realm ??= findRealm(e.realms);
  if (!realm) return null;
  const handler = realm.children.find((c) => c.tag === 'CredentialHandler');
  if (!handler) return { kind: 'plain', at: null };
  const cls = handler.className?.value.trim();
  if (cls === NESTED) return { kind: 'any', at: handler.className };
  const algorithm = handler.attributes['algorithm'];
  if (cls === SECRET_KEY) return { kind: 'digest', at: algorithm ?? handler.className };
  if (cls === MESSAGE_DIGEST)
    return algorithm && algorithm.value.trim() !== ''
      ? { kind: 'digest', at: algorithm }
      : { kind: 'plain', at: handler.className };
  return { kind: 'any', at: handler.className };
}
