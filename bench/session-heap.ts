/**
 * The heap of `serve` holding many live sessions (issue 24, goal 6): the
 * example base served as `npm start` serves it (bench/soak.ts's child, the
 * same startContainer) with the session store's cap raised to --sessions,
 * then that many REST CSRF token fetches, each creating a session (no cookie
 * sent) that holds its token. Heap after a full GC is sampled at every tenth;
 * the growth over the sessions created is what one session costs.
 *
 *   npx tsx bench/session-heap.ts [--sessions 100000] [--concurrency 32]
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, sampleChild, startExampleChild } from './soak.js';

const EXAMPLE_BASE = fileURLToPath(new URL('../examples/base', import.meta.url));
const MB = 2 ** 20;

export interface SessionHeapPoint {
  sessions: number;
  heapMB: number;
  rssMB: number;
}

export async function run(o: {
  sessions: number;
  concurrency: number;
}): Promise<{ points: SessionHeapPoint[]; bytesPerSession: number; failures: number }> {
  const base = mkdtempSync(join(tmpdir(), 'tg-session-heap-'));
  cpSync(EXAMPLE_BASE, base, { recursive: true });
  const { child, port } = await startExampleChild(base, {
    ...process.env,
    TOLLGATE_BENCH_MAX_SESSIONS: String(o.sessions),
  });
  const client = new Client(port);
  const points: SessionHeapPoint[] = [];
  let failures = 0;
  try {
    const point = async (sessions: number): Promise<void> => {
      const m = await sampleChild(child);
      points.push({ sessions, heapMB: +(m.heapUsed / MB).toFixed(1), rssMB: +(m.rss / MB).toFixed(1) });
      process.stderr.write(
        `${sessions} sessions: heap ${(m.heapUsed / MB).toFixed(1)} MB, rss ${(m.rss / MB).toFixed(1)} MB\n`,
      );
    };
    // A few requests of each kind first, so the heap at 0 is a warm server's.
    for (let i = 0; i < 200; i++) await client.status('GET', '/');
    await point(0);
    let created = 0;
    for (let slice = 1; slice <= 10; slice++) {
      const target = Math.round((o.sessions * slice) / 10);
      await Promise.all(
        Array.from({ length: o.concurrency }, async () => {
          while (created < target) {
            created++;
            if ((await client.fetchToken()) !== 200) failures++;
          }
        }),
      );
      await point(created);
    }
    const first = points[0]!;
    const last = points[points.length - 1]!;
    return { points, bytesPerSession: Math.round(((last.heapMB - first.heapMB) * MB) / o.sessions), failures };
  } finally {
    client.close();
    child.kill();
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { sessions: { type: 'string', default: '100000' }, concurrency: { type: 'string', default: '32' } },
  });
  const r = await run({ sessions: Number(values.sessions), concurrency: Number(values.concurrency) });
  console.log(`sessions  heap_MB  rss_MB`);
  for (const p of r.points)
    console.log(
      `${String(p.sessions).padStart(8)} ${p.heapMB.toFixed(1).padStart(8)} ${p.rssMB.toFixed(1).padStart(7)}`,
    );
  console.log(`per session: ${r.bytesPerSession} bytes of heap; token fetches not answered 200: ${r.failures}`);
}
