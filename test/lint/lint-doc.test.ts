import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/lint/rules/index.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'lint.md'), 'utf8');

describe('docs/lint.md', () => {
  it('lists every rule with its default severity and a link to its page', () => {
    const missing = RULES.filter((r) => {
      const row = doc.split('\n').find((l) => l.startsWith(`| [\`${r.meta.id}\`](rules/${r.meta.id}.md) |`));
      return (
        !row || !row.includes(`| ${r.meta.defaultSeverity}`) || (r.meta.fixable === true) !== /\| yes \|/.test(row)
      );
    });
    expect(missing.map((r) => r.meta.id)).toEqual([]);
  });

  it('lists no rule that does not exist', () => {
    const listed = [...doc.matchAll(/^\| \[`([a-z0-9-]+)`\]\(rules\//gm)].map((m) => m[1]);
    expect(listed.filter((id) => !RULES.some((r) => r.meta.id === id))).toEqual([]);
  });
});
