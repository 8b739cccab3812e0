import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a build script, plain JavaScript without declarations
import { lazyJsonTables } from '../../scripts/lazy-json-tables.mjs';

const transform = lazyJsonTables as (
  source: string,
  options?: { sideFile?: string },
) => { source: string; lazy: number; eager: number; tables?: string };
const repo = join(import.meta.dirname, '..', '..');

/** Evaluates CommonJS source as Node would, and returns its exports. */
function load(source: string, dirname = repo): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  (
    runInThisContext(`(function (exports, require, module, __dirname) {${source}\n})`) as (
      e: unknown,
      r: unknown,
      m: unknown,
      d: string,
    ) => void
  )(module.exports, createRequire(import.meta.url), module, dirname);
  return module.exports;
}

describe("lazyJsonTables (the CLI bundle parses refa's Unicode tables on first use)", () => {
  it('defers a table used only as a namespace entry, keeps one used elsewhere, and keeps "use strict" first', () => {
    const source = `"use strict";const a=JSON.parse('[1,2]'),b=JSON.parse("[3]");const N=Object.freeze({__proto__:null,A:a});exports.N=N;exports.b=b;exports.strict=(function(){return this})()===undefined;`;
    const out = transform(source);
    expect(out).toMatchObject({ lazy: 1, eager: 1 });
    expect(out.source.startsWith('"use strict";')).toBe(true);
    const m = load(out.source) as { N: { A: number[] }; b: number[]; strict: boolean };
    expect(m.strict).toBe(true);
    expect(m.b).toEqual([3]);
    expect(Object.isFrozen(m.N)).toBe(true);
    expect(Object.keys(m.N)).toEqual(['A']);
    // Parsed once, then the same array on every read, as the eager table was.
    expect(m.N.A).toEqual([1, 2]);
    expect(m.N.A).toBe(m.N.A);
  });

  it('leaves a file without such tables as it was', () => {
    const source = '"use strict";const a=JSON.parse("[1]");exports.a=a;';
    expect(transform(source)).toEqual({ source, lazy: 0, eager: 1 });
  });

  it('gives refa the same automata for Unicode properties, categories, scripts and case-insensitive patterns', () => {
    const path = join(repo, 'node_modules', 'refa', 'index.js');
    const original = readFileSync(path, 'utf8');
    const out = transform(original);
    expect(out.lazy).toBeGreaterThan(300);
    type Refa = typeof import('refa');
    const refas = [load(original), load(out.source)] as unknown as Refa[];
    const patterns = [
      { source: String.raw`\p{Lu}+\p{Script=Greek}\p{Script_Extensions=Latin}?`, flags: 'u' },
      { source: String.raw`[\p{ASCII_Hex_Digit}\p{White_Space}]{2}\P{L}`, flags: 'u' },
      { source: String.raw`\p{Script=Cyrillic}\p{Nd}\p{General_Category=Currency_Symbol}`, flags: 'iu' },
      { source: String.raw`10\.\d{1,3}\.\d{1,3}\.\d{1,3}|fe[89ab][0-9a-f]:.*`, flags: 'i' },
      { source: String.raw`k\u212A[a-z]`, flags: 'iu' },
    ];
    // With the tables in a file beside the bundle (scripts/bundle.mjs), read on first use: the same automata again.
    const side = transform(original, { sideFile: 'tables.txt' });
    expect(side.lazy).toBe(out.lazy);
    expect(original.length - side.source.length).toBeGreaterThan(500_000);
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-refa-tables-'));
    try {
      writeFileSync(join(dir, 'tables.txt'), side.tables!, 'latin1');
      refas.push(load(side.source, dir) as unknown as Refa);
      for (const p of patterns) {
        const [a, ...others] = refas.map(({ JS, DFA, NFA }) => {
          const { expression, maxCharacter } = JS.Parser.fromLiteral(p).parse();
          return DFA.fromFA(NFA.fromRegex(expression, { maxCharacter })).toString();
        });
        for (const b of others) expect(b, p.source).toBe(a);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
