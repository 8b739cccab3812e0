import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, ruleById } from '../../src/lint/rules/index.js';

const src = join(import.meta.dirname, '..', '..', 'src');

/** Every rule id written as a literal next to `ruleId` in the stages whose diagnostics reach `tollgate lint`. */
function producedIds(): Map<string, string> {
  const out = new Map<string, string>();
  for (const stage of ['parser', 'chain', 'filters', 'lint', 'schema']) {
    for (const entry of readdirSync(join(src, stage), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!/\bruleId\b\s*[:=?]/.test(line)) continue;
        for (const m of line.matchAll(/'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g)) out.set(m[1]!, path.slice(src.length + 1));
      }
    }
  }
  return out;
}

describe('the rule registry', () => {
  it('registers every rule id a stage can report, so --rule, config and suppressions work for it and SARIF describes it', () => {
    const unregistered = [...producedIds()].filter(([id]) => !ruleById(id)).map(([id, file]) => `${id} (${file})`);
    expect(unregistered).toEqual([]);
  });

  it('has one rule per id, each in the file named after it', () => {
    const ids = RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    const files = readdirSync(join(src, 'lint', 'rules')).filter(
      (f) => f.endsWith('.ts') && !['index.ts', 'util.ts', 'chain-order.ts', 'users.ts', 'webapp.ts'].includes(f),
    );
    expect(files.map((f) => f.slice(0, -3)).sort()).toEqual([...ids].sort());
  });
});
