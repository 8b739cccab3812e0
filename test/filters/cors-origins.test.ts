import { describe, expect, it } from 'vitest';
import { originProblem, plainOrigin } from '../../src/filters/cors.js';

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

const SCHEMES = ['https', 'http', 'HTTPS', 'Http', 'h2', 'a+b.c-d', '1http', '', 'null', 'ws'];
const PIECES = ['app', 'example', '.', 'com', ':', '443', ':80', ':8080', '/', '?', '#', '*', 'A', 'Z', 'z', '-', '[::1]', '@', ' ', '\n', '%20', 'é', '0', '9', ''];

describe('plainOrigin, the fast path of the CorsFilter origin check', () => {
  it('says "no problem" only where originProblem finds none, on 20,000 generated origins', () => {
    const r = random(20261123);
    let plain = 0;
    for (let i = 0; i < 20_000; i++) {
      let authority = '';
      for (let j = r(6); j > 0; j--) authority += PIECES[r(PIECES.length)];
      const origin = r(10) === 0 ? authority : `${SCHEMES[r(SCHEMES.length)]}${r(8) === 0 ? ':/' : '://'}${authority}`;
      if (!plainOrigin(origin)) continue;
      plain++;
      expect(originProblem(origin), JSON.stringify(origin)).toBeNull();
    }
    // The generator must reach the fast path often, or the comparison above proves nothing.
    expect(plain).toBeGreaterThan(1_000);
  });

  it('takes the fast path for ordinary origins and leaves the rest to the full check', () => {
    for (const o of ['https://app1.example.com', 'http://localhost', 'https://a-b.example.org', 'https://']) expect(plainOrigin(o), o).toBe(true);
    for (const o of ['https://App.example.com', 'https://a.example.com:443', 'http://a.example.com:80', 'https://a.example.com:8443', 'https://a.example.com/', 'https://*.example.com', 'null', '', '*', 'HTTPS://a.example.com', 'https:/a.example.com']) {
      expect(plainOrigin(o), o).toBe(false);
    }
    expect(originProblem('https://a.example.com:8443')).toBeNull();
    expect(originProblem('https://a.example.com:443')).toMatch(/default port/);
  });
});
