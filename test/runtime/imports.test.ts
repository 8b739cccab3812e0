import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '..', '..', 'src');
const runtime = join(src, 'runtime');
const filters = join(src, 'filters');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

interface ImportSite {
  spec: string;
  typeOnly: boolean;
  text: string;
}

/** Every module reference in a file: static import/export ... from, bare imports, dynamic import() and require(). */
function importsOf(text: string): ImportSite[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: ImportSite[] = [];
  for (const m of code.matchAll(/\b(import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?['"]([^'"]+)['"]/g)) {
    out.push({ spec: m[3]!, typeOnly: m[2] !== undefined, text: m[0].replace(/\s+/g, ' ') });
  }
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false, text: m[0] });
  return out;
}

function allowed(file: string, site: ImportSite): boolean {
  if (site.spec.startsWith('node:')) return builtinModules.includes(site.spec.slice(5));
  if (!site.spec.startsWith('.')) return false;
  const target = resolve(dirname(file), site.spec);
  if (!relative(runtime, target).startsWith('..')) return true;
  // Filter config types (the zod schemas' output types) may be named, never loaded.
  return site.typeOnly && !relative(filters, target).startsWith('..');
}

describe('the runtime import graph', () => {
  it('finds the imports it must judge, including multi-line and type-only ones', () => {
    const sites = importsOf("import {\n  a,\n  b,\n} from 'zod';\nimport type { C } from '../filters/cors.js';\nimport './side.js';\nconst x = await import('saxes');");
    expect(sites.map((s) => [s.spec, s.typeOnly])).toEqual([
      ['zod', false],
      ['../filters/cors.js', true],
      ['./side.js', false],
      ['saxes', false],
    ]);
  });

  it('rejects packages, compiler stages and value imports of filter schemas', () => {
    const file = join(runtime, 'filters', 'cors.ts');
    expect(allowed(file, { spec: 'zod', typeOnly: false, text: '' })).toBe(false);
    expect(allowed(file, { spec: '../../chain/index.js', typeOnly: true, text: '' })).toBe(false);
    expect(allowed(file, { spec: '../../filters/cors.js', typeOnly: false, text: '' })).toBe(false);
    expect(allowed(file, { spec: 'node:not-a-module', typeOnly: false, text: '' })).toBe(false);
    expect(allowed(file, { spec: '../../filters/cors.js', typeOnly: true, text: '' })).toBe(true);
    expect(allowed(file, { spec: '../exchange.js', typeOnly: false, text: '' })).toBe(true);
    expect(allowed(file, { spec: 'node:http', typeOnly: false, text: '' })).toBe(true);
  });

  it('every file under src/runtime imports only node built-ins, the runtime itself, and filter config types', () => {
    const all = files(runtime);
    expect(all.length).toBeGreaterThan(5);
    const offenders: string[] = [];
    for (const file of all) {
      for (const site of importsOf(readFileSync(file, 'utf8'))) {
        if (!allowed(file, site)) offenders.push(`${relative(runtime, file)}: ${site.text}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
