import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/lint/rules/index.js';

const docs = join(import.meta.dirname, '..', '..', 'docs', 'rules');

describe('rule documentation', () => {
  for (const r of RULES) {
    it(`${r.meta.id} has docs/rules/${r.meta.id}.md with why, a wrong and a right example`, () => {
      const file = join(docs, `${r.meta.id}.md`);
      expect(existsSync(file)).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(`# ${r.meta.id}\n`)).toBe(true);
      for (const heading of ['## Why it matters', '## Wrong', '## Right']) expect(text).toContain(heading);
    });
  }
});
