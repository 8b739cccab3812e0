import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  decodeUrlPattern,
  matchesFilterUrlPattern,
  unusualUrlPattern,
  validateUrlPattern,
} from '../../src/chain/index.js';

describe('validateUrlPattern (StandardContext.validateURLPattern)', () => {
  it.each(['', '/', '/*', '/a', '/a/*', '*.do', '/foo*', '/a b', '*.tar.gz'])('accepts %j', (p) => {
    expect(validateUrlPattern(p)).toBeNull();
    expect(validateUrlPattern(p, 'servlet-mapping')).toBeNull();
  });

  it.each([
    ['*.do/x', 'cannot contain "/"'],
    ['foo', 'must start with "/"'],
    ['/a/*.do', 'cannot contain "*."'],
    ['/a\nb', 'line break'],
    ['/a\rb', 'line break'],
    ['**', 'must start with "/"'],
  ])('refuses %j (%s)', (p, why) => {
    expect(validateUrlPattern(p)).toContain(why);
  });

  it('accepts "*" in a filter mapping (every path) but not in a servlet mapping', () => {
    expect(validateUrlPattern('*', 'filter-mapping')).toBeNull();
    expect(validateUrlPattern('*')).toBeNull();
    expect(validateUrlPattern('*', 'servlet-mapping')).toMatch(/filter-mapping/);
  });
});

describe('decodeUrlPattern (web.xml url-patterns are %-decoded as UTF-8)', () => {
  it('decodes escapes, including multi-byte UTF-8, and leaves "+" alone', () => {
    expect(decodeUrlPattern('/enc%20dir/*')).toEqual({ pattern: '/enc dir/*' });
    expect(decodeUrlPattern('/caf%C3%A9')).toEqual({ pattern: '/café' });
    expect(decodeUrlPattern('/a+b')).toEqual({ pattern: '/a+b' });
    expect(decodeUrlPattern('/a%2Fb')).toEqual({ pattern: '/a/b' });
  });

  it.each(['/x%zz', '/x%2', '/x%', '%g0'])('refuses a bad escape in %j', (p) => {
    expect(decodeUrlPattern(p)).toHaveProperty('error');
  });
});

describe('compilePattern', () => {
  it.each([
    ['*', 'all', ''],
    ['', 'context-root', ''],
    ['/', 'default', ''],
    ['/*', 'path', ''],
    ['/api/*', 'path', '/api'],
    ['*.jsp', 'extension', 'jsp'],
    ['/exact', 'exact', '/exact'],
    ['/foo*', 'exact', '/foo*'],
  ])('%j is %s with key %j', (p, kind, key) => {
    expect(compilePattern(p)).toEqual({ pattern: p, kind, key });
  });
});

describe('matchesFilterUrlPattern (FilterUtil)', () => {
  const cases: [string, string, boolean][] = [
    ['/a.txt', '/a.txt', true],
    ['/a.txt', '/a.txt/', false],
    ['/dir/*', '/dir', true],
    ['/dir/*', '/dir/', true],
    ['/dir/*', '/dir/x/y', true],
    ['/dir/*', '/directory', false],
    ['/*', '/anything', true],
    ['/*', '', true],
    ['*.txt', '/a.txt', true],
    ['*.txt', '/dir/a.txt', true],
    ['*.txt', '/c.TXT', false],
    ['*.txt', '/x.txt/y.html', false],
    ['*.txt', '/a.txt.', false],
    ['*.tar.gz', '/a.tar.gz', false],
    ['*.', '/a.', false],
    ['/', '/', true],
    ['/', '/index.html', false],
    ['', '/', true],
    ['', '', true],
    ['', '/index.html', false],
    ['*', '/whatever/x', true],
    ['/foo*', '/foo-bar', false],
    ['/foo*', '/foo*', true],
  ];
  it.each(cases)('%j against %j is %s', (pattern, path, expected) => {
    expect(matchesFilterUrlPattern(pattern, path)).toBe(expected);
  });
});

describe('unusualUrlPattern (checkUnusualURLPattern)', () => {
  it('explains a trailing * that is not a wildcard', () => {
    expect(unusualUrlPattern('/foo*')).toMatch(/exact match.*"\/foo\/\*"/);
  });
  it('explains an extension with a dot, which never matches', () => {
    expect(unusualUrlPattern('*.tar.gz')).toMatch(/never matches.*"\*\.gz"/);
  });
  it('is quiet for ordinary patterns', () => {
    for (const p of ['/*', '/a/*', '*.do', '/', '', '*', '/exact']) expect(unusualUrlPattern(p)).toBeNull();
  });
});
