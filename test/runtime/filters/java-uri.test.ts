import { describe, expect, it } from 'vitest';
import { isValidOrigin, parseJavaUri, resolveJavaUri } from '../../../src/runtime/filters/java-uri.js';

/** Origins and what RequestUtil.isValidOrigin answers on JDK 17 (new java.net.URI(origin).getScheme() != null), recorded from a Java run. */
const JAVA_17: [string, boolean][] = [
  ['http://a.example', true],
  ['https://a.example:8443', true],
  ['http://[::1]', true],
  ['http://[::1]:80', true],
  ['http://[::1', false],
  ['http://[zz]', false],
  ['http://[::1]x', false],
  ['http://a[b', false],
  ['http://a]b', false],
  ['http://', false],
  ['http:///', true],
  ['http://?q', true],
  ['http://#f', true],
  ['http:', false],
  ['http:x', true],
  ['urn:isbn:1', true],
  ['mailto:a@b', true],
  ['http://a b', false],
  ['http://a"b', false],
  ['http://a<b', false],
  ['http://a\\b', false],
  ['http://a^b', false],
  ['http://a`b', false],
  ['http://a{b', false],
  ['http://a|b', false],
  ['http://a}b', false],
  ['http://é.example', true],
  ['http://a.example/é', true],
  ['http://a.example#x#y', false],
  ['http://a.example?x?y', true],
  ['http://a.example/[x]', false],
  ['http://a.example?[x]', true],
  ['http://a.example#[x]', true],
  ['http://user:pw@a.example', true],
  ['http://a_b.example', true],
  ['http://a.example:abc', true],
  ['http://a.example:', true],
  ['1http://a', false],
  ['+http://a', false],
  ['http+x://a', true],
  ['-x://a', false],
  ['x-y.z+w://a', true],
  ['null', true],
  ['NULL', false],
  ['file://anything goes here', true],
  ['file:/x', true],
  ['www.example.com', false],
  ['/path', false],
  ['//host', false],
  [':x', false],
  ['a:', false],
  ['http://a.example/\\u00a0', false],
  ['http://a.example\r\n', false],
  ['http://a.example\t', false],
  ['http://[1:2:3:4:5:6:7:8]', true],
  ['http://[1:2:3:4:5:6:7:8:9]', false],
  ['http://[::ffff:1.2.3.4]', true],
  ['http://[v1.x]', false],
  ['http://a.example/~user', true],
  ["http://a.example/!$&'()*+,;=:@", true],
];

describe('java.net.URI as CorsFilter and CsrfPreventionFilter use it', () => {
  it('agrees with RequestUtil.isValidOrigin on JDK 17 for every recorded origin', () => {
    const wrong = JAVA_17.filter(([origin, valid]) => isValidOrigin(origin) !== valid);
    expect(wrong).toEqual([]);
    // Asked again (answers are remembered per origin), and interleaved: still the same answers.
    const again = [...JAVA_17]
      .reverse()
      .filter(([origin, valid]) => isValidOrigin(origin) !== valid || isValidOrigin(`${origin}`) !== valid);
    expect(again).toEqual([]);
  });

  it('resolves references as URI.resolve does: absolute paths kept as written, relative and empty ones merged and normalised', () => {
    const base = parseJavaUri('http://127.0.0.1:8080/app/csrf/enc.jsp')!;
    const resolve = (ref: string) => {
      const r = resolveJavaUri(base, parseJavaUri(ref)!);
      return `${r.scheme}|${r.authority}|${r.path}|${r.query}|${r.fragment}`;
    };
    expect(resolve('/app/../x')).toBe('http|127.0.0.1:8080|/app/../x|null|null');
    expect(resolve('../x')).toBe('http|127.0.0.1:8080|/app/x|null|null');
    expect(resolve('a/./b/../c')).toBe('http|127.0.0.1:8080|/app/csrf/a/c|null|null');
    expect(resolve('//h:1/p/../q')).toBe('http|h:1|/p/../q|null|null');
    expect(resolve('?q')).toBe('http|127.0.0.1:8080|/app/csrf/|q|null');
    expect(resolve('')).toBe('http|127.0.0.1:8080|/app/csrf/|null|null');
    expect(resolve('#f')).toBe('http|127.0.0.1:8080|/app/csrf/enc.jsp|null|f');
    expect(resolve('http://h/a/../b')).toBe('http|h|/a/../b|null|null');
  });
});
