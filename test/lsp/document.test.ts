/**
 * src/lsp/document.ts against the library's TextDocument: the same random incremental edits (\r\n, \r,
 * \n, inserts, deletes, reversed ranges) give the same text, lines and positions; and an offset of the
 * current text maps back to the same character of an older version.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EditorDocument } from '../../src/lsp/document.js';

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'bc', '\n', '\r\n', '\r', '<x/>', '', 'long text here', '\n\n'];

describe('EditorDocument', () => {
  it('applies random incremental edits as the library does', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed);
      const start = 'line one\r\nline two\nthree\rfour';
      const lib = TextDocument.create('file:///x', 'xml', 1, start);
      const ours = new EditorDocument('file:///x', 'xml', 1, start);
      for (let v = 2; v < 300; v++) {
        const len = lib.getText().length;
        const a = lib.positionAt(Math.floor(r() * (len + 1)));
        const b = lib.positionAt(Math.floor(r() * (len + 1)));
        const text =
          PIECES[Math.floor(r() * PIECES.length)]! + (r() < 0.3 ? PIECES[Math.floor(r() * PIECES.length)]! : '');
        const change = { range: { start: a, end: b }, text };
        TextDocument.update(lib, [change], v);
        ours.update([change], v);
        if (v % 7 === 0) {
          expect(ours.getText()).toBe(lib.getText());
          expect(ours.lineCount).toBe(lib.lineCount);
        }
        const o = Math.floor(r() * (lib.getText().length + 1));
        expect(ours.positionAt(o)).toEqual(lib.positionAt(o));
        const p = lib.positionAt(o);
        expect(ours.offsetAt(p)).toBe(lib.offsetAt(p));
        expect(ours.length).toBe(lib.getText().length);
      }
      expect(ours.getText()).toBe(lib.getText());
      expect(ours.version).toBe(299);
    }
  });

  it('maps an offset of the current text to the same character of an older version, and none inside typed text', () => {
    const doc = new EditorDocument('file:///x', 'xml', 1, '<a><b>text</b></a>');
    const old = doc.getText();
    doc.update([{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 3 } }, text: 'XY' }], 2);
    doc.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '' }], 3);
    const now = doc.getText();
    expect(now).toBe('a>XY<b>text</b></a>');
    for (let i = 0; i < now.length; i++) {
      const at = doc.offsetIn(1, i);
      if (i === 2 || i === 3) expect(at).toBeNull();
      else expect(old[at!]).toBe(now[i]);
    }
    expect(doc.offsetIn(3, 5)).toBe(5);
    // A whole-text change cannot be mapped across.
    doc.update([{ text: 'new' }], 4);
    expect(doc.offsetIn(3, 1)).toBeNull();
  });
});
