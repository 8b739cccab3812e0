import { afterEach, describe, expect, it } from 'vitest';
import { spec, type RateLimitConfig } from '../../../src/filters/rate-limit.js';
import { create, createRateLimit, rateWindow } from '../../../src/runtime/filters/rate-limit.js';
import { setLogSink, type FilterDeclaration, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve, type Served } from '../serve.js';
import { asIf, declare, reportWith } from './helpers.js';

let now = 0;
/** The filter on a test clock. */
function limited(params: Record<string, unknown>): FilterDeclaration<RateLimitConfig> {
  const d = declare(spec, create, params);
  return { ...d, factory: (config, ctx) => createRateLimit(config, ctx, () => now) };
}

const report = reportWith((ex) => ({
  count: ex.request.getAttribute('org.apache.catalina.filters.RateLimitFilter.Count'),
}));

async function statuses(s: Served, n: number, addr = '10.0.0.1'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await request(s, '/x', { headers: { 'x-test-addr': addr } })).status);
  return out;
}

let logs: LogRecord[] = [];
afterEach(() => {
  setLogSink(null);
  logs = [];
});

describe('rateWindow (FastRateLimiter / ExactRateLimiter arithmetic)', () => {
  it('rounds 60 s up to 65.536 s and scales 300 requests to 328, as FastRateLimiter does', () => {
    const w = rateWindow('fast', 60, 300);
    expect([w.duration, w.requests]).toEqual([65, 328]);
    expect(w.bucketOf(65_535)).toBe(0);
    expect(w.bucketOf(65_536)).toBe(1);
  });

  it('keeps durations that are already a power of two milliseconds apart from the ratio rounding', () => {
    expect([rateWindow('fast', 1, 10).duration, rateWindow('fast', 1, 10).requests]).toEqual([1, 10]);
    expect([rateWindow('fast', 2, 3).duration, rateWindow('fast', 2, 3).requests]).toEqual([2, 3]);
  });

  it('keeps duration and requests for ExactRateLimiter, with windows of whole seconds from the epoch', () => {
    const w = rateWindow('exact', 60, 300);
    expect([w.duration, w.requests]).toEqual([60, 300]);
    expect(w.bucketOf(59_999)).toBe(0);
    expect(w.bucketOf(60_000)).toBe(1);
  });
});

describe('RateLimitFilter', () => {
  it('allows bucketRequests (scaled) per address and window, then answers 429 with the status message', async () => {
    setLogSink((r) => logs.push(r));
    now = 0;
    const s = await serve({ filters: [asIf, limited({ bucketRequests: '3', bucketDuration: '2' })] }, report);
    try {
      expect(await statuses(s, 5)).toEqual([200, 200, 200, 429, 429]);
      // Another address has its own count.
      expect(await statuses(s, 1, '10.0.0.2')).toEqual([200]);
      const r = await request(s, '/x', { headers: { 'x-test-addr': '10.0.0.1' } });
      expect(r.body).toContain('Too many requests');
      // The next window starts from zero.
      now = 2048;
      expect(await statuses(s, 3)).toEqual([200, 200, 200]);
    } finally {
      await s.close();
    }
    expect(
      logs.some(
        (l) =>
          l.level === 'WARNING' &&
          l.message ===
            '[RateLimitFilter] [4] Requests from [10.0.0.1] have exceeded the maximum allowed of [3] in a [2] second window.',
      ),
    ).toBe(true);
    expect(
      logs.some(
        (l) =>
          l.level === 'INFO' &&
          l.message ===
            'RateLimitFilter [RateLimitFilter] initialized with [3] requests per [2] seconds. Actual is [3] per [2] seconds. [enforcing].',
      ),
    ).toBe(true);
  });

  it('puts the count in the org.apache.catalina.filters.RateLimitFilter.Count attribute', async () => {
    now = 0;
    const s = await serve({ filters: [asIf, limited({})] }, report);
    try {
      const counts: unknown[] = [];
      for (let i = 0; i < 3; i++)
        counts.push(JSON.parse((await request(s, '/x', { headers: { 'x-test-addr': '10.9.9.9' } })).body).count);
      expect(counts).toEqual([1, 2, 3]);
    } finally {
      await s.close();
    }
  });

  it('only logs when enforce is false', async () => {
    setLogSink((r) => logs.push(r));
    now = 0;
    const s = await serve(
      { filters: [asIf, limited({ bucketRequests: '1', bucketDuration: '1', enforce: 'false' })] },
      report,
    );
    try {
      expect(await statuses(s, 3)).toEqual([200, 200, 200]);
    } finally {
      await s.close();
    }
    expect(logs.filter((l) => l.level === 'WARNING').length).toBe(2);
  });

  it('answers with statusCode and statusMessage as configured', async () => {
    now = 0;
    const s = await serve(
      {
        filters: [
          asIf,
          limited({ bucketRequests: '1', bucketDuration: '1', statusCode: '503', statusMessage: 'Slow down' }),
        ],
      },
      report,
    );
    try {
      await statuses(s, 1);
      const r = await request(s, '/x', { headers: { 'x-test-addr': '10.0.0.1' } });
      expect(r.status).toBe(503);
      expect(r.body).toContain('Slow down');
    } finally {
      await s.close();
    }
  });

  it('sends RateLimit-Policy and RateLimit (remaining, never negative) when exposeHeaders is on, as observed on Tomcat 10.1', async () => {
    now = 0;
    const s = await serve(
      { filters: [asIf, limited({ bucketRequests: '3', exposeHeaders: 'true', policyName: ' api ' })] },
      report,
    );
    try {
      const seen: [unknown, unknown, number][] = [];
      for (let i = 0; i < 5; i++) {
        const r = await request(s, '/x', { headers: { 'x-test-addr': '10.0.0.1' } });
        seen.push([r.headers['ratelimit-policy'], r.headers['ratelimit'], r.status]);
      }
      expect(seen).toEqual([
        ['"api";q=3;w=65', '"api";r=2', 200],
        ['"api";q=3;w=65', '"api";r=1', 200],
        ['"api";q=3;w=65', '"api";r=0', 200],
        ['"api";q=3;w=65', '"api";r=0', 429],
        ['"api";q=3;w=65', '"api";r=0', 429],
      ]);
    } finally {
      await s.close();
    }
  });

  it('names the policy fast-<n> by default and sends only RateLimit-Policy when not enforcing', async () => {
    now = 0;
    const s = await serve({ filters: [asIf, limited({ exposeHeaders: 'true', enforce: 'false' })] }, report);
    try {
      const r = await request(s, '/x');
      expect(r.headers['ratelimit-policy']).toMatch(/^"fast-\d+";q=328;w=65$/);
      expect(r.headers['ratelimit']).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('sends no rate-limit headers by default and uses exact windows for ExactRateLimiter', async () => {
    now = 0;
    const s = await serve(
      {
        filters: [
          asIf,
          limited({
            bucketRequests: '2',
            bucketDuration: '60',
            rateLimitClassName: 'org.apache.catalina.util.ExactRateLimiter',
          }),
        ],
      },
      report,
    );
    try {
      const r = await request(s, '/x');
      expect(r.headers['ratelimit-policy']).toBeUndefined();
      expect(await statuses(s, 3)).toEqual([200, 200, 429]);
      now = 59_999;
      expect(await statuses(s, 1)).toEqual([429]);
      now = 60_000;
      expect(await statuses(s, 1)).toEqual([200]);
    } finally {
      await s.close();
    }
  });

  it('counts the real client address with the default clock', async () => {
    const s = await serve(
      { filters: [declare(spec, create, { bucketRequests: '2', bucketDuration: '3600' })] },
      report,
    );
    try {
      const got: number[] = [];
      for (let i = 0; i < 3; i++) got.push((await request(s, '/x')).status);
      // A window boundary could fall between the requests; at most one reset can happen in 3 requests of an hour-long window.
      expect(got.filter((x) => x === 429).length).toBeLessThanOrEqual(1);
      expect(got[0]).toBe(200);
    } finally {
      await s.close();
    }
  });
});
