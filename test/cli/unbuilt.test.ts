import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** A git checkout that was never built: bin/ without dist/. */
const dir = mkdtempSync(join(tmpdir(), 'tollgate-unbuilt-'));
cpSync(join(import.meta.dirname, '..', '..', 'bin'), join(dir, 'bin'), { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tollgate run from a checkout that was never built', () => {
  it('says in one line how to build it, exit 2, no stack trace', () => {
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'tollgate.js'), 'lint', '.'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    // lint runs from its own bundle (bin/load-cli.cjs).
    expect(r.stderr).toBe('tollgate: dist/bundle/cli-lint.cjs is missing: run `npm run build` in the checkout first\n');
    expect(r.stdout).toBe('');
  });
});
