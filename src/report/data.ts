/**
 * What `tollgate report` shows, as plain JSON-serialisable data: the hosts and their contexts with the
 * state Tomcat would give each, per context the filter mappings and the ordered chain of each URL
 * pattern with every filter's effective parameters (defaults marked) and where it was declared, the
 * lint findings by file with their source lines, and optionally the benchmark audit.
 */
import { entriesInScope, fileScope } from '../parser/files.js';
import { lineStarts } from '../parser/lines.js';
import { frameWindow } from '../lint/printable.js';
import type { FileScope } from '../model/index.js';
import { join, relative } from 'node:path';
import { effectiveChain, type ResolvedContext } from '../chain/index.js';
import { findFilterSpec } from '../filters/index.js';
import type { AuditResult } from '../audit/report.js';
import { effectOf } from '../lint/severity.js';
import type { Diagnostic, SourceFile, Span } from '../model/index.js';
import type { Plan, PlannedContext } from '../plan/index.js';
import type { SelectorTable } from '../protocol/chain-selector.js';

export interface Place {
  file: string;
  line: number;
  column: number;
}

export interface ReportParam {
  name: string;
  value: string;
  /** True when the filter runs with Tomcat's default because the descriptor does not set it. */
  isDefault: boolean;
}

export interface ReportFilter {
  name: string;
  className: string;
  simpleName: string;
  /** `global` (conf/web.xml), `host` (web.xml.default), `app`. */
  origin: string;
  declared: Place;
  params: ReportParam[];
  /** What the filter can answer with itself, instead of passing the request on. */
  answers: string;
  /** For RemoteAddrFilter: the allow/deny regexes (JavaScript source and flags) the URL box tries on a client address. */
  addressRule?: { allow: [string, string] | null; deny: [string, string] | null; denyStatus: number };
}

export interface ReportChain {
  pattern: string;
  /** The request path the chain was computed for (the pattern made concrete). */
  samplePath: string;
  dispatcher: string;
  servlet: string | null;
  /** Indexes into the context's filters, in the order they run. */
  filters: number[];
}

export interface ReportContext {
  path: string;
  name: string;
  docBase: string;
  state: 'starts' | 'refused';
  /** Why Tomcat does not start it, or why Node cannot run it. */
  reasons: { message: string; place: Place | null }[];
  unrunnable: string | null;
  sources: string[];
  filters: ReportFilter[];
  mappings: { filter: string; urlPatterns: string[]; servletNames: string[]; dispatchers: string[]; place: Place }[];
  chains: ReportChain[];
  /** For the URL box: the selector table (as the runtime runs it) and files that exist, for welcome files. */
  table: SelectorTable | null;
  /** The filter name behind each index of `table` (the runtime's order). */
  tableFilters: string[];
  files: string[];
}

export interface ReportHost {
  name: string;
  aliases: string[];
  appBase: string;
  isDefault: boolean;
  contexts: ReportContext[];
}

export interface ReportFinding {
  ruleId: string;
  severity: string;
  /** What Tomcat does with it (lint's effectOf): refuses, misbehaves, ignores, weakens, notes, tollgate. */
  effect: string;
  message: string;
  place: Place;
  /** The lines around the finding, numbered, for a code frame: each cut to FRAME characters around the span, escaped (src/lint/printable.ts). */
  frame: { line: number; text: string }[];
  /** Where the span starts and ends in the finding's own frame line (1-based, as shown). */
  column: number;
  endColumn: number;
}

/** The most findings the page shows in one file, and in all: past them a group says how many more (tollgate lint lists them all). */
export const MAX_FINDINGS_PER_FILE = 200;
export const MAX_FINDINGS = 2000;

export interface ReportData {
  title: string;
  generatedAt: string;
  version: string;
  base: string;
  server: { state: 'starts' | 'refused'; reasons: { message: string; place: Place | null }[] };
  hosts: ReportHost[];
  /** Per file, the findings shown (at most MAX_FINDINGS_PER_FILE, MAX_FINDINGS in all) and how many more there are. */
  findings: { file: string; items: ReportFinding[]; more: number }[];
  counts: { error: number; warning: number; info: number };
  audit: {
    benchmark: string;
    controls: { control: string; title: string; status: string; findings: Place[] }[];
  } | null;
}

/** Files of a docBase the URL box needs to know exist (welcome files), bounded: a large static tree is not listed whole. */
const MAX_FILES = 2000;

function listFiles(dir: string, scope: FileScope): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (out.length >= MAX_FILES || depth > 8) return;
    const entries = entriesInScope(d, scope);
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      if (depth === 0 && (e.name === 'WEB-INF' || e.name === 'META-INF')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else out.push(`/${relative(dir, p).split('\\').join('/')}`);
    }
  };
  walk(dir, 0);
  return out;
}

function samplePath(pattern: string): string {
  if (pattern.startsWith('*.')) return `/x${pattern.slice(1)}`;
  if (pattern.endsWith('/*')) return `${pattern.slice(0, -1)}x`;
  if (pattern === '' || pattern === '/' || pattern === '*') return '/';
  return pattern;
}

const WHAT_ANSWERS: Record<string, string> = {
  'remote-addr': 'denies clients whose address is not allowed (403 by default)',
  'remote-host': 'denies clients whose host name is not allowed (403 by default)',
  'remote-cidr': 'denies clients outside its CIDR lists (403 by default)',
  cors: 'refuses invalid or disallowed cross-origin requests (403) and answers pre-flights',
  'csrf-prevention': 'refuses requests without a valid nonce (403)',
  'rest-csrf-prevention': 'refuses modifying requests without the token (403)',
  'rate-limit': 'refuses clients over the limit (429)',
  'failed-request': 'refuses requests whose parameters failed to parse (400)',
};

export function reportData(opts: {
  root: string;
  label?: string;
  plan: Plan;
  diagnostics: readonly Diagnostic[];
  files: ReadonlyMap<string, SourceFile>;
  audit?: AuditResult | null;
  version: string;
  now?: Date;
  /** Where the report may list files (the base's scope); default: the root only. */
  scope?: FileScope;
}): ReportData {
  const { root, plan } = opts;
  const scope = opts.scope ?? fileScope([root]);
  const rel = (f: string): string => (f.startsWith(`${root}/`) ? f.slice(root.length + 1) : f);
  const place = (s: Span): Place => ({ file: rel(s.file), line: s.line, column: s.column });
  const reason = (d: Diagnostic) => ({ message: d.message, place: d.span.line > 0 ? place(d.span) : null });

  const hosts: ReportHost[] = plan.hosts.map((h) => ({
    name: h.name,
    aliases: h.aliases,
    appBase: h.appBase,
    isDefault: h.name === plan.defaultHost,
    contexts: h.contexts.map((c) => contextData(c, place, reason, scope)),
  }));

  const byFile = new Map<string, { items: ReportFinding[]; more: number }>();
  const counts = { error: 0, warning: 0, info: 0 };
  // Each file's lines are found once (splitting per finding was quadratic, and a 3 MB one-line file
  // quoted whole per finding overflowed the string: "Invalid string length").
  const linesOf = new Map<string, { text: string; starts: number[] }>();
  const lineOf = (file: string, n: number): string | null => {
    let l = linesOf.get(file);
    if (!l) {
      const text = opts.files.get(file)?.text ?? '';
      l = { text, starts: lineStarts(text) };
      linesOf.set(file, l);
    }
    if (n < 1 || n > l.starts.length || l.text === '') return null;
    const end = n < l.starts.length ? l.starts[n]! - 1 : l.text.length;
    return l.text.slice(l.starts[n - 1]!, Math.max(l.starts[n - 1]!, end)).replace(/\r$/, '');
  };
  let shown = 0;
  for (const d of opts.diagnostics) {
    counts[d.severity]++;
    const file = rel(d.span.file);
    let group = byFile.get(file);
    if (!group) byFile.set(file, (group = { items: [], more: 0 }));
    if (group.items.length >= MAX_FINDINGS_PER_FILE || shown >= MAX_FINDINGS) {
      group.more++;
      continue;
    }
    shown++;
    const frame: { line: number; text: string }[] = [];
    let column = d.span.column;
    let endColumn = d.span.column;
    for (let n = Math.max(1, d.span.line - 1); n <= Math.min(d.span.endLine + 1, d.span.line + 3); n++) {
      const text = lineOf(d.span.file, n);
      if (text === null) break;
      if (n === d.span.line) {
        const w = frameWindow(
          text,
          d.span.column - 1,
          d.span.endLine === d.span.line ? d.span.endColumn - 1 : text.length,
        );
        frame.push({ line: n, text: w.text });
        column = w.start + 1;
        endColumn = w.end + 1;
      } else frame.push({ line: n, text: frameWindow(text, 0, 0).text });
    }
    group.items.push({
      ruleId: d.ruleId ?? 'tollgate',
      severity: d.severity,
      effect: effectOf(d) ?? 'tollgate',
      message: d.message,
      place: place(d.span),
      frame,
      column,
      endColumn,
    });
  }

  return {
    title: `tollgate report: ${opts.label ?? root}`,
    generatedAt: (opts.now ?? new Date()).toISOString(),
    version: opts.version,
    base: root,
    server: { state: plan.server.state, reasons: plan.server.reasons.map(reason) },
    hosts,
    findings: [...byFile]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([file, g]) => ({ file, items: g.items, more: g.more })),
    counts,
    audit: opts.audit
      ? {
          benchmark: opts.audit.benchmark,
          controls: opts.audit.results.map((r) => ({
            control: r.control.id,
            title: r.control.title,
            status: r.status,
            findings: r.findings.map((d) => place(d.span)),
          })),
        }
      : null,
  };
}

function contextData(
  c: PlannedContext,
  place: (s: Span) => Place,
  reason: (d: Diagnostic) => { message: string; place: Place | null },
  scope: FileScope,
): ReportContext {
  const merged = c.resolved.merged;
  const filters: ReportFilter[] = [];
  const index = new Map<string, number>();
  for (const f of merged.filters.values()) {
    const spec = findFilterSpec(f.className?.value ?? '');
    const given = new Map(f.initParams.map((p) => [spec?.resolveParam(p.name.value) ?? p.name.value, p.value.value]));
    const params: ReportParam[] = [];
    for (const p of f.initParams) params.push({ name: p.name.value, value: p.value.value, isDefault: false });
    for (const [name, doc] of Object.entries(spec?.params ?? {})) {
      if (!given.has(name) && doc.default !== undefined && doc.removedIn === undefined)
        params.push({ name, value: doc.default, isDefault: true });
    }
    const planned = c.run?.filters.find((x) => x.filterName === f.name);
    const config = planned?.config as
      | {
          allow?: { source: string; flags: string } | null;
          deny?: { source: string; flags: string } | null;
          denyStatus?: number;
        }
      | undefined;
    index.set(f.name, filters.length);
    filters.push({
      name: f.name,
      className: f.className?.value ?? '',
      simpleName: spec?.simpleName ?? (f.className?.value.split('.').pop() || '(no class)'),
      origin: f.origin,
      declared: place(f.def.span),
      params,
      answers: WHAT_ANSWERS[spec?.id ?? ''] ?? '',
      ...(spec?.id === 'remote-addr' && config
        ? {
            addressRule: {
              allow: config.allow ? [config.allow.source, config.allow.flags] : null,
              deny: config.deny ? [config.deny.source, config.deny.flags] : null,
              denyStatus: config.denyStatus ?? 403,
            },
          }
        : {}),
    });
  }
  const chains: ReportChain[] = [];
  const seen = new Set<string>();
  for (const m of merged.filterMappings) {
    const dispatchers = m.mapping.dispatchers.length
      ? m.mapping.dispatchers.map((d) => d.value.trim().toUpperCase())
      : ['REQUEST'];
    for (const u of m.mapping.urlPatterns) {
      for (const dispatcher of dispatchers) {
        const key = `${u.value}\0${dispatcher}`;
        if (seen.has(key) || !['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC'].includes(dispatcher)) continue;
        seen.add(key);
        const chain = effectiveChain(merged, samplePath(u.value), dispatcher as 'REQUEST');
        chains.push({
          pattern: u.value,
          samplePath: samplePath(u.value),
          dispatcher,
          servlet: chain.servlet?.servletName ?? null,
          filters: chain.entries.map((e) => index.get(e.filter.name) ?? -1),
        });
      }
    }
  }
  return {
    path: c.contextPath,
    name: c.name,
    docBase: c.docBase,
    state: c.state,
    reasons: c.reasons.map(reason),
    unrunnable: c.unrunnable,
    sources: c.run?.sources ?? [],
    filters,
    mappings: merged.filterMappings.map((m) => ({
      filter: m.filterName,
      urlPatterns: m.mapping.urlPatterns.map((u) => u.value),
      servletNames: m.mapping.servletNames.map((s) => s.value),
      dispatchers: m.mapping.dispatchers.map((d) => d.value),
      place: place(m.mapping.span),
    })),
    chains,
    table: c.run?.table ?? null,
    tableFilters: c.run?.filters.map((f) => f.filterName) ?? [],
    files: c.state === 'starts' ? listFiles(c.docBase, scope) : [],
  };
}

export type { ResolvedContext };
