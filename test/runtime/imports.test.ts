import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', 'src', 'runtime');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('the runtime import graph', () => {
  it('imports only node built-ins, other runtime files and types', () => {
    const offenders: string[] = [];
    for (const file of files(root)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const [, , typeOnly, spec] = m;
        const ok = spec!.startsWith('node:') || (spec!.startsWith('./') || spec!.startsWith('../')) && !typeOnly && isInsideRuntime(file, spec!) || (typeOnly && spec!.startsWith('../'));
        if (!ok) offenders.push(`${relative(root, file)}: ${m[0].trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

function isInsideRuntime(file: string, spec: string): boolean {
  const target = join(file, '..', spec);
  return !relative(root, target).startsWith('..');
}
