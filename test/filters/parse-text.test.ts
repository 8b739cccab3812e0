import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FILTER_SPECS } from '../../src/filters/index.js';

/**
 * spec.parseText is schema.safeParse without zod, for init-params that are all strings:
 * validateFilterDef uses it first. It must give exactly what zod gives on success
 * (values, key order, types), and null whenever zod fails (zod then words the errors).
 */
const SAMPLES = [
  '',
  ' ',
  'true',
  'false',
  'TRUE',
  'yes',
  '0',
  '1',
  '-1',
  '42',
  '99999999999',
  ' 5',
  '5 ',
  'abc',
  'a,b',
  'a, b ,c',
  ',',
  ',,',
  'GET,POST',
  'get',
  '*',
  'https://a.example.com',
  'http://x',
  'https://A.com:443/p',
  'null',
  '10\\.\\d+',
  '(a+)+',
  '[',
  '\\p{XDigit}',
  'UTF-8',
  'utf8',
  'nosuchcharset',
  'DENY',
  'SAMEORIGIN',
  'ALLOW-FROM',
  'allow-from',
  'access plus 1 month',
  'A86400',
  'modification plus 2 hours',
  'bogus rule',
  '304, 302',
  'x,1',
  '*.css, /static/*, /re.*/',
  'mime:',
  '/',
  '192.168.0.0/16',
  '10.0.0.1, ::1/128',
  '10.0.0.0/33',
  'java.security.SecureRandom',
  'com.Foo',
  '500',
  '\t',
  '\u0000',
  'x-forwarded-for',
  'text/css',
];

/** A small seeded generator (mulberry32), so that a failure names inputs that can be replayed. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

describe('parseText', () => {
  for (const spec of FILTER_SPECS) {
    it(`${spec.id}: the same result as schema.safeParse on 2,000 random string params`, () => {
      expect(spec.parseText).toBeTypeOf('function');
      const names = [
        ...Object.keys(spec.params),
        ...Object.keys(spec.dynamicParams ?? {}).map((k) => (k.endsWith(' ') ? `${k}text/css` : k)),
        'unknownParam',
        '123',
      ];
      const r = random(spec.id.length * 7919);
      let fast = 0;
      for (let i = 0; i < 2000; i++) {
        const raw: Record<string, string> = {};
        for (let j = r(4); j > 0; j--) raw[names[r(names.length)]!] = SAMPLES[r(SAMPLES.length)]!;
        const mine = spec.parseText!(raw);
        const zod = spec.schema.safeParse(raw);
        if (mine) {
          fast++;
          expect(zod.success, JSON.stringify(raw)).toBe(true);
          const data = (zod as { data: unknown }).data;
          expect(isDeepStrictEqual(mine.data, data), JSON.stringify(raw)).toBe(true);
          expect(JSON.stringify(mine.data), JSON.stringify(raw)).toBe(JSON.stringify(data));
        } else {
          expect(zod.success, JSON.stringify(raw)).toBe(false);
        }
      }
      // Most random inputs are valid: the fast path must actually be taken.
      expect(fast).toBeGreaterThan(200);
    });
  }

  it('leaves anything but strings to zod', () => {
    const cors = FILTER_SPECS.find((s) => s.id === 'cors')!;
    expect(cors.parseText!({ 'cors.allowed.origins': ['https://a.example.com'] })).toBeNull();
    expect(cors.parseText!({ 'cors.support.credentials': true })).toBeNull();
    expect(cors.schema.safeParse({ 'cors.support.credentials': true }).success).toBe(true);
  });
});
