import { describe, expect, it } from 'vitest';
import { lineText } from '../../src/lint/formatters/common.js';
import type { SourceFile } from '../../src/model/index.js';

const file = (text: string): SourceFile => ({ path: '/x.xml', text, encoding: 'utf-8', bom: false });

describe('lineText', () => {
  it('gives every line of LF, CRLF, CR and mixed texts as splitting on line breaks does', () => {
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const pieces = ['a', 'bc', ' ', '\n', '\r\n', '\r', '<x/>', '\n\n', '\r\r\n'];
    for (let run = 0; run < 500; run++) {
      let text = '';
      for (let i = rnd(30); i > 0; i--) text += pieces[rnd(pieces.length)];
      const lines = text.split(/\r\n|\r|\n/);
      const source = file(text);
      for (let line = 0; line <= lines.length + 1; line++) {
        expect(lineText(source, line), JSON.stringify({ text, line })).toBe(
          line >= 1 ? (lines[line - 1] ?? null) : null,
        );
      }
    }
  });

  it('quotes lines of a large file without splitting it per finding', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `<filter-name>f${i}</filter-name>`).join('\n');
    const source = file(text);
    const wrong: [number, string | null][] = [];
    let asked = 0;
    const started = process.cpuUsage();
    for (let i = 1; i <= 200_000; i += 7) {
      const got = lineText(source, i);
      asked++;
      if (got !== `<filter-name>f${i - 1}</filter-name>`) wrong.push([i, got]);
    }
    // Splitting 6.7 MB 28,572 times takes minutes of CPU; indexed lookups take milliseconds. CPU time, not wall
    // time, so a loaded machine does not fail it; expect() runs outside the measured loop (28,572 calls of it
    // were most of what it measured).
    const used = process.cpuUsage(started);
    expect(asked).toBe(28_572);
    expect(wrong).toEqual([]);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });
});
