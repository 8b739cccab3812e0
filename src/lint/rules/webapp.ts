import { effectiveChain, type MergedServlet, type ResolvedContext } from '../../chain/index.js';
import type { CatalinaBase, FilterDef, Located, Param, SecurityConstraint, Span, WebXml } from '../../model/index.js';
import { allValves, simpleName } from '../hardening.js';
import type { CheckedFilter, LintContext, RuleVisitor } from '../types.js';
import { samplePaths } from './chain-order.js';

/** Tomcat's static-content servlets: WebdavServlet extends DefaultServlet and reads the same init-params. */
export const DEFAULT_SERVLET_CLASSES: ReadonlySet<string> = new Set([
  'org.apache.catalina.servlets.DefaultServlet',
  'org.apache.catalina.servlets.WebdavServlet',
]);
export const JSP_SERVLET_CLASSES: ReadonlySet<string> = new Set(['org.apache.jasper.servlet.JspServlet']);

/** The effective init-param of that name (the first, which Tomcat uses). */
export function servletParam(s: MergedServlet, name: string): Param | undefined {
  for (const p of s.initParams) if (p.name.value === name) return p;
  return undefined;
}

/**
 * A visitor showing each merged servlet of these classes that some context maps, once per run:
 * a servlet of conf/web.xml is the same object in every context that inherits it, so a base of
 * 10,000 applications shows it once, and an unmapped one never serves a request.
 */
export function mappedServletsOf(
  classes: ReadonlySet<string>,
  visit: (s: MergedServlet, c: ResolvedContext) => void,
): RuleVisitor {
  const seen = new Set<MergedServlet>();
  return {
    context(c) {
      for (const s of c.merged.servlets.values()) {
        const cls = s.className?.value;
        if (cls === undefined || !classes.has(cls) || seen.has(s)) continue;
        let mapped = false;
        for (const m of c.merged.servletMappings.values()) {
          if (m.servletName === s.name) {
            mapped = true;
            break;
          }
        }
        if (!mapped) continue;
        seen.add(s);
        visit(s, c);
      }
    },
  };
}

/** Java's Boolean.parseBoolean, which Tomcat's servlets use for their flags: only "true" (any case) is true. */
export function javaBoolean(value: string): boolean {
  return value.toLowerCase() === 'true';
}

/**
 * The descriptors a context sees, in the order Tomcat lets them win a single-valued setting
 * (login-config, session-config): the application's web.xml, its tomcat-web.xml, the host's
 * web.xml.default (parsed into the same defaults as conf/web.xml, after it), conf/web.xml.
 */
export function layersOf(base: CatalinaBase, c: ResolvedContext): WebXml[] {
  const out: WebXml[] = [];
  if (c.context.webXml) out.push(c.context.webXml);
  if (c.context.tomcatWebXml) out.push(c.context.tomcatWebXml);
  if (c.host.webXmlDefault) out.push(c.host.webXmlDefault);
  if (base.globalWebXml) out.push(base.globalWebXml);
  return out;
}

/** Where to point at a descriptor as a whole: its root element's start. */
export function rootSpan(w: WebXml): Span {
  const s = w.span;
  return { ...s, endLine: s.line, endColumn: s.column + 1 + w.root.length, endOffset: s.offset + 1 + w.root.length };
}

/**
 * Whether the context is Tomcat's manager or host manager: by path or docBase, or by its servlets
 * (org.apache.catalina.manager.*, host.HTMLHostManagerServlet) once renamed as CIS 10.5 asks.
 */
export function managementApp(c: ResolvedContext): 'manager' | 'host-manager' | null {
  const path = c.context.path;
  const doc = c.context.docBase.replace(/[\\/]+$/, '');
  if (path === '/host-manager' || doc.endsWith('host-manager')) return 'host-manager';
  if (path === '/manager' || /(^|[\\/])manager$/.test(doc)) return 'manager';
  const classes = (c.context.webXml?.servlets ?? []).map((s) => s.className?.value.trim() ?? '');
  if (classes.some((n) => n.startsWith('org.apache.catalina.manager.host.'))) return 'host-manager';
  if (classes.some((n) => n.startsWith('org.apache.catalina.manager.'))) return 'manager';
  return null;
}

/**
 * Whether every connector of conf/server.xml is TLS (SSLEnabled="true") or declared secure (a
 * TLS-terminating proxy in front): clear-text requests then never reach an application. Without
 * a server.xml nothing is known, so false.
 */
export function onlyTlsConnectors(base: CatalinaBase): boolean {
  let answer = tlsOnly.get(base);
  if (answer === undefined) tlsOnly.set(base, (answer = everyConnectorTls(base)));
  return answer;
}

// Asked for every context by several rules: answered once per base.
const tlsOnly = new WeakMap<CatalinaBase, boolean>();

function everyConnectorTls(base: CatalinaBase): boolean {
  const services = base.serverXml?.services ?? [];
  let any = false;
  for (const s of services) {
    for (const c of s.connectors) {
      any = true;
      const tls =
        c.attributes['SSLEnabled']?.value.trim().toLowerCase() === 'true' ||
        c.attributes['secure']?.value.trim().toLowerCase() === 'true';
      if (!tls) return false;
    }
  }
  return any;
}

/** Transport guarantees Tomcat enforces by redirecting to the connector's redirectPort (INTEGRAL is treated as CONFIDENTIAL). */
export function requiresTls(guarantee: string | undefined): boolean {
  const g = guarantee?.trim().toUpperCase();
  return g === 'CONFIDENTIAL' || g === 'INTEGRAL';
}

/** A login over a clear-text channel: the auth method, and the constraints that ask for a login without TLS. */
export interface CleartextLogin {
  authMethod: Located<string>;
  constraints: SecurityConstraint[];
}

/**
 * For a context whose effective login is BASIC or FORM (the password crosses the wire as sent):
 * the security constraints that admit authenticated users on some URL pattern without a TLS
 * guarantee. Tomcat grants user-data permission when any constraint matching the request has
 * no guarantee (RealmBase.hasUserDataPermission), so a pattern counts as protected only when every
 * constraint naming it asks for CONFIDENTIAL or INTEGRAL. Null when nothing is exposed.
 */
export function cleartextLogin(base: CatalinaBase, c: ResolvedContext): CleartextLogin | null {
  const layers = layersOf(base, c);
  const login = layers.find((w) => w.loginConfig)?.loginConfig;
  const method = login?.authMethod;
  const m = method?.value.trim().toUpperCase();
  if (!method || (m !== 'BASIC' && m !== 'FORM')) return null;
  if (onlyTlsConnectors(base)) return null;
  const all: SecurityConstraint[] = [];
  for (const w of layers) for (const sc of w.securityConstraints ?? []) all.push(sc);
  const unguarded = new Set<string>();
  for (const sc of all) {
    if (requiresTls(sc.transportGuarantee?.value)) continue;
    for (const col of sc.collections) for (const p of col.urlPatterns) unguarded.add(p.value);
  }
  const exposed = all.filter(
    (sc) =>
      sc.authRoles !== null &&
      sc.authRoles.length > 0 &&
      sc.collections.some((col) => col.urlPatterns.some((p) => unguarded.has(p.value))),
  );
  return exposed.length === 0 ? null : { authMethod: method, constraints: exposed };
}

/** The URL patterns of constraints, for messages (at most a few). */
export function patternsOf(constraints: readonly SecurityConstraint[], max = 4): string {
  const all = [
    ...new Set(constraints.flatMap((sc) => sc.collections.flatMap((col) => col.urlPatterns.map((p) => p.value)))),
  ];
  return all.slice(0, max).join(', ') + (all.length > max ? `, and ${all.length - max} more` : '');
}

/** The `<session-timeout>` that decides a context's timeout (the first layer that has one), with its value in minutes; null when none does (Tomcat's 30). */
export function effectiveSessionTimeout(
  base: CatalinaBase,
  c: ResolvedContext,
): { at: Located<string>; minutes: number } | null {
  for (const w of layersOf(base, c)) {
    const t = w.sessionTimeout;
    // A value Integer.parseInt refuses is reported by the descriptor checks; the next layer does not take over, so stop.
    if (t) return /^\s*[+-]?\d+\s*$/.test(t.value) ? { at: t, minutes: Number(t.value) } : null;
  }
  return null;
}

/** A boolean init-param of HttpHeaderSecurityFilter as the filter runs with it (merged params; Tomcat's default true). */
function headerFlag(params: readonly Param[], name: string): boolean {
  for (const p of params) if (p.name.value === name) return javaBoolean(p.value.value.trim());
  return true;
}

/**
 * Whether the header that HttpHeaderSecurityFilter `f` is told not to send (its boolean `flag`
 * off) reaches the client anyway in every request chain `f` runs in: each header filter sets its
 * headers before passing the request on and never removes one, so a header is sent when any
 * filter of the chain has the flag on. False when some chain with `f` has none that sends it, or
 * when no chain of the sample paths shows `f` (it may still run, for paths not sampled).
 */
export function headerSentAnyway(ctx: LintContext, f: CheckedFilter, flag: string): boolean {
  const headerFilters = new Set<FilterDef>();
  for (const h of ctx.ofKind('http-header-security')) headerFilters.add(h.def);
  let chains = 0;
  const contexts = new Set<ResolvedContext>();
  for (const use of ctx.usesOf(f)) contexts.add(use.context);
  for (const c of contexts) {
    for (const path of samplePaths(c)) {
      const entries = effectiveChain(c.merged, path, 'REQUEST').entries;
      if (!entries.some((e) => e.filter.def === f.def)) continue;
      chains++;
      if (!entries.some((e) => headerFilters.has(e.filter.def) && headerFlag(e.filter.initParams, flag))) return false;
    }
  }
  return chains > 0;
}

/**
 * Whether some connector of conf/server.xml gives requests that Tomcat sees as secure (SSLEnabled or
 * secure="true"): only those get Strict-Transport-Security. Null without a server.xml (unknown).
 */
export function anySecureConnector(base: CatalinaBase): boolean | null {
  if (!base.serverXml) return null;
  for (const s of base.serverXml.services) {
    for (const c of s.connectors) {
      if (
        c.attributes['SSLEnabled']?.value.trim().toLowerCase() === 'true' ||
        c.attributes['secure']?.value.trim().toLowerCase() === 'true'
      )
        return true;
    }
  }
  return false;
}

/** Each context's position in ctx.contexts, worked out once per run. */
const positions = new WeakMap<LintContext['contexts'], Map<ResolvedContext, number>>();

/**
 * Whether a request through this filter can be secure (request.isSecure()), the condition on which
 * HttpHeaderSecurityFilter sends Strict-Transport-Security: a TLS or secure="true" connector, a RemoteIpValve
 * that takes the scheme from a proxy's header, or a RemoteIpFilter in a context the filter runs in. False only
 * when server.xml is known and none of them is there. Asks only the filter's own contexts, so a part of a
 * parallel lint answers as the whole base would. Call once every filter is validated (a check).
 */
export function secureRequestsPossible(ctx: LintContext, f: CheckedFilter): boolean {
  if (anySecureConnector(ctx.base) !== false) return true;
  if (allValves(ctx.base).some((v) => simpleName(v) === 'RemoteIpValve')) return true;
  let index = positions.get(ctx.contexts);
  if (!index) positions.set(ctx.contexts, (index = new Map(ctx.contexts.map((c, i) => [c, i]))));
  const at = index;
  return ctx
    .usesOf(f)
    .some(({ context }) =>
      [...context.merged.filters.values()].some((mf) => ctx.checked(mf, at.get(context))?.spec?.id === 'remote-ip'),
    );
}

/**
 * A fact of one descriptor, worked out once: the rules that ask it of every context would otherwise
 * ask conf/web.xml's once per application.
 */
export function perDescriptor(fact: (w: WebXml) => boolean): (w: WebXml) => boolean {
  const known = new WeakMap<WebXml, boolean>();
  return (w) => {
    let answer = known.get(w);
    if (answer === undefined) known.set(w, (answer = fact(w)));
    return answer;
  };
}

/** How a finding names a context: host and path. */
export function siteOf(c: ResolvedContext): string {
  return `${c.host.name}${c.context.path || '/'}`;
}

/**
 * The visitor of a rule that asks each context for something one of its descriptors must have
 * (`has`): a context without it is reported once on conf/web.xml, whose setting reaches every
 * application so that one fix covers all, or on the application's web.xml when the base has none.
 */
export function missingInEveryLayer(
  ctx: LintContext,
  has: (w: WebXml) => boolean,
  message: (c: ResolvedContext) => string,
  applies: () => boolean = () => true,
): RuleVisitor {
  const reported = new Set<WebXml>();
  return {
    context(c) {
      if (!applies() || layersOf(ctx.base, c).some(has)) return;
      const where = ctx.base.globalWebXml ?? c.context.webXml;
      if (!where || reported.has(where)) return;
      reported.add(where);
      ctx.report({ message: message(c), span: rootSpan(where) });
    },
  };
}
