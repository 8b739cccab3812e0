import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyFixes } from '../../src/lint/fix.js';
import type { Diagnostic, SourceFile, TextEdit } from '../../src/model/index.js';
import { fileStartSpan } from '../../src/model/index.js';
import { cleanup, tree } from './helpers.js';

afterAll(cleanup);

/** A file on disk and its SourceFile, as the parser would have decoded it. */
function file(
  text: string,
  encoding: 'utf-8' | 'iso-8859-1' = 'utf-8',
): { path: string; files: Map<string, SourceFile> } {
  const dir = tree({ 'f.xml': '' });
  const path = join(dir, 'f.xml');
  writeFileSync(path, Buffer.from(text, encoding === 'utf-8' ? 'utf8' : 'latin1'));
  return { path, files: new Map([[path, { path, text, encoding, bom: false }]]) };
}

function fixing(path: string, ...edits: [number, number, string][]): Diagnostic {
  const fix: TextEdit[] = edits.map(([offset, endOffset, text]) => ({ file: path, offset, endOffset, text }));
  return { ruleId: 'filter-param-unknown', severity: 'error', message: 'm', span: fileStartSpan(path), fix };
}

describe('applyFixes', () => {
  it('applies non-overlapping fixes and leaves an overlapping one for the next pass', () => {
    const { path, files } = file('<a>one two three</a>');
    const r = applyFixes(
      [fixing(path, [3, 6, 'ONE']), fixing(path, [4, 10, 'xx']), fixing(path, [11, 16, 'THREE'])],
      files,
    );
    expect(r.fixed).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe('<a>ONE two THREE</a>');
  });

  it('applies a fix of several edits whole or not at all', () => {
    const { path, files } = file('<a>one two three</a>');
    const r = applyFixes([fixing(path, [3, 6, '1']), fixing(path, [7, 10, '2'], [5, 6, 'E'])], files);
    expect(r.fixed).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe('<a>1 two three</a>');
  });

  it('applies two identical edits once', () => {
    const { path, files } = file('<a>x</a>');
    const r = applyFixes([fixing(path, [3, 3, 'y']), fixing(path, [3, 3, 'y'])], files);
    expect(r.fixed).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe('<a>yx</a>');
  });

  it("does not write a character the file's encoding cannot hold", () => {
    const { path, files } = file('<a>caf\u00e9</a>', 'iso-8859-1');
    const r = applyFixes([fixing(path, [3, 7, '\u20ac'])], files);
    expect(r.fixed).toBe(0);
    expect(readFileSync(path).equals(Buffer.from('<a>caf\u00e9</a>', 'latin1'))).toBe(true);
  });

  it('leaves a file alone that changed on disk since it was linted', () => {
    const { path, files } = file('<a>x</a>');
    writeFileSync(path, '<a>edited</a>');
    const r = applyFixes([fixing(path, [3, 4, 'y'])], files);
    expect(r).toMatchObject({ fixed: 0, skipped: [path] });
    expect(readFileSync(path, 'utf8')).toBe('<a>edited</a>');
  });

  it('keeps the permission bits of the file it replaces', () => {
    const { path, files } = file('<a>x</a>');
    chmodSync(path, 0o640);
    applyFixes([fixing(path, [3, 4, 'y'])], files);
    expect(readFileSync(path, 'utf8')).toBe('<a>y</a>');
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });
});
