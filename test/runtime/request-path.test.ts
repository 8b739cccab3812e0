import { describe, expect, it } from 'vitest';
import { charsetDecoder } from '../../src/runtime/index.js';
import { decodeRequestPath, pathNeedsWork, splitRequestTarget } from '../../src/runtime/request-path.js';
import { allStrings } from './strings.js';

const utf8 = charsetDecoder('UTF-8')!;
const decode = (p: string) => decodeRequestPath(p, utf8);

describe('decodeRequestPath (CoyoteAdapter rules)', () => {
  it('returns plain paths unchanged', () => {
    expect(decode('/a/b.html')).toBe('/a/b.html');
    expect(decode('/')).toBe('/');
    expect(decode('/a/')).toBe('/a/');
  });

  it('merges slashes and resolves dot segments; "/a/." and "/a/.." lose the trailing slash', () => {
    expect(decode('//a///b')).toBe('/a/b');
    expect(decode('/a/./b')).toBe('/a/b');
    expect(decode('/a/b/../c')).toBe('/a/c');
    expect(decode('/a/.')).toBe('/a');
    expect(decode('/a/b/..')).toBe('/a');
    expect(decode('/a/..')).toBe('/');
    expect(decode('/a/.../b')).toBe('/a/.../b');
  });

  it('refuses paths that climb above the root, also when the dots are %-encoded', () => {
    expect(decode('/..')).toBeNull();
    expect(decode('/a/../../b')).toBeNull();
    expect(decode('/%2e%2e/x')).toBeNull();
    expect(decode('/a/%2E%2E/b')).toBe('/b');
  });

  it('removes path parameters from every segment before decoding', () => {
    expect(decode('/a;jsessionid=ABC/b;x=1;y=2/c')).toBe('/a/b/c');
    expect(decode('/a;p')).toBe('/a');
    expect(decode('/a%3Bb')).toBe('/a;b');
  });

  it('decodes %-escapes as UTF-8 bytes (not characters), leaving + alone', () => {
    expect(decode('/caf%C3%A9')).toBe('/café');
    expect(decode('/a+b%20c')).toBe('/a+b c');
    expect(decode('/%FF')).toBe('/\ufffd');
  });

  it('refuses %2F, backslashes (raw or encoded), NUL, bad escapes and relative paths', () => {
    for (const p of ['/a%2fb', '/a%2Fb', '/a\\b', '/a%5Cb', '/a%00b', '/a%zz', '/a%4', '/a%', 'a/b', ''])
      expect(decode(p), p).toBeNull();
  });
});

describe('splitRequestTarget', () => {
  it('splits at the first "?" and keeps an empty query apart from none', () => {
    expect(splitRequestTarget('/a?b=1?c')).toEqual({ path: '/a', query: 'b=1?c' });
    expect(splitRequestTarget('/a?')).toEqual({ path: '/a', query: '' });
    expect(splitRequestTarget('/a')).toEqual({ path: '/a', query: null });
  });

  it('takes the path of an absolute-form target', () => {
    expect(splitRequestTarget('http://example.test:8080/x/y?q')).toEqual({ path: '/x/y', query: 'q' });
    expect(splitRequestTarget('https://example.test')).toEqual({ path: '/', query: null });
  });
});

describe('pathNeedsWork: the character scan agrees with the pattern it replaced', () => {
  // What decodeRequestPath used to test before taking the slow path.
  const NEEDS_WORK = /[%;\\\0]|\/\/|\/\.(?:\/|\.?$|\.\/)|[^\x21-\x7e]/;
  it('on every path of up to 5 characters over "/", ".", "a", "%", ";", "\\\\", NUL, space, "~", DEL and "é"', () => {
    const paths = allStrings(['/', '.', 'a', '%', ';', '\\', '\0', ' ', '~', '\x7f', 'é'], 5);
    for (const p of paths) {
      const raw = `/${p}`;
      if (pathNeedsWork(raw) !== NEEDS_WORK.test(raw))
        expect({ raw, scan: pathNeedsWork(raw) }).toEqual({ raw, scan: NEEDS_WORK.test(raw) });
    }
    expect(paths.length).toBe(177_155);
  });
});
