/**
 * What each automatic control's check text examines, read from the loaded base: the evidence (what
 * was looked at and the value found, for passes as for failures), the findings the text calls
 * findings where no lint rule reports them, the findings of the deciding rules the text does not
 * call findings (`keep`), the settings left to Tomcat's default where the text asks for them
 * (`defaulted`: a note, or with --letter a failure), and the site fact a control cannot be
 * decided without (`question`: not reviewed).
 */
import { existsSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import type {
  CatalinaBase,
  ConfigElement,
  Diagnostic,
  LoadedContext,
  Located,
  SecurityConstraint,
  Span,
  WebXml,
} from '../model/index.js';
import { accessOf, accountNames, filesIn, octal, protectedPaths, type Access } from '../lint/file-access.js';
import { contextChain, contextElements, isAdminApp, realmsOf } from '../lint/hardening.js';
import { scopeOf } from '../lint/file-access.js';
import type { LintResult } from '../lint/engine.js';
import type { AuditFacts } from '../lint/config.js';
import type { BenchmarkId } from './catalogue.js';
import type { Evidence } from './report.js';

export interface AuditContext {
  base: CatalinaBase;
  /** The start-up files read beyond bin/setenv.sh (already merged into base.setenv), when the caller read them. */
  startup?: { examined: readonly { file: string; found: boolean }[] };
  benchmark: BenchmarkId;
  facts: AuditFacts;
  letter: boolean;
  lint: LintResult;
}

export interface Examination {
  evidence: Evidence[];
  /** Findings of the check text no lint rule reports. */
  findings?: Diagnostic[];
  /** Whether a finding of a deciding rule fails this control by its text (absent: all do). */
  keep?: (d: Diagnostic) => boolean;
  /** Settings the text asks for that are absent and left to Tomcat's default (fail with --letter). */
  defaulted?: Diagnostic[];
  /** The site fact the control needs and the question it answers (not reviewed when given). */
  question?: string;
  /** The site's facts say the control does not apply (the reason). */
  notApplicable?: string;
  notes?: string[];
}

export type Examiner = (ctx: AuditContext) => Examination;

/** An element of conf/server.xml with the path an assessor reads it by. */
interface Placed {
  element: ConfigElement;
  /** `Server/Service[Catalina]/Engine/Realm` */
  where: string;
}

/** The simple class name (`org.apache.catalina.realm.JNDIRealm` -> `JNDIRealm`). */
export const simpleName = (className: string | undefined): string => (className ?? '').replace(/^.*\./, '');

/** Every generic element of conf/server.xml (listeners, realms, valves, resources, connector children), nested ones included. */
export function serverElements(base: CatalinaBase): Placed[] {
  const out: Placed[] = [];
  const add = (list: readonly ConfigElement[] | undefined, where: string): void => {
    for (const e of list ?? []) {
      const here = `${where}/${e.tag}`;
      out.push({ element: e, where: here });
      add(e.children, here);
    }
  };
  const server = base.serverXml;
  if (!server) return out;
  add(server.listeners, 'Server');
  add(server.globalResources, 'Server/GlobalNamingResources');
  for (const s of server.services) {
    const sv = `Server/Service[${s.name?.value ?? ''}]`;
    for (const c of s.connectors) add(c.children, `${sv}/Connector[port=${c.attributes['port']?.value ?? ''}]`);
    const e = s.engine;
    if (!e) continue;
    add(e.realms, `${sv}/Engine`);
    add(e.valves, `${sv}/Engine`);
    for (const h of e.hosts) {
      const hv = `${sv}/Engine/Host[${h.name.value}]`;
      add(h.realms, hv);
      add(h.valves, hv);
      add(h.listeners, hv);
      for (const c of h.contexts) add(c.children ?? c.valves, `${hv}/Context[${c.path?.value ?? ''}]`);
    }
  }
  return out;
}

/** `name="value"` as written, or `name absent`. */
export function attr(a: Located<string> | undefined, name: string): string {
  return a ? `${name}="${a.value}"` : `${name} absent`;
}

/** A finding of the audit itself, named after the control it fails. */
export function finding(ctx: AuditContext, control: string, span: Span, message: string): Diagnostic {
  const ref = `${ctx.benchmark}:${control}`;
  return { ruleId: ref, severity: 'error', message, span, benchmarks: [ref] };
}

/** Where a finding about the whole of conf/server.xml goes: its root element, else the file's start. */
function serverSpan(base: CatalinaBase): Span {
  return (
    base.serverXml?.span ?? {
      file: `${base.base}/conf/server.xml`,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      offset: 0,
      endOffset: 0,
    }
  );
}

const FIPS_LISTENERS = new Set(['AprLifecycleListener', 'OpenSSLLifecycleListener']);

/**
 * STIG V-222968: the check text greps server.xml for FIPSMode="on" (on the APR or OpenSSL lifecycle
 * listener); without it, the finding stands whatever the ciphers are.
 */
const fipsMode: Examiner = (ctx) => {
  const listeners = serverElements(ctx.base).filter((p) => FIPS_LISTENERS.has(simpleName(p.element.className?.value)));
  const evidence: Evidence[] = listeners.map((p) => ({
    subject: `${p.where}[${simpleName(p.element.className?.value)}]`,
    found: attr(p.element.attributes['FIPSMode'], 'FIPSMode'),
    span: p.element.attributes['FIPSMode']?.span ?? p.element.span,
  }));
  if (listeners.some((p) => /^(on|enter|require)$/i.test(p.element.attributes['FIPSMode']?.value ?? '')))
    return { evidence };
  const span = listeners[0]?.element.span ?? serverSpan(ctx.base);
  if (evidence.length === 0)
    evidence.push({ subject: 'conf/server.xml', found: 'no AprLifecycleListener or OpenSSLLifecycleListener', span });
  return {
    evidence,
    findings: [
      finding(
        ctx,
        'V-222968',
        span,
        'FIPSMode="on" is not set on an AprLifecycleListener or OpenSSLLifecycleListener: the check text makes that a finding.',
      ),
    ],
  };
};

/**
 * STIG V-222965: LDAP authentication must use LDAPS; the check text makes a missing JNDIRealm a
 * finding too (the STIG expects the organisation's directory behind the realm).
 */
const ldaps: Examiner = (ctx) => {
  const realms = serverElements(ctx.base).filter((p) => simpleName(p.element.className?.value) === 'JNDIRealm');
  const evidence: Evidence[] = realms.map((p) => ({
    subject: `${p.where}[JNDIRealm]`,
    found: attr(p.element.attributes['connectionURL'], 'connectionURL'),
    span: p.element.attributes['connectionURL']?.span ?? p.element.span,
  }));
  if (realms.length > 0) return { evidence };
  const span = serverSpan(ctx.base);
  evidence.push({ subject: 'conf/server.xml', found: 'no JNDIRealm', span });
  return {
    evidence,
    findings: [
      finding(
        ctx,
        'V-222965',
        span,
        'No JNDIRealm: the check text makes a server without LDAP(S) authentication a finding.',
      ),
    ],
  };
};

// ---------------------------------------------------------------------------------------------
// Site facts: what the files cannot tell.

const FACTS = 'the `audit` section of tollgate.config.json';

/**
 * STIG V-222937: only a server behind a proxy or load balancer must log the client's address
 * (RemoteIpValve, requestAttributesEnabled on the AccessLogValve); whether there is one is the
 * site's fact. A RemoteIpValve in the files says there is one.
 */
const proxyClientIp: Examiner = (ctx) => {
  const valves = serverElements(ctx.base).filter((p) =>
    /^RemoteIp(Valve|Filter)$/.test(simpleName(p.element.className?.value)),
  );
  const logs = serverElements(ctx.base).filter((p) =>
    simpleName(p.element.className?.value).endsWith('AccessLogValve'),
  );
  const evidence: Evidence[] = [
    ...valves.map((p) => ({ subject: `${p.where}[RemoteIpValve]`, found: 'present', span: p.element.span })),
    ...logs.map((p) => ({
      subject: `${p.where}[AccessLogValve]`,
      found: attr(p.element.attributes['requestAttributesEnabled'], 'requestAttributesEnabled'),
      span: p.element.attributes['requestAttributesEnabled']?.span ?? p.element.span,
    })),
  ];
  const behind = ctx.facts.behindProxy;
  if (behind === false)
    return {
      evidence,
      keep: () => false,
      notApplicable: `${FACTS} says no proxy or load balancer is in front (audit.behindProxy: false)`,
    };
  if (behind === undefined && valves.length === 0)
    return {
      evidence: evidence.length ? evidence : [{ subject: 'conf/server.xml', found: 'no RemoteIpValve' }],
      question: `Is Tomcat behind a reverse proxy or load balancer? Set audit.behindProxy in ${FACTS} (true: a RemoteIpValve and AccessLogValve requestAttributesEnabled="true" are asked; false: not applicable).`,
    };
  const findings: Diagnostic[] = [];
  if (valves.length === 0)
    findings.push(
      finding(
        ctx,
        'V-222937',
        serverSpan(ctx.base),
        "Tomcat is behind a proxy (audit.behindProxy) but conf/server.xml has no RemoteIpValve: the access log records the proxy's address, not the client's.",
      ),
    );
  for (const p of logs)
    if (!isTrueValue(p.element.attributes['requestAttributesEnabled']))
      findings.push(
        finding(
          ctx,
          'V-222937',
          p.element.attributes['requestAttributesEnabled']?.span ?? p.element.span,
          `The AccessLogValve at ${p.where} does not set requestAttributesEnabled="true": behind a proxy it logs the proxy's address.`,
        ),
      );
  return { evidence, findings };
};

const isTrueValue = (a: Located<string> | undefined): boolean =>
  a !== undefined && a.value.trim().toLowerCase() === 'true';

/** Every <Context> definition with privileged set, and the context path it configures. */
function privilegedContexts(base: CatalinaBase): { path: string; a: Located<string> }[] {
  const out: { path: string; a: Located<string> }[] = [];
  const seen = new Set<Located<string>>();
  const add = (path: string, a: Located<string> | undefined): void => {
    if (!a || !isTrueValue(a) || seen.has(a)) return;
    out.push({ path, a });
    seen.add(a);
  };
  add('(conf/context.xml: every application)', base.contextXml?.attributes['privileged']);
  for (const h of base.hosts) {
    add(`(context.xml.default of ${h.name})`, h.contextDefault?.attributes['privileged']);
    for (const c of h.contexts) add(c.path === '' ? '/' : c.path, c.contextDef?.attributes['privileged']);
  }
  return out;
}

/**
 * STIG V-222961: every application that runs privileged="true" (the manager and host-manager
 * included) must be approved by the ISSO: audit.approvedPrivilegedApps names those approved.
 */
const privilegedApproved: Examiner = (ctx) => {
  const found = privilegedContexts(ctx.base);
  const evidence: Evidence[] = found.map((f) => ({
    subject: `Context ${f.path}`,
    found: `privileged="${f.a.value}"`,
    span: f.a.span,
  }));
  if (found.length === 0)
    return { evidence: [{ subject: 'every <Context> definition', found: 'no privileged="true"' }], keep: () => false };
  const approved = ctx.facts.approvedPrivilegedApps;
  if (approved === undefined)
    return {
      evidence,
      keep: () => false,
      question: `Are ${found.map((f) => f.path).join(', ')} approved by the ISSO to run privileged? List the approved context paths in audit.approvedPrivilegedApps of ${FACTS}.`,
    };
  const norm = (p: string): string => (p === '/' ? '' : p.replace(/\/+$/, ''));
  const ok = new Set(approved.map(norm));
  return {
    evidence,
    keep: () => false,
    findings: found
      .filter((f) => !ok.has(norm(f.path)))
      .map((f) =>
        finding(
          ctx,
          'V-222961',
          f.a.span,
          `${f.path} runs privileged="true" and is not in audit.approvedPrivilegedApps (the ISSO's approval the check text asks for).`,
        ),
      ),
  };
};

/**
 * STIG V-222926: the manager's maxActiveSessions is the number the SSP allows (audit.managerMaxSessions);
 * no limit at all is the rule's finding, a limit above the SSP's number this one's, and a limit with
 * no number given is not reviewed.
 */
const managerSessions: Examiner = (ctx) => {
  const evidence: Evidence[] = [];
  const findings: Diagnostic[] = [];
  const limits: number[] = [];
  const want = ctx.facts.managerMaxSessions;
  for (const h of ctx.base.hosts)
    for (const c of h.contexts) {
      if (!isAdminApp(c)) continue;
      const name = c.path === '' ? '/' : c.path;
      const a = contextElements(contextChain(ctx.base, h, c), 'Manager')
        .map((m) => m.attributes['maxActiveSessions'])
        .filter((x) => x !== undefined)
        .pop();
      const n = a && /^\s*-?\d+\s*$/.test(a.value) ? Number(a.value) : -1;
      evidence.push({
        subject: `${name} <Manager>`,
        found: a ? `maxActiveSessions="${a.value}"` : 'maxActiveSessions absent (no limit)',
        ...(a ? { span: a.span } : c.contextDef ? { span: c.contextDef.span } : {}),
      });
      if (n < 0) continue;
      limits.push(n);
      if (want !== undefined && n > want)
        findings.push(
          finding(
            ctx,
            'V-222926',
            a!.span,
            `${name} allows ${n} simultaneous sessions, more than the ${want} of audit.managerMaxSessions (the SSP's number).`,
          ),
        );
    }
  if (want === undefined && limits.length > 0)
    return {
      evidence,
      question: `How many simultaneous manager sessions does the SSP allow? Set audit.managerMaxSessions in ${FACTS}.`,
    };
  return { evidence, findings };
};

// ---------------------------------------------------------------------------------------------
// Settings the check text asks for that Tomcat defaults.

const TLS_PROTOCOL_ATTRIBUTES = [
  'protocols',
  'sslEnabledProtocols',
  'SSLEnabledProtocols',
  'sslProtocol',
  'SSLProtocol',
];

/** Every TLS connector (SSLEnabled="true") with where it is. */
function tlsConnectors(base: CatalinaBase) {
  return (base.serverXml?.services ?? []).flatMap((s) =>
    s.connectors
      .filter((c) => isTrueValue(c.attributes['SSLEnabled']))
      .map((c) => ({ c, label: `Connector[port=${c.attributes['port']?.value ?? ''}]` })),
  );
}

/**
 * STIG V-222929: every TLS connector states its protocols (TLSv1.2 or later). Without the attribute
 * Tomcat 10.1 enables TLSv1.2 and TLSv1.3 only: a pass on the default, failed under --letter.
 */
const tlsProtocols: Examiner = (ctx) => {
  const list = tlsConnectors(ctx.base);
  if (list.length === 0)
    return { evidence: [{ subject: 'conf/server.xml', found: 'no TLS connector: nothing to judge' }] };
  const evidence: Evidence[] = [];
  const defaulted: Diagnostic[] = [];
  for (const { c, label } of list) {
    const set = [c, ...c.children]
      .flatMap((e) => TLS_PROTOCOL_ATTRIBUTES.map((n) => [n, e.attributes[n]] as const))
      .filter(([, a]) => a);
    if (set.length === 0) {
      evidence.push({ subject: label, found: 'protocols absent (Tomcat 10.1 default: TLSv1.2+TLSv1.3)', span: c.span });
      defaulted.push(
        finding(
          ctx,
          'V-222929',
          c.span,
          `${label} does not set protocols: Tomcat uses TLSv1.2+TLSv1.3, but the check text asks for the setting.`,
        ),
      );
    } else for (const [n, a] of set) evidence.push({ subject: label, found: `${n}="${a!.value}"`, span: a!.span });
  }
  return { evidence, defaulted };
};

/** conf/web.xml's <cookie-config> flag: present as written, or absent with Tomcat's behaviour. */
function cookieFlag(
  ctx: AuditContext,
  control: string,
  flag: 'secure' | 'httpOnly',
  element: string,
  byDefault: string,
): Examination {
  const w = ctx.base.globalWebXml;
  const cc = w?.sessionCookieConfig ?? null;
  const a = cc?.[flag] ?? null;
  const subject = 'conf/web.xml <session-config><cookie-config>';
  if (a && a.value.trim().toLowerCase() === 'true')
    return { evidence: [{ subject, found: `<${element}>${a.value}</${element}>`, span: a.span }] };
  if (a)
    // Written otherwise: Tomcat still applies its own behaviour (the deciding rule fails what it leaves unsafe).
    return {
      evidence: [{ subject, found: `<${element}>${a.value}</${element}> (${byDefault})`, span: a.span }],
      defaulted: [
        finding(
          ctx,
          control,
          a.span,
          `conf/web.xml sets <${element}>${a.value}</${element}>: ${byDefault}, but the check text asks for true.`,
        ),
      ],
    };
  const span = cc?.span ?? w?.span ?? serverSpan(ctx.base);
  return {
    evidence: [{ subject, found: `<${element}> absent (${byDefault})`, ...(w ? { span } : {}) }],
    defaulted: [
      finding(
        ctx,
        control,
        span,
        `conf/web.xml has no <cookie-config><${element}>true</${element}>: ${byDefault}, but the check text asks for the element.`,
      ),
    ],
  };
}

const cookieSecure: Examiner = (ctx) =>
  cookieFlag(ctx, 'V-222932', 'secure', 'secure', 'Tomcat marks the session cookie Secure on requests over TLS only');
const cookieHttpOnly: Examiner = (ctx) =>
  cookieFlag(
    ctx,
    'V-222933',
    'httpOnly',
    'http-only',
    "Tomcat's useHttpOnly default marks the session cookie HttpOnly",
  );

/** STIG V-222934: the DefaultServlet's readonly init-param; absent, Tomcat's default is read-only. */
const defaultServletReadonly: Examiner = (ctx) => {
  const w = ctx.base.globalWebXml;
  const servlets = (w?.servlets ?? []).filter((s) => /(^|\.)DefaultServlet$/.test(s.className?.value.trim() ?? ''));
  if (!w || servlets.length === 0)
    return { evidence: [{ subject: 'conf/web.xml', found: w ? 'no DefaultServlet declared' : 'file absent' }] };
  const evidence: Evidence[] = [];
  const defaulted: Diagnostic[] = [];
  for (const s of servlets) {
    const p = s.initParams.find((x) => x.name.value.trim() === 'readonly');
    if (p)
      evidence.push({ subject: `servlet ${s.name.value}`, found: `readonly=${p.value.value}`, span: p.value.span });
    else {
      evidence.push({
        subject: `servlet ${s.name.value}`,
        found: 'readonly absent (Tomcat default: true)',
        span: s.span,
      });
      defaulted.push(
        finding(
          ctx,
          'V-222934',
          s.span,
          `The DefaultServlet "${s.name.value}" has no readonly init-param: Tomcat defaults it to true, but the check text calls a missing one a finding.`,
        ),
      );
    }
  }
  return { evidence, defaulted };
};

/** CIS 2.7: every HTTP connector sets server="..."; without it Tomcat 10.1 sends no Server header. */
const serverHeader: Examiner = (ctx) => {
  const evidence: Evidence[] = [];
  const defaulted: Diagnostic[] = [];
  for (const s of ctx.base.serverXml?.services ?? [])
    for (const c of s.connectors) {
      const label = `Connector[port=${c.attributes['port']?.value ?? ''}]`;
      if (/ajp/i.test(c.attributes['protocol']?.value ?? '')) continue;
      const a = c.attributes['server'];
      if (a) evidence.push({ subject: label, found: `server="${a.value}"`, span: a.span });
      else {
        evidence.push({ subject: label, found: 'server absent (Tomcat 10.1 sends no Server header)', span: c.span });
        defaulted.push(
          finding(
            ctx,
            '2.7',
            c.span,
            `${label} does not set server="...": Tomcat 10.1 then sends no Server header, but the recommendation asks for the attribute.`,
          ),
        );
      }
    }
  if (evidence.length === 0)
    evidence.push({ subject: 'conf/server.xml', found: 'no HTTP connector: nothing to judge' });
  return { evidence, defaulted };
};

/** Whether a descriptor sends /* (every method) to TLS. */
function forcesTls(w: WebXml | null | undefined): SecurityConstraint | undefined {
  return (w?.securityConstraints ?? []).find(
    (sc) =>
      /^(CONFIDENTIAL|INTEGRAL)$/i.test(sc.transportGuarantee?.value.trim() ?? '') &&
      sc.collections.some(
        (col) =>
          col.httpMethods.length === 0 &&
          col.httpMethodOmissions.length === 0 &&
          col.urlPatterns.some((p) => p.value.trim() === '/*'),
      ),
  );
}

/**
 * CIS 10.11: a CONFIDENTIAL constraint over /* in each application (or conf/web.xml). A base whose
 * connectors all do TLS serves nothing in clear: a pass on that, failed under --letter.
 */
const forceSsl: Examiner = (ctx) => {
  const global = forcesTls(ctx.base.globalWebXml);
  if (global)
    return { evidence: [{ subject: 'conf/web.xml', found: 'security-constraint /* CONFIDENTIAL', span: global.span }] };
  const evidence: Evidence[] = [];
  const defaulted: Diagnostic[] = [];
  for (const h of ctx.base.hosts)
    for (const c of h.contexts) {
      const own = forcesTls(c.webXml);
      const name = c.path === '' ? '/' : c.path;
      if (own)
        evidence.push({ subject: `application ${name}`, found: 'security-constraint /* CONFIDENTIAL', span: own.span });
      else {
        evidence.push({
          subject: `application ${name}`,
          found: 'no CONFIDENTIAL constraint over /*',
          ...(c.webXml ? { span: c.webXml.span } : {}),
        });
        const span = c.webXml?.span ?? ctx.base.globalWebXml?.span ?? serverSpan(ctx.base);
        defaulted.push(
          finding(
            ctx,
            '10.11',
            span,
            `${name} has no security constraint sending /* to CONFIDENTIAL transport; every connector does TLS, but the recommendation asks for the constraint.`,
          ),
        );
      }
    }
  return { evidence, defaulted };
};

// ---------------------------------------------------------------------------------------------
// Findings the deciding rules miss or give where the text does not.

/**
 * STIG V-222955 / V-222956: the check text makes deployXML / autoDeploy a finding only when set to
 * true (an absent attribute is "not a finding"), though Tomcat defaults both to true: said in a note.
 */
function hostFlag(name: 'deployXML' | 'autoDeploy'): Examiner {
  return (ctx) => {
    const hosts = (ctx.base.serverXml?.services ?? []).flatMap((s) => s.engine?.hosts ?? []);
    const evidence: Evidence[] = hosts.map((h) => ({
      subject: `Host[${h.name.value}]`,
      found: attr(h.attributes[name], name),
      span: h.attributes[name]?.span ?? h.span,
    }));
    const absent = hosts.filter((h) => !h.attributes[name]);
    const setSpans = new Set(hosts.flatMap((h) => (h.attributes[name] ? [h.attributes[name]!.span.offset] : [])));
    return {
      evidence,
      // Only a finding at a written attribute fails: the text calls an absent one not a finding.
      keep: (d) => setSpans.has(d.span.offset),
      notes: absent.length
        ? [
            `${absent.map((h) => `Host[${h.name.value}]`).join(', ')} without ${name}: Tomcat's default is true, which the check text does not call a finding`,
          ]
        : [],
    };
  };
}

/** STIG V-222958 / V-222960, CIS 1.1: the check text asks whether the folder exists under webapps, deployed or not. */
function sampleFolders(control: string, names: readonly string[]): Examiner {
  return (ctx) => {
    const dirs = [
      ...new Set([
        ...ctx.base.hosts.map((h) => h.appBase),
        join(ctx.base.base, 'webapps'),
        join(ctx.base.home, 'webapps'),
      ]),
    ];
    const evidence: Evidence[] = [];
    const findings: Diagnostic[] = [];
    for (const name of names) {
      const hits = dirs.filter((d) => existsSync(join(d, name)));
      const deployed = ctx.base.hosts.flatMap((h) => h.contexts).filter((c) => c.path === `/${name}`);
      for (const d of hits) {
        const path = join(d, name);
        evidence.push({ subject: path, found: 'exists' });
        findings.push(
          finding(
            ctx,
            control,
            fileStart(path),
            `${path} exists: the check text asks for it to be removed, deployed or not.`,
          ),
        );
      }
      // A deployed sample the lint rule recognised is its finding already.
      const ruled = (c: LoadedContext): boolean =>
        ctx.lint.diagnostics.some(
          (d) =>
            d.ruleId === 'sample-apps-deployed' &&
            (d.span.file === c.contextDef?.span.file || d.span.file === c.webXml?.file || d.span.file === c.docBase),
        );
      for (const c of deployed)
        if (!hits.some((d) => c.docBase === join(d, name)) && !ruled(c)) {
          evidence.push({ subject: `context /${name}`, found: `deployed from ${c.docBase}` });
          findings.push(
            finding(
              ctx,
              control,
              c.contextDef?.span ?? fileStart(c.docBase),
              `/${name} is deployed from ${c.docBase}: the check text asks for it to be removed.`,
            ),
          );
        }
      if (hits.length === 0 && deployed.length === 0) evidence.push({ subject: `webapps/${name}`, found: 'absent' });
    }
    return { evidence, findings };
  };
}

const fileStart = (file: string): Span => ({
  file,
  line: 1,
  column: 1,
  endLine: 1,
  endColumn: 1,
  offset: 0,
  endOffset: 0,
});

/** CIS 10.18: each application's web.xml says metadata-complete="true" (as well as logEffectiveWebXml, which the rule judges). */
const metadataComplete: Examiner = (ctx) => {
  const evidence: Evidence[] = [];
  const findings: Diagnostic[] = [];
  for (const h of ctx.base.hosts)
    for (const c of h.contexts) {
      const name = c.path === '' ? '/' : c.path;
      const w = c.webXml;
      if (!w) {
        evidence.push({ subject: `application ${name}`, found: 'no WEB-INF/web.xml' });
        findings.push(
          finding(
            ctx,
            '10.18',
            fileStart(c.docBase),
            `${name} has no WEB-INF/web.xml to say metadata-complete="true": Tomcat scans its classes for annotations and fragments.`,
          ),
        );
        continue;
      }
      const a = w.metadataComplete;
      evidence.push({
        subject: `${name} web.xml`,
        found: attr(a ?? undefined, 'metadata-complete'),
        span: a?.span ?? w.span,
      });
      if (!isTrueValue(a ?? undefined))
        findings.push(
          finding(
            ctx,
            '10.18',
            a?.span ?? w.span,
            `${name}'s web.xml does not set metadata-complete="true": Tomcat merges annotations and web-fragment.xml of its jars into what the descriptor says.`,
          ),
        );
    }
  return { evidence, findings };
};

/** Whether a descriptor denies TRACE on /* to everyone (an empty auth-constraint over the method). */
function deniesTrace(w: WebXml | null | undefined): SecurityConstraint | undefined {
  return (w?.securityConstraints ?? []).find(
    (sc) =>
      sc.authRoles !== null &&
      sc.authRoles.length === 0 &&
      sc.collections.some(
        (col) =>
          col.urlPatterns.some((p) => p.value.trim() === '/*') &&
          col.httpMethods.some((m) => m.value.trim().toUpperCase() === 'TRACE'),
      ),
  );
}

/**
 * CIS 2.6: TRACE is off on every connector (allowTrace), or refused by each application: a
 * security constraint over /* for TRACE with an empty auth-constraint answers 403 (the per-application
 * way the recommendation gives). A connector's allowTrace="true" fails unless every application refuses it.
 */
const traceOff: Examiner = (ctx) => {
  const evidence: Evidence[] = [];
  for (const s of ctx.base.serverXml?.services ?? [])
    for (const c of s.connectors)
      evidence.push({
        subject: `Connector[port=${c.attributes['port']?.value ?? ''}]`,
        found: attr(c.attributes['allowTrace'], 'allowTrace'),
        span: c.attributes['allowTrace']?.span ?? c.span,
      });
  const global = deniesTrace(ctx.base.globalWebXml);
  const contexts = ctx.base.hosts.flatMap((h) => h.contexts);
  const refusing = contexts.filter((c) => global || deniesTrace(c.webXml));
  if (global)
    evidence.push({ subject: 'conf/web.xml', found: 'security-constraint denies TRACE on /*', span: global.span });
  else
    for (const c of refusing)
      evidence.push({
        subject: `application ${c.path === '' ? '/' : c.path}`,
        found: 'security-constraint denies TRACE on /*',
        span: deniesTrace(c.webXml)!.span,
      });
  const all = contexts.length > 0 && refusing.length === contexts.length;
  return {
    evidence,
    keep: () => !all,
    ...(all
      ? {
          notes: [
            'every application refuses TRACE with a security constraint (403), the per-application way the recommendation allows',
          ],
        }
      : {}),
  };
};

/** A Realm's CredentialHandler that stores digests: SecretKey (PBKDF2 by default), MessageDigest with an algorithm, or nested ones. */
function digestHandler(realm: ConfigElement): ConfigElement | undefined {
  const walk = (els: readonly ConfigElement[]): ConfigElement | undefined => {
    for (const e of els) {
      if (e.tag !== 'CredentialHandler') continue;
      const cls = e.className?.value.trim() ?? '';
      if (/SecretKeyCredentialHandler$/.test(cls)) return e;
      if (/MessageDigestCredentialHandler$/.test(cls) && (e.attributes['algorithm']?.value.trim() ?? '') !== '')
        return e;
      const inner = walk(e.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(realm.children);
}

/**
 * CIS 10.19: the realm the manager authenticates against stores digests: a CredentialHandler with
 * a digest algorithm (the passwords of tomcat-users.xml are the rule's).
 */
const managerDigest: Examiner = (ctx) => {
  const evidence: Evidence[] = [];
  const findings: Diagnostic[] = [];
  for (const h of ctx.base.hosts)
    for (const c of h.contexts) {
      if (!isAdminApp(c)) continue;
      const name = c.path === '' ? '/' : c.path;
      const realms = realmsOf(ctx.base, h, c).filter((r) => !/(LockOut|Combined)Realm$/.test(r.className?.value ?? ''));
      if (realms.length === 0) {
        evidence.push({ subject: `${name}'s realm`, found: 'none' });
        findings.push(
          finding(
            ctx,
            '10.19',
            c.contextDef?.span ?? serverSpan(ctx.base),
            `${name} is deployed with no Realm to authenticate against.`,
          ),
        );
      }
      for (const r of realms) {
        const hd = digestHandler(r);
        const label = `${name}'s ${simpleName(r.className?.value)}`;
        if (hd)
          evidence.push({
            subject: label,
            found: `${simpleName(hd.className?.value)}${hd.attributes['algorithm'] ? ` algorithm="${hd.attributes['algorithm'].value}"` : ''}`,
            span: hd.span,
          });
        else {
          evidence.push({ subject: label, found: 'no digest CredentialHandler', span: r.span });
          findings.push(
            finding(
              ctx,
              '10.19',
              r.span,
              `${label} has no CredentialHandler with a digest algorithm (MessageDigestCredentialHandler algorithm="..." or SecretKeyCredentialHandler): passwords are compared as stored, in clear.`,
            ),
          );
        }
      }
    }
  return { evidence, findings };
};

/** STIG V-222967: the check text also makes a keystore outside the Tomcat folder a finding. */
const keystoreInTree: Examiner = (ctx) => {
  const stores = protectedPaths(ctx.base, 'stig').filter((p) => p.control === 'stig-tomcat:V-222967');
  if (stores.length === 0)
    return { evidence: [{ subject: 'conf/server.xml', found: 'no keystore file named: nothing to judge' }] };
  const inside = (p: string): boolean =>
    [ctx.base.base, ctx.base.home].some((d) => p === d || p.startsWith(d.endsWith(sep) ? d : d + sep));
  const evidence: Evidence[] = [];
  const findings: Diagnostic[] = [];
  for (const k of stores) {
    const a = accessOf(k.path, scopeOf(ctx.base));
    evidence.push({ subject: k.label, found: a ? describeAccess(a) : 'file absent', ...(k.at ? { span: k.at } : {}) });
    if (!inside(k.path))
      findings.push(
        finding(
          ctx,
          'V-222967',
          k.at ?? serverSpan(ctx.base),
          `The keystore ${k.path} is outside the Tomcat folders (${ctx.base.base}${ctx.base.home === ctx.base.base ? '' : `, ${ctx.base.home}`}): the check text asks for it within them.`,
        ),
      );
  }
  return { evidence, findings };
};

/** `mode 750, owner root:tomcat`. */
function describeAccess(a: Access): string {
  const { users, groups } = accountNames();
  return `mode ${octal(a.mode)}, owner ${users.get(a.uid) ?? a.uid}:${groups.get(a.gid) ?? a.gid}`;
}

/**
 * The file controls (CIS 4.x, 7.4, 7.6; STIG modes and owners): each path the control protects with
 * its mode and owner as found, or "absent" (nothing to judge, said so).
 */
function fileAccess(control: string): Examiner {
  return (ctx) => {
    const profile = ctx.benchmark === 'cis-tomcat-10.1' ? 'cis' : 'stig';
    const paths = protectedPaths(ctx.base, profile).filter((p) => p.control === `${ctx.benchmark}:${control}`);
    const evidence: Evidence[] = [];
    for (const p of paths) {
      const a = accessOf(p.path, scopeOf(ctx.base));
      if (!a) {
        evidence.push({
          subject: p.label,
          found: `${p.path} absent: nothing to judge`,
          ...(p.at ? { span: p.at } : {}),
        });
        continue;
      }
      if (p.each) {
        const files = filesIn(p.path, scopeOf(ctx.base)).filter((f) => p.each !== 'jar' || f.path.endsWith('.jar'));
        evidence.push({
          subject: p.label,
          found: files.length
            ? `${files.length} file(s): ${[...new Set(files.map(describeAccess))].join('; ')}`
            : 'no file',
        });
      } else evidence.push({ subject: p.label, found: describeAccess(a), ...(p.at ? { span: p.at } : {}) });
    }
    return { evidence };
  };
}

// ---------------------------------------------------------------------------------------------
// Start-up options: bin/setenv.sh, the systemd unit, /etc/default, /etc/sysconfig.

/** The last `-D` option of a name across the start-up files (the JVM keeps the last). */
function option(ctx: AuditContext, name: string) {
  const props = ctx.base.setenv?.properties ?? [];
  for (let i = props.length - 1; i >= 0; i--) if (props[i]!.name.value === name) return props[i];
  return undefined;
}

/** The start-up files looked at, found or absent: the evidence every start-up control begins with. */
function startupFiles(ctx: AuditContext): Evidence[] {
  const seen =
    ctx.startup?.examined ??
    (ctx.base.setenv
      ? [{ file: ctx.base.setenv.file, found: true }]
      : [{ file: join(ctx.base.base, 'bin', 'setenv.sh'), found: false }]);
  return seen.map((f) => ({ subject: f.file, found: f.found ? 'read' : 'file absent' }));
}

function startupOptions(names: readonly string[], extra?: (ctx: AuditContext) => Examination): Examiner {
  return (ctx) => {
    const evidence = startupFiles(ctx);
    for (const n of names) {
      const o = option(ctx, n);
      evidence.push(
        o
          ? {
              subject: `-D${n}`,
              found:
                o.variable === 'SECURITY_MANAGER'
                  ? 'SECURITY_MANAGER=true (-security)'
                  : `${o.variable}: -D${n}${o.value.value ? `=${o.value.value}` : ''}`,
              span: o.span,
            }
          : { subject: `-D${n}`, found: 'absent' },
      );
    }
    return extra ? merge({ evidence }, extra(ctx)) : { evidence };
  };
}

const umaskEvidence: Examiner = (ctx) => {
  const evidence = startupFiles(ctx);
  const u = ctx.base.setenv?.umask;
  evidence.push(
    u
      ? { subject: 'UMASK', found: u.value, span: u.span }
      : { subject: 'UMASK', found: "absent (catalina.sh's default 0027)" },
  );
  return { evidence };
};

const JMX = 'com.sun.management.jmxremote';

/** STIG V-222969: remote JMX binds only to the management address the SSP names (audit.jmxHost). */
const jmxHost: Examiner = (ctx) => {
  const port = option(ctx, `${JMX}.port`);
  const host = option(ctx, `${JMX}.host`);
  const evidence = startupFiles(ctx);
  evidence.push(
    port
      ? { subject: `-D${JMX}.port`, found: port.value.value, span: port.span }
      : { subject: `-D${JMX}.port`, found: 'absent: remote JMX is off' },
  );
  if (!port) return { evidence };
  evidence.push(
    host
      ? { subject: `-D${JMX}.host`, found: host.value.value, span: host.span }
      : { subject: `-D${JMX}.host`, found: 'absent: every interface' },
  );
  const want = ctx.facts.jmxHost;
  if (want === undefined)
    return {
      evidence,
      question: `Which address may remote JMX listen on? Set audit.jmxHost in ${FACTS} (the management network's address).`,
    };
  if (host && host.value.value.trim() === want) return { evidence };
  return {
    evidence,
    findings: [
      finding(
        ctx,
        'V-222969',
        (host ?? port).span,
        `Remote JMX ${host ? `binds ${host.value.value}` : 'binds every interface (no -Dcom.sun.management.jmxremote.host)'}, not ${want} (audit.jmxHost).`,
      ),
    ],
  };
};

/**
 * STIG V-222952 / V-223008, CIS 1.2: every connector is one the SSP approves (audit.approvedConnectors:
 * its port, and address when given); without the list, not reviewed.
 */
function approvedConnectors(control: string): Examiner {
  return (ctx) => {
    const list = (ctx.base.serverXml?.services ?? []).flatMap((s) => s.connectors);
    const evidence: Evidence[] = list.map((c) => ({
      subject: `Connector[port=${c.attributes['port']?.value ?? ''}]`,
      found: `protocol="${c.attributes['protocol']?.value ?? 'HTTP/1.1'}"${c.attributes['address'] ? ` address="${c.attributes['address'].value}"` : ''}`,
      span: c.span,
    }));
    if (list.length === 0) return { evidence: [{ subject: 'conf/server.xml', found: 'no connector' }] };
    const approved = ctx.facts.approvedConnectors;
    if (approved === undefined)
      return {
        evidence,
        question: `Are these connectors approved in the SSP? List them in audit.approvedConnectors of ${FACTS} ({ "port": 8443, "address": "10.0.0.5" }).`,
      };
    const findings = list
      .filter((c) => {
        const port = Number(c.attributes['port']?.value.trim() ?? '8080');
        const address = c.attributes['address']?.value.trim();
        return !approved.some((a) => a.port === port && (a.address === undefined || a.address === address));
      })
      .map((c) =>
        finding(
          ctx,
          control,
          c.span,
          `Connector[port=${c.attributes['port']?.value ?? ''}${c.attributes['address'] ? ` address=${c.attributes['address'].value}` : ''}] is not in audit.approvedConnectors: disable it or have it approved.`,
        ),
      );
    return { evidence, findings };
  };
}

export const EXAMINERS: Record<string, Examiner> = {
  'stig-tomcat:V-222968': fipsMode,
  'stig-tomcat:V-222926': managerSessions,
  'stig-tomcat:V-222965': ldaps,
  'stig-tomcat:V-222937': proxyClientIp,
  'stig-tomcat:V-222961': privilegedApproved,
  'stig-tomcat:V-222929': tlsProtocols,
  'stig-tomcat:V-222932': cookieSecure,
  'stig-tomcat:V-222933': cookieHttpOnly,
  'stig-tomcat:V-222934': defaultServletReadonly,
  'cis-tomcat-10.1:2.7': serverHeader,
  'cis-tomcat-10.1:10.11': forceSsl,
  'stig-tomcat:V-222955': hostFlag('deployXML'),
  'stig-tomcat:V-222956': hostFlag('autoDeploy'),
  'stig-tomcat:V-222958': sampleFolders('V-222958', ['examples']),
  'stig-tomcat:V-222960': sampleFolders('V-222960', ['docs']),
  'cis-tomcat-10.1:1.1': sampleFolders('1.1', ['docs', 'examples']),
  'cis-tomcat-10.1:10.18': metadataComplete,
  'cis-tomcat-10.1:2.6': traceOff,
  'cis-tomcat-10.1:10.19': managerDigest,
  'stig-tomcat:V-222967': (ctx) => merge(keystoreInTree(ctx), fileAccess('V-222967')(ctx)),
  'stig-tomcat:V-222936': startupOptions(['java.security.manager']),
  'stig-tomcat:V-222949': umaskEvidence,
  'stig-tomcat:V-222963': startupOptions([`${JMX}.port`, `${JMX}.authenticate`]),
  'stig-tomcat:V-222964': startupOptions([`${JMX}.port`, `${JMX}.ssl`]),
  'stig-tomcat:V-222969': jmxHost,
  'stig-tomcat:V-222952': approvedConnectors('V-222952'),
  'stig-tomcat:V-223008': approvedConnectors('V-223008'),
  'cis-tomcat-10.1:1.2': approvedConnectors('1.2'),
  ...Object.fromEntries(
    [
      '4.1',
      '4.2',
      '4.3',
      '4.4',
      '4.5',
      '4.6',
      '4.7',
      '4.8',
      '4.9',
      '4.10',
      '4.11',
      '4.12',
      '4.13',
      '4.14',
      '4.15',
      '7.4',
      '7.6',
    ].map((c) => [`cis-tomcat-10.1:${c}`, fileAccess(c)]),
  ),
  ...Object.fromEntries(
    [
      'V-222943',
      'V-222944',
      'V-222945',
      'V-222946',
      'V-222947',
      'V-222948',
      'V-222986',
      'V-222987',
      'V-222988',
      'V-222989',
      'V-222990',
      'V-222991',
    ].map((c) => [`stig-tomcat:${c}`, fileAccess(c)]),
  ),
};

/** Two examinations of one control, as one. */
function merge(a: Examination, b: Examination): Examination {
  return {
    evidence: [...a.evidence, ...b.evidence.filter((e) => !a.evidence.some((x) => x.subject === e.subject))],
    findings: [...(a.findings ?? []), ...(b.findings ?? [])],
    notes: [...(a.notes ?? []), ...(b.notes ?? [])],
  };
}

/** The file name an assessor knows (`server.xml`), for evidence subjects. */
export const fileName = (path: string): string => basename(path);
