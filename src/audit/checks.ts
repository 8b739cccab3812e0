/**
 * What each automatic control's check text examines, read from the loaded base: the evidence (what
 * was looked at and the value found, for passes as for failures), the findings the text calls
 * findings where no lint rule reports them, the findings of the deciding rules the text does not
 * call findings (`keep`), the settings left to Tomcat's default where the text asks for them
 * (`defaulted`: a note, or with --letter a failure), and the site fact a control cannot be
 * decided without (`question`: not reviewed).
 */
import { basename } from 'node:path';
import type { CatalinaBase, ConfigElement, Diagnostic, Located, Span } from '../model/index.js';
import type { LintResult } from '../lint/engine.js';
import type { AuditFacts } from '../lint/config.js';
import type { BenchmarkId } from './catalogue.js';
import type { Evidence } from './report.js';

export interface AuditContext {
  base: CatalinaBase;
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

export const EXAMINERS: Record<string, Examiner> = {
  'stig-tomcat:V-222968': fipsMode,
  'stig-tomcat:V-222965': ldaps,
};

/** The file name an assessor knows (`server.xml`), for evidence subjects. */
export const fileName = (path: string): string => basename(path);
