import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, TollgateInputError, writeModules } from '../../src/api/compile.js';

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');
const out = mkdtempSync(join(tmpdir(), 'tollgate-api-compile-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('tollgate/compile', () => {
  it('compiles every context of a base to a module, the same bytes each time', () => {
    const first = compile(example);
    expect(first.skipped).toEqual([]);
    expect(first.modules.map((m) => m.fileName)).toContain('localhost/api.mjs');
    expect(compile(example).modules.map((m) => m.code)).toEqual(first.modules.map((m) => m.code));
  });

  it('writes each module beside its declarations', () => {
    const written = writeModules(compile(example).modules, out);
    expect(written).toContain(join(out, 'localhost', 'api.mjs'));
    expect(readFileSync(join(out, 'localhost', 'api.mjs'), 'utf8')).toContain("from 'tollgate/runtime'");
    expect(existsSync(join(out, 'localhost', 'api.d.mts'))).toBe(true);
  });

  it('throws TollgateInputError for a path that is neither a base nor a chain document', () => {
    expect(() => compile('no-such-base', { cwd: out })).toThrow(TollgateInputError);
    expect(() => compile('no-such-base', { cwd: out })).toThrow(/^no-such-base: no such file or directory$/);
  });
});
