import { describe, expect, it } from 'vitest';
import { translateJavaRegex } from '../../src/filters/index.js';

/** [Java pattern, strings Java's matches() accepts, strings it refuses] */
const table: [string, string[], string[]][] = [
  ['127\\.0\\.0\\.1', ['127.0.0.1'], ['127.0.0.10', 'x127.0.0.1', '127a0b0c1']],
  ['127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1', ['127.1.2.3', '0:0:0:0:0:0:0:1'], ['::1', '127.0.0.1 ']],
  ['10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}', ['10.1.22.255'], ['10.1.2', '10.1.2.3456']],
  ['\\Q1.2.3.4\\E', ['1.2.3.4'], ['1x2x3x4']],
  ['\\Q[a]*\\E', ['[a]*'], ['a']],
  ['(?i)LocalHost', ['localhost', 'LOCALHOST'], ['localhost.x']],
  ['a.c', ['abc', 'a c'], ['a\nc', 'a\rc', 'a\u0085c']],
  ['\\p{Lower}+', ['abc'], ['aBc']],
  ['\\p{Alpha}\\p{Digit}', ['a1'], ['11']],
  ['\\p{XDigit}{2}', ['af', 'F0'], ['g0']],
  ['[\\p{Upper}_]+', ['A_B'], ['a']],
  ['\\Afoo\\z', ['foo'], ['foo\n']],
  ['x\\x41\\u0042\\0103', ['xABC'], ['xabc']],
  ['a\\/b', ['a/b'], ['ab']],
  ['fe[89ab]\\p{XDigit}:.*', ['fe80:0:0:0:0:0:0:1'], ['fec0:0:0:0:0:0:0:1']],
  ['f[cd]\\p{XDigit}{2}+:.*', ['fd12:3:4:5:6:7:8:9'], ['fe12:3']],
  ['(?<oct>\\d+)\\.\\k<oct>', ['1.1'], ['1.2']],
  ['a{2,3}', ['aa', 'aaa'], ['a', 'aaaa']],
  ['(a|b)*?c', ['abc', 'c'], ['ab']],
  ['\\d\\D\\w\\W\\s\\S', ['1a_ \tx'.slice(0, 0) + '1x_- y'], ['abcdef']],
  ['[^\\d]', ['a'], ['1']],
  ['\\h', [' ', '\t'], ['\n']],
  ['\\R', ['\r\n', '\n'], ['a']],
  ['colou?r', ['color', 'colour'], ['colouur']],
  ['$', [''], ['\n\n']],
];

describe("translateJavaRegex matches what Java's matches() matches", () => {
  for (const [java, yes, no] of table) {
    it(`/${java}/`, () => {
      const t = translateJavaRegex(java);
      expect(t.problems.filter((p) => p.severity === 'error')).toEqual([]);
      const rx = new RegExp(t.source, t.flags);
      for (const s of yes) expect(rx.test(s), JSON.stringify(s)).toBe(true);
      for (const s of no) expect(rx.test(s), JSON.stringify(s)).toBe(false);
    });
  }
});

describe('constructs JavaScript cannot express, and Java syntax errors', () => {
  const cases: [string, string, number][] = [
    ['a*+b', 'unsupported', 1],
    ['(?>ab)', 'unsupported', 0],
    ['[a-z&&[^x]]', 'unsupported', 4],
    ['a(?i)b', 'inline-flag', 1],
    ['(?i:a)b', 'inline-flag', 0],
    ['(?x)a b', 'inline-flag', 0],
    ['\\Ga', 'unsupported', 0],
    ['a{', 'java-syntax', 1],
    ['\\y', 'java-syntax', 0],
    ['(a', 'java-syntax', 1],
    ['a)', 'java-syntax', 1],
    ['*a', 'java-syntax', 0],
    ['[a', 'java-syntax', 0],
    ['a{3,1}', 'java-syntax', 1],
    ['\\p{IsNoSuchScriptZz}', 'unsupported', 0],
  ];
  for (const [java, code, offset] of cases) {
    it(`/${java}/ is an error (${code}) at offset ${offset}`, () => {
      const t = translateJavaRegex(java);
      const p = t.problems.find((x) => x.severity === 'error');
      expect(p?.code).toBe(code);
      expect(p?.offset).toBe(offset);
      expect(t.source).toBe('');
    });
  }
  it('Java character classes are translated with a warning that they are approximate', () => {
    const t = translateJavaRegex('\\p{javaLowerCase}+');
    expect(t.problems.map((p) => [p.severity, p.code])).toEqual([['warning', 'java-class']]);
    expect(t.exact).toBe(false);
    expect(new RegExp(t.source, t.flags).test('abcé')).toBe(true);
  });
});
