/** The benchmark's cost accounting: the GC and page-fault figures beside the parse and lint timings must measure something. */
import { describe, expect, it } from 'vitest';
import { costCell, splitCosts, timeWithCosts } from '../../bench/stats.js';

describe('timeWithCosts', () => {
  it('sees the collections and page faults of an allocating run, and times every run', async () => {
    let kept: unknown[] = [];
    const r = await timeWithCosts(
      () => {
        // Objects that survive the run (the young generation must copy them) and a fresh buffer written through.
        kept = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `v${i}` }));
        Buffer.allocUnsafeSlow(16 << 20).fill(1);
      },
      3,
      1,
    );
    expect(kept).toHaveLength(200_000);
    expect(r.runs).toBe(3);
    expect(r.min).toBeGreaterThan(0);
    expect(r.gcMs.max).toBeGreaterThan(0);
    // 16 MiB of new pages is 4,096 faults of 4 KiB; allow for huge pages and reuse, but not for nothing.
    expect(r.pageFaults.max).toBeGreaterThan(100);
  });

  it('reports no collection for a run that allocates nothing', async () => {
    let n = 0;
    const r = await timeWithCosts(
      () => {
        for (let i = 0; i < 1000; i++) n += i;
      },
      5,
      1,
    );
    expect(n).toBeGreaterThan(0);
    expect(r.gcMs.median).toBe(0);
  });
});

describe('splitCosts and costCell', () => {
  it('separates a child result into its timing and its costs', () => {
    const t = { median: 2, min: 1, max: 3, runs: 3 };
    const c = {
      gcMs: { median: 1.25, min: 0, max: 2, runs: 3 },
      pageFaults: { median: 3160, min: 3000, max: 4000, runs: 3 },
    };
    expect(splitCosts({ ...t, ...c })).toEqual({ timing: t, costs: c });
    expect(splitCosts(t)).toEqual({ timing: t });
    expect(costCell(c)).toBe('1.3 / 3,160');
    expect(costCell(undefined)).toBe('–');
  });
});
