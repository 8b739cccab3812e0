/**
 * `tollgate serve --workers` (issue 20): a 1 KB static file through the
 * 8-filter chain of bench/fixtures/runtime, served by one process, by
 * `--workers auto` (one process per core) and by Tomcat 10.1's default
 * servlet behind the same web.xml, in the same run. The load generator shares
 * the machine with the servers, as in bench/runtime.ts's `serve` section; the
 * load average when the run started is reported with the figures.
 *
 *   npm run build && npx tsx bench/workers.ts [--seconds 5] [--runs 3] [--connections 50] [--no-tomcat]
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load } from './load.js';
import {
  measure,
  prepare,
  REQUEST_HEADERS,
  rowLine,
  rowsOf,
  sample,
  serveTarget,
  type LoadRow,
  type Target,
} from './runtime.js';
import { compileServlets, startTomcat, tomcatAvailable, type RunningTomcat } from './tomcat.js';

const repo = join(import.meta.dirname, '..');
const PATH = '/app/static/app.css';

export interface WorkersBench {
  settings: { seconds: number; runs: number; connections: number; tomcat: string; workers: number };
  /** os.loadavg() when the run started (1, 5 and 15 minutes). */
  loadAverage: number[];
  rows: LoadRow[];
}

export const ONE_PROCESS = 'tollgate serve (one process)';

export async function run(o: {
  seconds: number;
  runs: number;
  connections: number;
  tomcat: boolean;
}): Promise<WorkersBench> {
  const loadAverage = loadavg().map((x) => Math.round(x * 100) / 100);
  const workers = availableParallelism();
  const { base } = prepare();
  const avail = o.tomcat ? tomcatAvailable() : { ok: false as const, why: 'disabled with --no-tomcat' };
  let tomcat: RunningTomcat | null = null;
  const targets: Target[] = [];
  try {
    targets.push(await serveTarget(base, PATH, [], ONE_PROCESS));
    targets.push(
      await serveTarget(base, PATH, ['--workers', 'auto'], `tollgate serve --workers auto (${workers} processes)`),
    );
    if (avail.ok) {
      compileServlets(join(repo, 'bench', 'tomcat-src'), join(base, 'webapps', 'app'));
      tomcat = await startTomcat(join(base, 'webapps'));
      targets.push({
        name: avail.version.replace('Apache Tomcat/', 'Tomcat '),
        port: tomcat.port,
        pid: tomcat.pid,
        path: PATH,
        stop: async () => undefined,
      });
    }
    for (const t of targets) {
      const s = await sample(t.port, t.path);
      if (s.status !== 200 || s.body.length !== 1024)
        throw new Error(`${t.name} answered ${s.status} with ${s.body.length} bytes for ${PATH}`);
    }
    // The JVM compiles hot paths for a while: give Tomcat a longer warm-up than the others get.
    if (tomcat)
      await load(tomcat.port, { path: PATH, seconds: 15, connections: o.connections, headers: REQUEST_HEADERS });
    const got = await measure(targets, { ...o, warmSeconds: 3 });
    return {
      settings: {
        seconds: o.seconds,
        runs: o.runs,
        connections: o.connections,
        tomcat: avail.ok ? avail.version : `not measured: ${avail.why}`,
        workers,
      },
      loadAverage,
      rows: rowsOf('workers', got, ONE_PROCESS),
    };
  } finally {
    for (const t of targets) await t.stop().catch(() => undefined);
    await tomcat?.stop();
  }
}

export function formatWorkers(r: WorkersBench): string {
  const lines = [
    `load average at start: ${r.loadAverage.join(' ')}; ${r.settings.workers} cores; Tomcat: ${r.settings.tomcat}`,
  ];
  for (const x of r.rows) lines.push(rowLine(x, 48));
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      'no-tomcat': { type: 'boolean', default: false },
    },
  });
  const result = await run({
    seconds: Number(values.seconds),
    runs: Number(values.runs),
    connections: Number(values.connections),
    tomcat: !values['no-tomcat'],
  });
  process.stdout.write(`${formatWorkers(result)}\n`, () => process.exit(0));
}
