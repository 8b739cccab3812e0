import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { effectiveChain, mergedOf } from '../../src/chain/index.js';
import { main } from '../../src/cli/index.js';
import { planBase } from '../../src/plan/index.js';
import { validateFilterDef } from '../../src/filters/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import type { CatalinaBase } from '../../src/model/index.js';
import { loadBase } from '../../src/parser/index.js';
import { cleanup, tree } from '../lint/helpers.js';

afterAll(cleanup);

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd });
  return { code, out };
}

/** The filters that run for a path, with their validated configs: what a compiled chain would execute. */
function behaviour(base: CatalinaBase, contextPath: string, path: string): unknown {
  const host = base.hosts[0]!;
  const ctx = host.contexts.find((c) => c.path === contextPath)!;
  const merged = mergedOf(base, host, ctx);
  return effectiveChain(merged, path).entries.map((e) => ({
    name: e.filter.name,
    class: e.filter.className?.value,
    config: validateFilterDef({ ...e.filter.def, initParams: e.filter.initParams }).config,
  }));
}

describe('the JSON chain format', () => {
  it('lint reports problems at the line and column of the JSON', () => {
    const text =
      '{\n  "version": 1,\n  "contexts": [\n    {\n      "path": "/api",\n      "filters": [\n        { "name": "cors", "class": "org.apache.catalina.filters.CorsFilter", "params": { "cors.allowed.origins": "*", "cors.support.credentials": true } }\n      ],\n      "mappings": [ { "filter": "cors", "urlPatterns": ["/*"] } ]\n    }\n  ]\n}\n';
    const dir = tree({ 'tollgate.chain.json': text });
    const d = lintBase(loadInput(join(dir, 'tollgate.chain.json'))).diagnostics.find(
      (x) => x.ruleId === 'cors-credentials-with-any-origin',
    )!;
    expect(d.span.line).toBe(7);
    expect(text.split('\n')[6]!.slice(d.span.column - 1, d.span.endColumn - 1)).toBe('true');
  });

  it('reports a wrong type where it is', () => {
    const text =
      '{ "version": 1, "contexts": [ { "path": "/a", "filters": [ { "name": "h", "class": "org.apache.catalina.filters.HttpHeaderSecurityFilter", "params": { "hstsMaxAgeSeconds": [1] } } ] } ] }';
    const dir = tree({ 'c.json': text });
    const d = lintBase(loadInput(join(dir, 'c.json'))).diagnostics.find((x) => x.ruleId === 'json-chain-invalid')!;
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('[1]');
  });

  for (const [app, paths] of [
    ['api', ['/items', '/forms/submit']],
    ['static', ['/assets/site.css', '/']],
    ['intranet', ['/']],
  ] as const) {
    it(`convert: the JSON of examples/base/webapps/${app} runs the same filters with the same configs`, async () => {
      const dir = tree({});
      const out = join(dir, 'tollgate.chain.json');
      const r = await cli(['convert', join(example, 'webapps', app, 'WEB-INF', 'web.xml'), '--out', out], dir);
      expect(r.code).toBe(0);
      // The global conf/web.xml comes along as the document's "global" part.
      const doc = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      const global = JSON.parse((await cli(['convert', join(example, 'conf', 'web.xml'), '--path', '/'], dir)).out) as {
        contexts: Record<string, unknown>[];
      };
      const { path: _path, sessionTimeoutMinutes: _timeout, ...globalPart } = global.contexts[0]!;
      doc['global'] = globalPart;
      writeFileSync(out, JSON.stringify(doc, null, 2));
      const fromJson = loadInput(out);
      expect(lintBase(fromJson).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const fromXml = loadBase({ base: example });
      for (const p of paths) expect(behaviour(fromJson, `/${app}`, p)).toEqual(behaviour(fromXml, `/${app}`, p));
      // Compiled, both give the same filters, configs and selector table: the same running chain.
      const plan = (base: CatalinaBase) => {
        const p = planBase(base).plans.find((x) => x.contextPath === `/${app}`)!;
        return { filters: p.filters, table: p.table };
      };
      expect(plan(fromJson)).toEqual(plan(fromXml));
    });
  }

  it('tollgate chain reads a JSON chain document as --base', async () => {
    const dir = tree({
      'tollgate.chain.json': JSON.stringify({
        version: 1,
        contexts: [
          {
            path: '/api',
            filters: [{ name: 'h', class: 'org.apache.catalina.filters.HttpHeaderSecurityFilter' }],
            mappings: [{ filter: 'h', urlPatterns: ['/*'] }],
          },
        ],
      }),
    });
    const r = await cli(['chain', '--base', join(dir, 'tollgate.chain.json'), '--path', '/api/x'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1. h  org.apache.catalina.filters.HttpHeaderSecurityFilter');
  });
});
