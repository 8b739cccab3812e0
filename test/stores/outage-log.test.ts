/**
 * The outage log's hysteresis (src/stores/outage-log.ts), on a scripted flap with a counted clock: a
 * Redis out of memory fails a write and answers the probe half a second later, again and again. The
 * log writes the first outage and its recovery, then one summary per 30 s window, instead of two lines
 * a second; an outage after a quiet window is logged on its own again.
 */
import { describe, expect, it } from 'vitest';
import { OutageLog } from '../../src/stores/outage-log.js';

const WINDOW_MS = 30_000;

/** An OutageLog on a clock the test moves, with the lines it wrote. */
function scripted() {
  let now = 1_000_000;
  let queue: { at: number; fn: () => void }[] = [];
  const lines: string[] = [];
  const log = new OutageLog('Redis at redis://127.0.0.1:6379', 'stateful requests fail closed', {
    windowMs: WINDOW_MS,
    now: () => now,
    schedule: (fn, ms) => queue.push({ at: now + ms, fn }),
    down: (m) => lines.push(`WARNING ${m}`),
    up: (m) => lines.push(`INFO ${m}`),
    flapping: (m) => lines.push(`WARNING ${m}`),
  });
  /** Moves the clock to `to`, running what was scheduled before it, in order. */
  const advance = (to: number): void => {
    for (;;) {
      const next = queue.filter((q) => q.at <= to).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      queue = queue.filter((q) => q !== next);
      now = next.at;
      next.fn();
    }
    now = to;
  };
  return { log, lines, advance, at: () => now, pending: () => queue.length };
}

describe('OutageLog', () => {
  it('a single outage: one line when it begins, one when it ends, however long it lasts', () => {
    const s = scripted();
    s.log.failed('connect ECONNREFUSED 127.0.0.1:6379');
    s.advance(s.at() + 12_300);
    s.log.recovered();
    s.advance(s.at() + 10 * WINDOW_MS);
    expect(s.lines).toEqual([
      'WARNING Redis at redis://127.0.0.1:6379 is unreachable (connect ECONNREFUSED 127.0.0.1:6379): stateful requests fail closed',
      'INFO Redis at redis://127.0.0.1:6379 answers again after 12.3 s',
    ]);
  });

  it('two minutes of flapping every 0.5 s: 2 lines and then one summary per 30 s, not 480 lines', () => {
    const s = scripted();
    const start = s.at();
    let changes = 0;
    // 120 s: down at 0, up at 0.5, down at 1.0, ... (240 outages, 240 recoveries); it answers at the end.
    for (let t = 0; t < 120_000; t += 500) {
      s.advance(start + t);
      if ((t / 500) % 2 === 0) s.log.failed('OOM command not allowed when used memory > maxmemory');
      else s.log.recovered();
      changes++;
    }
    s.advance(start + 120_000 + 2 * WINDOW_MS);
    expect(changes).toBe(240);
    expect(s.lines[0]).toMatch(/^WARNING .* is unreachable \(OOM command not allowed/);
    expect(s.lines[1]).toMatch(/^INFO .* answers again after 0\.5 s$/);
    const summaries = s.lines.slice(2);
    // Windows end at 30.5, 60.5, 90.5 and 120.5 s: four summaries, the last saying it answers now.
    expect(summaries).toHaveLength(4);
    for (const l of summaries.slice(0, 3)) expect(l).toMatch(/flap.* in the last 30 s \(last error: OOM command/);
    expect(summaries.at(-1)).toMatch(/^INFO .* flapped: .*; it answers now$/);
    // The summaries account for every change the two lines did not: 238.
    const counted = summaries
      .map((l) => /(\d+) more outage\(s\) and (\d+) recovery\(ies\)/.exec(l)!)
      .reduce((n, m) => n + Number(m[1]) + Number(m[2]), 0);
    expect(counted).toBe(238);
    expect(s.pending()).toBe(0);

    // Quiet for a window: the next outage gets its own line again.
    s.log.failed('Redis did not answer within 300 ms');
    expect(s.lines).toHaveLength(7);
    expect(s.lines[6]).toMatch(/^WARNING .* is unreachable \(Redis did not answer within 300 ms\)/);
  });

  it('a flap that ends unreachable: the summary says so, and the recovery after it gets its line', () => {
    const s = scripted();
    s.log.failed('OOM');
    s.advance(s.at() + 500);
    s.log.recovered();
    s.advance(s.at() + 500);
    s.log.failed('OOM');
    s.advance(s.at() + WINDOW_MS);
    expect(s.lines).toHaveLength(3);
    expect(s.lines[2]).toMatch(
      /^WARNING .* flaps: 1 more outage\(s\) and 0 recovery\(ies\) .*; it is unreachable now: stateful requests fail closed$/,
    );
    s.advance(s.at() + 5_000);
    s.log.recovered();
    expect(s.lines).toHaveLength(4);
    expect(s.lines[3]).toMatch(/^INFO .* answers again after 35\.0 s$/);
  });
});
