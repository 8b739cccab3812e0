/**
 * Every scenario under test/fixtures/ordering was run on real Tomcat by
 * scripts/observe-ordering.mjs with probe filters that record their name,
 * init-params and dispatcher type (test/tomcat-observe). These tests hold
 * tollgate to exactly what Tomcat did: chain order, servlet selection, which
 * contexts failed to start, session timeouts, MIME types, servlet params.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  effectiveChain,
  findContext,
  findHost,
  mergedOf,
  mergeWebApp,
  type ChainEntry,
  type MergedWebApp,
  type ServletMatchKind,
} from '../../src/chain/index.js';
import type { CatalinaBase, Dispatcher, LoadedContext, Param } from '../../src/model/index.js';
import { loadBase, parseWebXml } from '../../src/parser/index.js';

interface Dispatch {
  dispatcher: Dispatcher;
  path: string;
  servlet: string;
  match: string;
  pattern: string;
}
interface ObservedRequest {
  host: string;
  path: string;
  status: number;
  order: string[];
  dispatches: Dispatch[];
  servlet?: string[];
  sessionTimeout?: number;
  contentType?: string | null;
}
interface Observed {
  tomcat: string;
  scenario: string;
  failedContexts: { context: string; reason: string | null }[];
  requests: ObservedRequest[];
}
interface Declared {
  about: string;
  requests: { path: string; host?: string; dispatches?: { dispatcher: Dispatcher; path: string }[] }[];
}

const root = join(import.meta.dirname, '..', 'fixtures', 'ordering');
const scenarios = readdirSync(root)
  .filter((d) => existsSync(join(root, d, 'observed.json')))
  .sort();

/** The label ProbeFilter / ProbeServlet print: name, sorted init-params, dispatcher. */
function paramsLabel(name: string, params: readonly Param[]): string {
  const kv = params.map((p) => `${p.name.value}=${p.value.value}`).sort();
  return kv.length ? `${name}[${kv.join(',')}]` : name;
}

function label(e: ChainEntry, dispatcher: Dispatcher): string {
  return `${paramsLabel(e.filter.name, e.filter.initParams)}@${dispatcher}`;
}

const KIND_OF_MATCH: Record<string, ServletMatchKind> = {
  EXACT: 'exact',
  PATH: 'path',
  EXTENSION: 'extension',
  DEFAULT: 'default',
  CONTEXT_ROOT: 'context-root',
};

/** Which diagnostic explains each reason Tomcat logged for refusing a context. */
const RULE_FOR_REASON: [RegExp, string][] = [
  [/Duplicate filter name/, 'duplicate-filter-name'],
  [/unknown filter name/, 'filter-mapping-undefined-filter'],
  [/either a <url-pattern> or a <servlet-name>/, 'webxml-missing-element'],
  [/Exception starting filter/, 'webxml-missing-element'],
  [/unknown servlet name/, 'servlet-mapping-undefined-servlet'],
  [/Invalid <url-pattern>|Failed to decode/, 'invalid-url-pattern'],
  [/both mapped to the url-pattern/, 'duplicate-servlet-mapping'],
  [/For input string/, 'webxml-invalid-value'],
];

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The loader does not read WEB-INF/tomcat-web.xml; Tomcat does, so the test supplies it. */
function mergedFor(
  base: CatalinaBase,
  context: LoadedContext,
  fallback: MergedWebApp,
  hostDefault: CatalinaBase['hosts'][number]['webXmlDefault'],
): MergedWebApp {
  const file = join(context.docBase, 'WEB-INF', 'tomcat-web.xml');
  if (context.tomcatWebXml !== undefined || !existsSync(file)) return fallback;
  const tomcatWeb = parseWebXml(readFileSync(file), file).webXml;
  return mergeWebApp(base.globalWebXml, hostDefault, context.webXml, tomcatWeb);
}

it('holds at least 15 scenarios observed on Tomcat', () => {
  expect(scenarios.length).toBeGreaterThanOrEqual(15);
});

for (const scenario of scenarios) {
  const dir = join(root, scenario);
  const observed = JSON.parse(readFileSync(join(dir, 'observed.json'), 'utf8')) as Observed;
  const declared = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as Declared;

  describe(`${scenario}: ${declared.about}`, () => {
    const base = loadBase({ base: dir });
    const failed = new Map(observed.failedContexts.map((f) => [f.context, f.reason]));

    observed.requests.forEach((r, i) => {
      const extra = declared.requests[i]?.dispatches ?? [];
      const title = `${r.host} ${r.path} -> ${r.order.join(' ') || (r.status === 404 ? 'no filter (404)' : `no filter (${r.status})`)}`;
      it(title, () => {
        const uri = decodeURIComponent(r.path);
        const host = findHost(base, r.host)!;
        // The context the URI names, whether or not it starts.
        const named = findContext(host, uri)!;
        const namedMerged = mergedFor(base, named, mergedOf(base, host, named), host.webXmlDefault);
        const failedReason = failed.get(named.path || '/');
        if (failedReason !== undefined) {
          // Tomcat refused this context: tollgate must say it may not start, and why.
          expect(namedMerged.startup).not.toBe('starts');
          const rule = RULE_FOR_REASON.find(([re]) => re.test(failedReason ?? ''))?.[1];
          expect(rule, `no rule for Tomcat's reason "${failedReason}"`).toBeDefined();
          expect(namedMerged.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId)).toContain(rule);
        }
        const match = findContext(base, r.host, uri);
        if (!match) {
          expect(r.order).toEqual([]);
          return;
        }
        const { context } = match;
        const merged = mergedFor(base, context, match.merged, host.webXmlDefault);
        if (failed.has(context.path || '/')) {
          // Only a context that may start (the first on its host may not) is ever chosen; Tomcat's did not.
          expect(merged.startup).toBe('first-on-host-fails');
          expect(r.order).toEqual([]);
          return;
        }
        expect(merged.startup, merged.diagnostics.map((d) => d.message).join('\n')).not.toBe('fails');
        const exists = (p: string): boolean => isFile(join(context.docBase, p));
        const request = effectiveChain(merged, match.path, 'REQUEST', exists);
        const got = request.entries.map((e) => label(e, 'REQUEST'));
        for (const d of extra)
          got.push(...effectiveChain(merged, d.path, d.dispatcher, exists).entries.map((e) => label(e, d.dispatcher)));
        expect(got).toEqual(r.order);

        const seen = r.dispatches.find((d) => d.dispatcher === 'REQUEST');
        if (seen) {
          expect(request.servlet?.servletName).toBe(seen.servlet);
          expect(request.servlet?.requestPath).toBe(seen.path);
          const kind = KIND_OF_MATCH[seen.match];
          // Tomcat reports no match type for a welcome resource served by the default servlet.
          if (kind) expect(request.servlet?.kind).toBe(kind);
        }
        for (const d of r.dispatches.filter((x) => x.dispatcher !== 'REQUEST')) {
          expect(extra.map((x) => `${x.dispatcher} ${x.path}`)).toContain(`${d.dispatcher} ${d.path}`);
        }
        if (r.servlet) {
          const s = merged.servlets.get(request.servlet!.servletName)!;
          expect(paramsLabel(s.name, s.initParams)).toBe(r.servlet[0]);
        }
        if (r.sessionTimeout !== undefined) expect(merged.sessionTimeoutMinutes).toBe(r.sessionTimeout);
        if (r.contentType !== undefined) {
          const ext = uri.slice(uri.lastIndexOf('.') + 1).toLowerCase();
          expect(merged.mimeMappings.get(ext)).toBe(r.contentType?.split(';')[0]);
        }
      });
    });

    it('marks exactly the contexts Tomcat refused (or may refuse) as not starting', () => {
      const refusedByTomcat = new Set(failed.keys());
      for (const h of base.hosts) {
        for (const c of h.contexts) {
          const merged = mergedFor(base, c, mergedOf(base, h, c), h.webXmlDefault);
          const name = c.path || '/';
          if (refusedByTomcat.has(name)) expect(merged.startup, name).not.toBe('starts');
          else expect(merged.startup, name).not.toBe('fails');
        }
      }
    });
  });
}
