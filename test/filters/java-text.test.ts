import { describe, expect, it } from 'vitest';
import { javaCharset } from '../../src/filters/index.js';
import { isLegalCharsetName, suggestCharset } from '../../src/protocol/charsets.js';
import {
  checkJavaUri,
  javaSplit,
  javaTrim,
  parseJavaInteger,
  splitCommaSeparated,
} from '../../src/filters/java-text.js';
import { JAVA_CHARSETS } from '../../src/protocol/java-charsets.js';

describe('Integer.parseInt and Long.parseLong', () => {
  it("accept a sign, leading zeros and any script's decimal digits", () => {
    expect(parseJavaInteger('5')).toBe(5);
    expect(parseJavaInteger('+5')).toBe(5);
    expect(parseJavaInteger('-0')).toBe(0);
    expect(parseJavaInteger('007')).toBe(7);
    expect(parseJavaInteger('\uff15\uff10')).toBe(50);
    expect(parseJavaInteger('\u0663')).toBe(3);
  });
  it('refuse blanks, decimals, exponents, underscores, a lone sign and the empty string', () => {
    for (const s of [' 5', '5 ', '1.0', '1e3', '1_000', '+', '-', '', '0x10'])
      expect(parseJavaInteger(s), s).toBeNull();
  });
  it('stay within 32 or 64 bits', () => {
    expect(parseJavaInteger('2147483647')).toBe(2147483647);
    expect(parseJavaInteger('-2147483648')).toBe(-2147483648);
    expect(parseJavaInteger('2147483648')).toBeNull();
    expect(parseJavaInteger('2147483648', 64)).toBe(2147483648);
    expect(parseJavaInteger('9223372036854775808', 64)).toBeNull();
  });
});

describe('String.split, String.trim and StringUtils.splitCommaSeparated', () => {
  it('split like Java: "" is one empty entry, trailing empty entries go, inner ones stay', () => {
    expect(javaSplit('').map((p) => p.text)).toEqual(['']);
    expect(javaSplit('a,,b,,').map((p) => p.text)).toEqual(['a', '', 'b']);
    expect(javaSplit(',a').map((p) => p.text)).toEqual(['', 'a']);
    expect(javaSplit(',,')).toEqual([]);
  });
  it('trim only chars up to U+0020, so a no-break space stays', () => {
    expect(javaTrim('\t a \n')).toBe('a');
    expect(javaTrim('\u00a0a')).toBe('\u00a0a');
  });
  it("keep each entry's offset in the value, after trimming", () => {
    expect(splitCommaSeparated(' a , bc,')).toEqual([
      { text: 'a', offset: 1 },
      { text: 'bc', offset: 5 },
    ]);
    expect(splitCommaSeparated('')).toEqual([]);
  });
});

describe('java.net.URI', () => {
  it('accepts what Java accepts', () => {
    for (const s of [
      '',
      'https://a.example',
      'https://a.example/x?y#z',
      '//host',
      'a:b',
      'http://[::1]/',
      'a%20b',
      'https://\u00e4.example',
      'mailto:a@b',
      'http://a.example:x/',
    ]) {
      expect(checkJavaUri(s), s).toEqual({ ok: true });
    }
  });
  it('refuses what Java refuses, at the offending character', () => {
    expect(checkJavaUri('http://a b')).toMatchObject({ ok: false, offset: 8 });
    expect(checkJavaUri('%zz')).toMatchObject({ ok: false, offset: 0 });
    expect(checkJavaUri('x#y#z')).toMatchObject({ ok: false, offset: 3 });
    expect(checkJavaUri('http:')).toMatchObject({ ok: false, offset: 5 });
    expect(checkJavaUri('http://')).toMatchObject({ ok: false });
    expect(checkJavaUri('http://[bad/')).toMatchObject({ ok: false, offset: 7 });
    expect(checkJavaUri('1a:b')).toMatchObject({ ok: false, offset: 0 });
    expect(checkJavaUri('a<b')).toMatchObject({ ok: false, offset: 1 });
  });
});

describe('Java charsets', () => {
  it("resolve names and aliases case-insensitively to Java's canonical name", () => {
    for (const [given, canonical] of [
      ['utf-8', 'UTF-8'],
      ['UTF8', 'UTF-8'],
      ['latin1', 'ISO-8859-1'],
      ['ISO8859_1', 'ISO-8859-1'],
      ['Cp1252', 'windows-1252'],
      ['EUC_JP', 'EUC-JP'],
      ['default', 'US-ASCII'],
      ['UnicodeBig', 'UTF-16'],
      ['IBM1047', 'IBM1047'],
    ]) {
      expect(javaCharset(given!)?.name, given).toBe(canonical);
    }
  });
  it('do not guess: Java knows neither UTF_8 nor windows1252 nor x-IBM1047', () => {
    for (const n of ['UTF_8', 'windows1252', 'x-IBM1047', 'klingon']) expect(javaCharset(n), n).toBeNull();
    expect(suggestCharset('UTF_8')).toBe('UTF-8');
    expect(suggestCharset('windows1252')).toBe('windows-1252');
  });
  it('know which names Java refuses outright', () => {
    expect(isLegalCharsetName('bad name')).toBe(false);
    expect(isLegalCharsetName('-x')).toBe(false);
    expect(isLegalCharsetName('x-UTF-16LE-BOM')).toBe(true);
  });
  it('map each to a Node decoder that reads the same bytes the same way, where Node has one', () => {
    expect(javaCharset('ISO-8859-1')?.decoder).toBe('latin1');
    expect(javaCharset('US-ASCII')?.decoder).toBe('ascii');
    expect(javaCharset('windows-1252')?.decoder).toBe('windows-1252');
    expect(javaCharset('IBM1047')?.decoder).toBeNull();
    const bytes = Uint8Array.from([0x48, 0xe9, 0x80]);
    expect(Buffer.from(bytes).toString('latin1')).toBe('H\u00e9\u0080');
    for (const [name, decoder] of JAVA_CHARSETS) {
      if (decoder === null || Buffer.isEncoding(decoder)) continue;
      expect(() => new TextDecoder(decoder), name).not.toThrow();
    }
  });
});
