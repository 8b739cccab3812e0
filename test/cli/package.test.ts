import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');

describe('the built package', () => {
  it('exports "tollgate" and "tollgate/runtime" to ESM consumers', () => {
    // A separate Node process resolves the package by its own name, exactly as a user's code would.
    const out = execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `const lib = await import('tollgate'); const rt = await import('tollgate/runtime');
       console.log(typeof lib.loadBase, typeof lib.effectiveChain, typeof rt.matchesFilterUrlPattern);`,
    ], { cwd: repo, encoding: 'utf8' });
    expect(out.trim()).toBe('function function function');
  });

  it('runs as a CLI through bin/tollgate.js', () => {
    const out = execFileSync(process.execPath, ['bin/tollgate.js', 'chain', '--base', 'examples/base', '--path', '/intranet/', '--format', 'json'], { cwd: repo, encoding: 'utf8' });
    expect((JSON.parse(out) as { filters: { name: string }[] }).filters.map((f) => f.name)).toEqual(['RemoteIpFilter', 'RemoteCIDRFilter', 'httpHeaderSecurity']);
  });
});
