import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const shim = createRequire(import.meta.url)('../../scripts/assert-for-yargs.cjs') as {
  notStrictEqual: (a: unknown, b: unknown, message?: string | Error) => void;
  strictEqual: (a: unknown, b: unknown, message?: string | Error) => void;
};

describe('assert-for-yargs (node:assert for yargs in the CLI bundle)', () => {
  it('passes what node:assert passes, comparing with Object.is', () => {
    expect(() => shim.notStrictEqual('a', undefined)).not.toThrow();
    expect(() => shim.notStrictEqual(0, -0)).not.toThrow();
    expect(() => shim.strictEqual(typeof 'x', 'string')).not.toThrow();
    expect(() => shim.strictEqual(NaN, NaN)).not.toThrow();
  });

  it('throws an AssertionError (name and code) with the given message where node:assert throws', () => {
    expect(() => shim.notStrictEqual(undefined, undefined, 'no package.json')).toThrow(
      expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION', message: 'no package.json' }),
    );
    expect(() => shim.strictEqual(1, '1')).toThrow(
      expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION' }),
    );
    const own = new Error('own');
    expect(() => shim.strictEqual(1, 2, own)).toThrow(own);
  });
});
