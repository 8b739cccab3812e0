import { describe, expect, it } from 'vitest';
import { originProblem, plainOrigin } from '../../src/filters/cors.js';

const SCHEMES = ['https', 'http', 'HTTPS', 'Http', 'h2', 'a+b.c-d', '1http', '', 'null', 'ws'];
const PIECES = [
  'app',
  'example',
  '.',
  'com',
  ':',
  '443',
  ':80',
  ':8080',
  '/',
  '?',
  '#',
  '*',
  'A',
  'Z',
  'z',
  '-',
  '[::1]',
  '@',
  ' ',
  '\n',
  '%20',
  'é',
  '0',
  '9',
  '',
];

describe('plainOrigin, the fast path of the CorsFilter origin check', () => {
  it('says "no problem" only where originProblem finds none, on every scheme with every authority of up to two pieces', () => {
    let plain = 0;
    let all = 0;
    for (const scheme of SCHEMES) {
      for (const sep of ['://', ':/', '']) {
        for (const a of PIECES) {
          for (const b of PIECES) {
            const origin = `${scheme}${sep}${a}${b}`;
            all++;
            if (!plainOrigin(origin)) continue;
            plain++;
            expect(originProblem(origin), JSON.stringify(origin)).toBeNull();
          }
        }
      }
    }
    // The fast path must be taken often, or the comparison above proves nothing.
    expect(all).toBeGreaterThan(15_000);
    expect(plain).toBeGreaterThan(1_000);
  });

  it('takes the fast path for ordinary origins and leaves the rest to the full check', () => {
    for (const o of ['https://app1.example.com', 'http://localhost', 'https://a-b.example.org', 'https://'])
      expect(plainOrigin(o), o).toBe(true);
    for (const o of [
      'https://App.example.com',
      'https://a.example.com:443',
      'http://a.example.com:80',
      'https://a.example.com:8443',
      'https://a.example.com/',
      'https://*.example.com',
      'null',
      '',
      '*',
      'HTTPS://a.example.com',
      'https:/a.example.com',
    ]) {
      expect(plainOrigin(o), o).toBe(false);
    }
    expect(originProblem('https://a.example.com:8443')).toBeNull();
    expect(originProblem('https://a.example.com:443')).toMatch(/default port/);
  });
});
