/**
 * Memory under session churn (issue 4): 1,000,000 requests through a chain
 * with CsrfPreventionFilter, each creating a new session (the load generator
 * sends no cookie) holding a nonce cache. The server runs in its own process
 * with --expose-gc; after every slice of requests it reports its heap and RSS
 * after a full GC and the session store's size. Bounded means the heap stops
 * growing once the store is full (maxActiveSessions 10,000: further new
 * sessions are refused, as on Tomcat, never made room for) and expired
 * sessions are swept.
 *
 *   npm run build && npx tsx bench/sessions.ts [--requests 1000000] [--slices 10] [--json]
 */
import { parseArgs } from 'node:util';
import { load, startServer } from './load.js';

export interface SessionPoint {
  requests: number;
  heapUsedMB: number;
  rssMB: number;
  sessions: number;
  rejected: number;
  rps: number;
  non2xx: number;
}

export interface SessionResult {
  requests: number;
  maxActiveSessions: number;
  points: SessionPoint[];
  /** Heap after the first slice (warm, store full) and at the end. */
  heapGrowthMB: number;
}

const MB = 1024 * 1024;

export async function run(o: { requests: number; slices: number }): Promise<SessionResult> {
  const maxActiveSessions = 10_000;
  const server = await startServer(
    {
      kind: 'filters',
      filters: [{ id: 'csrf-prevention', params: { entryPoints: '/hello', nonceCacheSize: '5' } }],
      session: true,
      sessionTimeoutMinutes: 30,
      maxActiveSessions,
    },
    ['--expose-gc'],
  );
  const points: SessionPoint[] = [];
  try {
    const m0 = await server.memory();
    points.push({
      requests: 0,
      heapUsedMB: m0.usage.heapUsed / MB,
      rssMB: m0.usage.rss / MB,
      sessions: m0.sessions,
      rejected: m0.rejected,
      rps: 0,
      non2xx: 0,
    });
    const per = Math.ceil(o.requests / o.slices);
    let done = 0;
    while (done < o.requests) {
      const amount = Math.min(per, o.requests - done);
      const t = Date.now();
      const r = await load(server.port, { path: '/app/hello', seconds: 0, amount, connections: 50 });
      // autocannon's average is over whole-second buckets: too coarse for slices of a few seconds.
      r.rps = (r.requests * 1000) / (Date.now() - t);
      done += r.requests;
      const m = await server.memory();
      points.push({
        requests: done,
        heapUsedMB: m.usage.heapUsed / MB,
        rssMB: m.usage.rss / MB,
        sessions: m.sessions,
        rejected: m.rejected,
        rps: r.rps,
        non2xx: r.non2xx,
      });
      process.stderr.write('.');
    }
    process.stderr.write('\n');
  } finally {
    await server.stop();
  }
  const warm = points[1] ?? points[0]!;
  return {
    requests: o.requests,
    maxActiveSessions,
    points,
    heapGrowthMB: points[points.length - 1]!.heapUsedMB - warm.heapUsedMB,
  };
}

export function formatSessions(r: SessionResult): string {
  const lines = [`requests    heap MB   RSS MB  sessions  rejected   req/s  non-2xx`];
  for (const p of r.points) {
    lines.push(
      `${String(p.requests).padStart(8)} ${p.heapUsedMB.toFixed(1).padStart(9)} ${p.rssMB.toFixed(0).padStart(8)} ${String(p.sessions).padStart(9)} ${String(p.rejected).padStart(8)} ${Math.round(p.rps).toString().padStart(7)} ${String(p.non2xx).padStart(8)}`,
    );
  }
  lines.push(`heap growth after the first slice: ${r.heapGrowthMB.toFixed(1)} MB`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '1000000' },
      slices: { type: 'string', default: '10' },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await run({ requests: Number(values.requests), slices: Number(values.slices) });
  process.stdout.write(`${values.json ? JSON.stringify(r) : formatSessions(r)}\n`, () => process.exit(0));
}
