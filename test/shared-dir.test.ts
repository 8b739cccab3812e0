import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS_SHARED } from './shared-dir.js';

const repo = join(import.meta.dirname, '..');

function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(relative(repo, p));
  }
  return out;
}

describe('the suites that need ../shared', () => {
  it('are exactly the test files that read it through sharedPath, so a clone alone leaves out no other', () => {
    const reading = testFiles(join(repo, 'test')).filter(
      (f) =>
        /\bsharedPath\(/.test(readFileSync(join(repo, f), 'utf8')) ||
        /\/work\/shared|\.\.\/\.\.\/\.\.\/shared/.test(readFileSync(join(repo, f), 'utf8')),
    );
    expect(reading.filter((f) => !f.startsWith('test/conformance/')).sort()).toEqual([...NEEDS_SHARED].sort());
  });
});
