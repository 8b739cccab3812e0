import { describe, expect, it } from 'vitest';
import { formatStylish } from '../../src/lint/formatters/stylish.js';
import type { Diagnostic, SourceFile } from '../../src/model/index.js';

describe('stylish code frames on long lines', () => {
  it('shows at most a window of the line, tabs as spaces, with the caret under the span', () => {
    const line = `${'\t<x>'.repeat(2_000)}NEEDLE${'\t<y>'.repeat(2_000)}`;
    const file: SourceFile = { path: '/b/web.xml', text: `<a>\n${line}\n</a>`, encoding: 'utf-8', bom: false };
    const column = line.indexOf('NEEDLE') + 1;
    const findings: Diagnostic[] = Array.from({ length: 3 }, () => ({
      ruleId: 'filter-param-invalid',
      severity: 'error',
      message: 'bad',
      span: { file: file.path, line: 2, column, endLine: 2, endColumn: column + 6, offset: 0, endOffset: 0 },
    }));
    const out = formatStylish({
      diagnostics: findings,
      files: new Map([[file.path, file]]),
      lintedFiles: [file.path],
      cwd: '/b',
      repoRoot: '/b',
      color: false,
      version: '0.0.0',
    });
    const lines = out.split('\n');
    const frame = lines.find((l) => l.includes('NEEDLE'))!;
    const caret = lines[lines.indexOf(frame) + 1]!;
    expect(frame).not.toContain('\t');
    expect(frame.length).toBeLessThan(140);
    expect(caret.indexOf('^')).toBe(frame.indexOf('NEEDLE'));
    expect(caret.trim()).toMatch(/^\| +\^{6}$/);
  });
});
