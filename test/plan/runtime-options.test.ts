// compile, serve and embed run a context from one function of its plan (src/runtime/plan-options.ts):
// here each of the three builds its contexts of the example base, and the options each hands to
// createContextRuntime are compared, so a change to one path that the others do not share fails.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileBase } from '../../src/compile/index.js';
import { createContextChain, planCatalinaBase } from '../../src/embed/index.js';
import { loadBase } from '../../src/parser/index.js';
import type { ContextRuntimeOptions } from '../../src/runtime/context.js';
import { FILTER_FACTORIES } from '../../src/runtime/filters/index.js';
import { startContainer } from '../../src/server/container.js';

const seen = vi.hoisted(() => ({ options: [] as unknown[] }));
vi.mock('../../src/runtime/context.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/runtime/context.js')>();
  return {
    ...real,
    createContextRuntime: (o: ContextRuntimeOptions) => {
      seen.options.push(o);
      return real.createContextRuntime(o);
    },
  };
});

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');
const ids = new Map<unknown, string>(Object.entries(FILTER_FACTORIES).map(([id, f]) => [f, id]));

/** What the plan decides of the options, with each factory named by its id. */
function planned(o: unknown): unknown {
  const r = o as Record<string, unknown> & {
    filters: { filterName: string; className: string; factory: unknown; config: unknown }[];
  };
  return {
    contextPath: r['contextPath'],
    sessionTimeoutMinutes: r['sessionTimeoutMinutes'],
    requestCharacterEncoding: r['requestCharacterEncoding'],
    mimeTypes: r['mimeTypes'],
    mimeDefaults: r['mimeDefaults'],
    table: r['table'],
    errorPages: r['errorPages'],
    filters: r.filters.map((f) => ({
      filterName: f.filterName,
      className: f.className,
      factory: ids.get(f.factory) ?? 'not a factory of FILTER_FACTORIES',
      config: f.config,
    })),
  };
}

/** The options a compiled module passes, run as the module runs with the runtime it imports. */
function compiledOptions(code: string): unknown {
  const body = code
    .replace(/^import \{([^}]*)\} from 'tollgate\/runtime';$/m, 'const {$1} = __rt;')
    .replace(/^export function /gm, 'function ')
    .replace(/^export default middleware;$/m, 'return undefined;');
  const got: unknown[] = [];
  new Function('__rt', body)({ FILTER_FACTORIES, createContextRuntime: (o: unknown) => got.push(o) });
  expect(got).toHaveLength(1);
  return got[0];
}

describe('one step from a plan to the runtime: compile, serve and embed build equal options', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-options-'));
    cpSync(example, dir, { recursive: true });
    // The example has no error page and no request encoding: one context gets both, so they are compared too.
    const webXml = join(dir, 'webapps', 'static', 'WEB-INF', 'web.xml');
    const pages =
      '  <request-character-encoding>ISO-8859-1</request-character-encoding>\n' +
      '  <error-page><error-code>404</error-code><location>/missing.html</location></error-page>\n' +
      '  <error-page><exception-type>java.lang.Throwable</exception-type><location>/oops.html</location></error-page>\n';
    writeFileSync(webXml, readFileSync(webXml, 'utf8').replace('</web-app>', `${pages}</web-app>`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('for every context of the example base', async () => {
    const compiled = compileBase(loadBase({ base: dir })).modules;
    expect(compiled.length).toBeGreaterThanOrEqual(5);
    const fromCompile = new Map(compiled.map((m) => [`${m.host}${m.contextPath}`, planned(compiledOptions(m.code))]));

    const embedded = planCatalinaBase(dir);
    seen.options.length = 0;
    const fromEmbed = new Map<string, unknown>();
    for (const m of compiled) {
      createContextChain(embedded.context(m.contextPath, m.host)!);
      fromEmbed.set(`${m.host}${m.contextPath}`, planned(seen.options.pop()));
    }
    expect(fromEmbed).toEqual(fromCompile);

    seen.options.length = 0;
    const container = await startContainer({ base: dir, port: 0, address: '127.0.0.1' });
    try {
      const fromServe = seen.options.map(planned);
      const key = (x: unknown) => JSON.stringify(x);
      expect(fromServe.map(key).sort()).toEqual([...fromCompile.values()].map(key).sort());
      // A context with filters, error pages and MIME mappings is among them, so each part is compared.
      const parts = [...fromCompile.values()] as { filters: unknown[]; errorPages: unknown[]; mimeTypes: object }[];
      expect(parts.some((p) => p.filters.length > 0)).toBe(true);
      expect(parts.some((p) => p.errorPages.length === 2)).toBe(true);
      expect(
        parts.some((p) => (p as { requestCharacterEncoding?: unknown }).requestCharacterEncoding === 'ISO-8859-1'),
      ).toBe(true);
      expect(parts.some((p) => Object.keys(p.mimeTypes).length > 0)).toBe(true);
    } finally {
      await container.stop();
    }
  });
});
