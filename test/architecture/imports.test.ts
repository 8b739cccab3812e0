import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const src = join(root, 'src');

interface ImportSite {
  spec: string;
  typeOnly: boolean;
}

interface FolderRule {
  folder: string;
  folders: Map<string, 'value' | 'types'>;
  packages: Map<string, 'value' | 'types'>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module reference in a file: static import/export ... from, bare imports, dynamic import() and require(). */
export function importsOf(text: string): ImportSite[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: ImportSite[] = [];
  for (const m of code.matchAll(/\b(import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?['"]([^'"]+)['"]/g))
    out.push({ spec: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** The folder of `src` a path belongs to: `src/lint` for src/lint/rules/x.ts, `src` for src/index.ts. */
function folderOf(path: string): string {
  const parts = relative(src, path).split('/');
  return parts.length > 1 ? `src/${parts[0]}` : 'src';
}

/** The rows of docs/architecture.md's folder table, in order. */
export function readRules(markdown: string): FolderRule[] {
  const rows: FolderRule[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const m = /^`(src(?:\/[a-z-]+)?)`/.exec(cells[1] ?? '');
    if (!m || cells.length < 5) continue;
    const rule: FolderRule = { folder: m[1]!, folders: new Map(), packages: new Map() };
    for (const item of cells[3]!.matchAll(/`([^`]+)`( \(types\))?/g)) {
      const kind = item[2] ? 'types' : 'value';
      (item[1]!.startsWith('src') ? rule.folders : rule.packages).set(item[1]!, kind);
    }
    rows.push(rule);
  }
  return rows;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Why an import breaks the rule of its folder, or null when it is allowed. */
export function violation(rule: FolderRule, file: string, site: ImportSite): string | null {
  if (site.spec.startsWith('node:'))
    return builtinModules.includes(site.spec.slice(5)) ? null : `unknown built-in ${site.spec}`;
  if (!site.spec.startsWith('.')) {
    const kind = rule.packages.get(packageName(site.spec));
    if (kind === undefined) return `package ${site.spec} is not in ${rule.folder}'s row`;
    return kind === 'types' && !site.typeOnly ? `package ${site.spec} may be imported for its types only` : null;
  }
  const target = folderOf(resolve(dirname(file), site.spec));
  if (target === rule.folder) return null;
  const kind = rule.folders.get(target);
  if (kind === undefined) return `${rule.folder} may not import ${target}`;
  return kind === 'types' && !site.typeOnly ? `${rule.folder} may import ${target} for its types only` : null;
}

const rules = readRules(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));
const byFolder = new Map(rules.map((r) => [r.folder, r]));
const files = sourceFiles(src);

describe('docs/architecture.md and the imports of src/', () => {
  it('reads the folder table and the import kinds of its rows', () => {
    const [row] = readRules('| `src/x` | what | `src/model`, `src/filters` (types), `zod` |');
    expect(row!.folder).toBe('src/x');
    expect([...row!.folders]).toEqual([
      ['src/model', 'value'],
      ['src/filters', 'types'],
    ]);
    expect([...row!.packages]).toEqual([['zod', 'value']]);
  });

  it('judges value imports of a types-only folder, unknown folders and packages as violations', () => {
    const [row] = readRules('| `src/runtime` | what | `src/protocol`, `src/filters` (types) |');
    const file = join(src, 'runtime', 'filters', 'cors.ts');
    expect(violation(row!, file, { spec: '../../protocol/net.js', typeOnly: false })).toBeNull();
    expect(violation(row!, file, { spec: '../exchange.js', typeOnly: false })).toBeNull();
    expect(violation(row!, file, { spec: '../../filters/cors.js', typeOnly: true })).toBeNull();
    expect(violation(row!, file, { spec: '../../filters/cors.js', typeOnly: false })).toMatch(/types only/);
    expect(violation(row!, file, { spec: '../../chain/index.js', typeOnly: true })).toMatch(
      /may not import src\/chain/,
    );
    expect(violation(row!, file, { spec: 'zod', typeOnly: false })).toMatch(/package zod/);
    expect(violation(row!, file, { spec: 'node:not-a-module', typeOnly: false })).toMatch(/unknown built-in/);
    expect(violation(row!, file, { spec: 'node:http', typeOnly: false })).toBeNull();
  });

  it('lists every folder of src/ and no folder that does not exist', () => {
    const onDisk = readdirSync(src)
      .filter((n) => statSync(join(src, n)).isDirectory())
      .map((n) => `src/${n}`);
    const listed = rules.map((r) => r.folder).filter((f) => f !== 'src');
    expect([...listed].sort()).toEqual([...onDisk].sort());
    expect(rules.some((r) => r.folder === 'src')).toBe(true);
  });

  it('lets a folder import only folders listed above it (the layers have no cycle)', () => {
    const problems: string[] = [];
    rules.forEach((rule, i) => {
      for (const f of rule.folders.keys()) {
        const at = rules.findIndex((r) => r.folder === f);
        if (at < 0 || at >= i) problems.push(`${rule.folder} may import ${f}, which is not above it`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('every import in src/ follows the row of its folder', () => {
    expect(files.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const file of files) {
      const rule = byFolder.get(folderOf(file))!;
      for (const site of importsOf(readFileSync(file, 'utf8'))) {
        const why = violation(rule, file, site);
        if (why) problems.push(`${relative(root, file)}: '${site.spec}': ${why}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('no file of src/ imports itself through a cycle of other files', () => {
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const deps = importsOf(readFileSync(file, 'utf8'))
        .filter((s) => s.spec.startsWith('.') && !s.typeOnly)
        .map((s) => resolve(dirname(file), s.spec).replace(/\.js$/, '.ts'));
      graph.set(file, deps);
    }
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
