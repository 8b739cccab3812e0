import { describe, expect, it } from 'vitest';
import { randomHex128 } from '../../src/runtime/random.js';

describe('randomHex128', () => {
  it('gives 32 upper-case hex digits, never the same twice across several pool refills', () => {
    const seen = new Set<string>();
    // 4096-byte pool, 16 bytes an id: 2000 ids span eight refills.
    for (let i = 0; i < 2000; i++) {
      const id = randomHex128();
      expect(id).toMatch(/^[0-9A-F]{32}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
  });

  it('uses every pool byte once: consecutive ids do not overlap', () => {
    const a = randomHex128();
    const b = randomHex128();
    expect(b).not.toBe(a);
    expect(a.slice(2)).not.toBe(b.slice(0, 30));
  });
});
