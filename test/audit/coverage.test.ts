import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, CATALOGUE } from '../../src/audit/catalogue.js';
import { coverageMarkdown, coverageOf } from '../../src/audit/coverage.js';

describe('docs/hardening.md', () => {
  it('is the table generated from the catalogue and the rules (run npx tsx scripts/hardening-doc.ts when this fails)', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'hardening.md'), 'utf8');
    expect(doc).toBe(coverageMarkdown());
  });

  it('has a row for every control of both benchmarks', () => {
    const doc = coverageMarkdown();
    for (const b of BENCHMARKS) for (const c of CATALOGUE[b].controls) expect(doc).toContain(`| ${c.id} | `);
  });

  it('counts each control once, decided by rules or manual', () => {
    for (const b of BENCHMARKS) {
      const c = coverageOf(b);
      expect(c.automatic + c.manual).toBe(CATALOGUE[b].controls.length);
    }
  });
});
