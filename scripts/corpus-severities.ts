// Findings per severity (and per rule) on the real-world corpus, each file linted as test/lint/corpus.test.ts does:
//   TOLLGATE_SHARED=../shared npx tsx scripts/corpus-severities.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintBase } from '../src/lint/engine.js';
import { loadInput } from '../src/lint/inputs.js';
import { sharedPath } from '../test/shared-dir.js';

const root = sharedPath('corpus', 'real-world');
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { files: { file: string }[] };
const total: Record<string, number> = { error: 0, warning: 0, info: 0 };
const byRule = new Map<string, number>();
for (const f of manifest.files) {
  for (const d of lintBase(loadInput(join(root, f.file))).diagnostics) {
    total[d.severity]!++;
    const key = `${d.ruleId} ${d.severity}`;
    byRule.set(key, (byRule.get(key) ?? 0) + 1);
  }
}
console.log(
  `${manifest.files.length} files: ${total['error']} errors, ${total['warning']} warnings, ${total['info']} infos`,
);
for (const [key, n] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${key} ${n}`);
