/**
 * `npm run bench`: every benchmark of bench/ with bounded durations, one
 * after the other on a quiet machine, and bench/RESULTS.md written from what
 * they measured: the machine, the command behind each number, medians with
 * their spread, and each figure as a ratio to its yardstick measured in the
 * same run.
 *
 *   npm run bench                     # everything (about 20 minutes)
 *   npm run bench -- --quick          # shorter runs, smaller sizes (about 6 minutes)
 *   npm run bench -- --only runtime,sessions [--out FILE]
 *   npm run bench -- --only workers --out /tmp/workers.md   # serve --workers auto against one process and Tomcat
 *   npm run bench -- --only stores    # the compiled chain with its state in Redis vs in memory
 *   # issue 35's goals (bench/RESULTS.md, "Issue 35, goal by goal"), about 20 minutes:
 *   npm run bench -- --only runtime,nodes,coldstart,balancer,transport,stores --out /tmp/issue35.md
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatColdStart } from './cold-start.js';
import { run as runCost, type ChainCost } from './chain-cost.js';
import { runAll as runInstructions, type InstructionsBench } from './instructions.js';
import { run as runLint, type LintBench } from './lint.js';
import { LOAD_TOOL } from './load.js';
import { run as runParse, type ParseBench } from './parse.js';
import { run as runRuntime, type LoadRow, type RuntimeResult } from './runtime.js';
import { run as runSessions, type SessionResult } from './sessions.js';
import { run as runWorkers, type WorkersBench } from './workers.js';
import { cell, costCell } from './stats.js';

/** What the GC and page-fault columns of the parse and lint tables mean. */
const COSTS_NOTE =
  "GC ms / page faults: per timed run, the main thread's garbage-collection pauses (PerformanceObserver `gc` entries) and the process's minor page faults " +
  '(`process.resourceUsage()`), medians. The bare parse keeps nothing, so its garbage dies young and its heap never grows. tollgate keeps a positioned model ' +
  'of every descriptor (a span on every element, attribute and value, the source text for code frames): the young-generation collector copies it, promotes it, ' +
  'and the old space grows into fresh pages that the kernel faults in. That, not the parse, is most of the difference: parseWebXml alone, whose models die young, ' +
  'is at or under its bare parse.';

const repo = join(import.meta.dirname, '..');

interface External {
  title: string;
  command: string[];
  /** What it printed, shown as it is. */
  output: string;
  seconds: number;
  ok: boolean;
}

interface Results {
  startedAt: string;
  quick: boolean;
  parse?: ParseBench;
  lint?: LintBench;
  runtime?: RuntimeResult;
  cost?: ChainCost;
  instructions?: InstructionsBench;
  sessions?: SessionResult;
  workers?: WorkersBench;
  external: External[];
  seconds: Record<string, number>;
}

const SECTIONS = [
  'parse',
  'lint',
  'runtime',
  'cost',
  'instructions',
  'sessions',
  'workers',
  'soak',
  'connections',
  'fuzz',
  'lsp',
  'persist',
  'report',
  'stores',
  'coldstart',
  'balancer',
  'transport',
  'nodes',
] as const;

/** Benchmarks that own their output format: run as commands, their report kept verbatim. */
function externalCommands(quick: boolean): Record<string, { title: string; args: string[] }> {
  return {
    soak: {
      title: 'Soak: the served example under mixed traffic with session churn',
      args: ['bench/soak.ts', '--minutes', quick ? '1' : '3'],
    },
    connections: {
      title: 'Concurrent connections held open against the served example',
      args: ['bench/connections.ts', '--connections', quick ? '2000' : '10000', '--hold', quick ? '15' : '30'],
    },
    fuzz: {
      title: 'Fuzzing parse, lint, chain and compile',
      args: ['bench/fuzz.ts', '--inputs', quick ? '20000' : '200000', '--seed', '1'],
    },
    lsp: {
      title: 'Editor latency: tollgate lsp, diagnostics after a keystroke',
      args: ['bench/lsp.ts', '--keys', quick ? '40' : '200'],
    },
    persist: {
      title: 'Host manager persist on a server.xml of 10,000 hosts',
      args: ['bench/persist.ts', '--runs', quick ? '3' : '5'],
    },
    report: {
      title: 'tollgate report of the 1,000-app base in headless Chromium',
      args: ['bench/report.ts', '--runs', quick ? '3' : '5'],
    },
    stores: {
      title: 'The compiled chain with its state in Redis vs in memory',
      args: ['bench/stores.ts', '--seconds', quick ? '5' : '10', '--runs', quick ? '2' : '3'],
    },
    coldstart: {
      title: 'Cold start: tollgate lint <one web.xml> against node -e 0',
      args: ['bench/cold-start.ts', '--runs', quick ? '11' : '31'],
    },
    balancer: {
      title: 'Behind HAProxy: serve --workers auto against Tomcat through the same balancer',
      args: ['bench/balancer.ts', '--seconds', quick ? '3' : '5', '--runs', quick ? '2' : '3'],
    },
    nodes: {
      title: 'The compiled chain against its floor on every supported Node line',
      args: quick
        ? ['bench/nodes.ts', '--seconds', '3', '--runs', '2', '--warmup', '5000', '--short', '1500', '--long', '4500']
        : ['bench/nodes.ts', '--seconds', '5', '--runs', '3'],
    },
    transport: {
      title: "The Redis store's transport alone: client CPU per stateful request, memory of loading it",
      args: ['bench/redis-transport.ts', '--requests', quick ? '5000' : '20000', '--runs', '5'],
    },
  };
}

function runExternal(title: string, args: string[]): External {
  const t = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 30 * 60_000,
  });
  const output = `${r.stdout ?? ''}${r.status === 0 ? '' : `\n${(r.stderr ?? '').slice(-3000)}`}`.trim();
  return { title, command: ['npx', 'tsx', ...args], output, seconds: (Date.now() - t) / 1000, ok: r.status === 0 };
}

function machine(): string[] {
  const cpus = os.cpus();
  const git = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  return [
    `- CPU: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- Node ${process.version}; load generator: ${LOAD_TOOL}${LOAD_TOOL === 'wrk' ? ' (one thread)' : ''}; tollgate at ${git}`,
  ];
}

const x = (n: number): string => `${n.toFixed(2)}x`;
const pct = (n: number): string => `${Math.round(n * 100)}%`;
const rps = (r: LoadRow): string =>
  `${Math.round(r.rps.median).toLocaleString('en-US')} (${Math.round(r.rps.min).toLocaleString('en-US')}–${Math.round(r.rps.max).toLocaleString('en-US')})`;

function loadTable(rows: LoadRow[], yardLabel: string): string[] {
  const out = [
    `| | req/s, median (min–max) | ${yardLabel} | p50 ms | p99 ms | server CPU µs/request | non-2xx / errors |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    out.push(
      `| ${r.name} | ${rps(r)} | ${pct(r.ratio)} | ${r.p50.median} | ${r.p99.median} | ${r.cpuUs.median.toFixed(1)} | ${r.non2xx} / ${r.errors} |`,
    );
  }
  return out;
}

function markdown(r: Results): string {
  const out: string[] = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${r.quick ? ' -- --quick' : ''}\` (bench/run.ts) on ${r.startedAt}. Every figure is the median of several runs with the`,
    'spread (min–max) beside it, and every ratio is against a yardstick measured in the same run on the same machine.',
    "Re-run it to get your own machine's numbers; do not compare figures across machines.",
    '',
    '## Machine',
    '',
    ...machine(),
    '',
  ];

  if (r.parse) {
    out.push(
      '## Parse and merge a CATALINA_BASE',
      '',
      `Command: \`${r.parse.command}\`. Yardstick: a bare saxes parse of the same bytes (no tree, no model), each side in its own process.`,
      '',
    );
    out.push(
      '| webapps | tollgate loadBase + merge, ms | bare parse, ms | ratio | parseWebXml alone, ms | its bare parse, ms | ratio | GC ms / page faults per run: tollgate | bare |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const s of r.parse.sizes) {
      out.push(
        `| ${s.size} | ${cell(s.tollgateMs)} | ${cell(s.bareMs)} | ${x(s.ratio)} | ${cell(s.parseWebXmlMs)} | ${cell(s.parseWebXmlBareMs)} | ${x(s.parseWebXmlRatio)} | ${costCell(s.tollgateCosts)} | ${costCell(s.bareCosts)} |`,
      );
    }
    out.push('', 'Goal (issue 2): parse + merge within 1.5x of the bare parse.', '', COSTS_NOTE, '');
  }

  if (r.lint) {
    out.push(
      '## Lint',
      '',
      `Command: \`${r.lint.command}\`. Yardstick: the bare saxes parse of the same files, in its own process.`,
      '',
    );
    out.push(
      "| webapps | tollgate lint, ms | bare parse, ms | ratio | per webapp, µs | whole CLI, one thread, ms | whole CLI, `--workers 2`, ms | threads' speed-up | GC ms / page faults per run: tollgate | bare |",
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const s of r.lint.sizes) {
      out.push(
        `| ${s.size} | ${cell(s.tollgateMs)} | ${cell(s.bareMs)} | ${x(s.ratio)} | ${((s.tollgateMs.median * 1000) / Math.max(1, s.size)).toFixed(0)} | ${cell(s.cli.oneThreadMs)} | ${cell(s.cli.twoThreadsMs)} | ${x(s.cli.speedup)} | ${costCell(s.tollgateCosts)} | ${costCell(s.bareCosts)} |`,
      );
    }
    const c = r.lint.coldStart;
    const m = r.lint.memory;
    out.push(
      '',
      `Memory: one lint of ${m.apps.toLocaleString('en-US')} webapps (${m.files.toLocaleString('en-US')} files, ${m.diagnostics.toLocaleString('en-US')} findings) in a fresh process: heap ${m.heapMB.toFixed(1)} MB after a full GC with the result held, ${m.heapAfterMB.toFixed(1)} MB once it is dropped, peak RSS ${m.peakRssMB.toFixed(0)} MB.`,
    );
    out.push(
      '',
      formatColdStart(c),
      '',
      'Goal (issues 3 and 9): within 2x of the bare parse at every size, growing linearly. The CLI columns are whole `tollgate lint` processes (start-up and output included) on one thread and on two worker threads; `--workers auto` uses threads only where they were measured to help.',
      '',
      COSTS_NOTE,
      '',
    );
  }

  if (r.runtime) {
    const rt = r.runtime;
    const s = rt.settings;
    const cmd = `npx tsx bench/runtime.ts --seconds ${s.seconds} --runs ${s.runs} --connections ${s.connections}`;
    out.push(
      '## Runtime: the compiled chain against bare node:http, Express, Fastify and Tomcat',
      '',
      `Command: \`${cmd}\`. Each server in its own process, ${LOAD_TOOL} with ${s.connections} keep-alive connections on 127.0.0.1, ${s.runs} interleaved runs of ${s.seconds} s after a warm-up (Tomcat: 15 s more, for the JIT).`,
      'The request: `GET /app/hello` with `Origin: https://a.example` and `X-Forwarded-For: 203.0.113.5`, passing every filter. The chain is bench/fixtures/runtime/webapps/app/WEB-INF/web.xml',
      '(RemoteIp, RemoteCIDR, CORS, HttpHeaderSecurity, RestCsrf, SetCharacterEncoding, AddDefaultCharset, Expires), compiled by `tollgate compile`; Tomcat runs the same web.xml',
      `(${s.tomcat}) with a servlet writing the same body. Server CPU per request is read from /proc: it is the cost of a request independent of how fast the load generator is.`,
      '',
      ...loadTable(
        rt.rows.filter((x) => x.section === 'chain'),
        'of bare node:http',
      ),
      '',
      'Goal (issues 4 and 9): the chain at 85% or more of bare node:http, ahead of the Express and Fastify stacks. The second row sends the',
      "chain's nine response headers from a bare handler with setHeader, as a servlet-style chain must (filters and the servlet set, read and",
      'replace headers one at a time): what the headers alone cost on the wire and in node:http. The third sends them in one `writeHead` call',
      "with a flat list: node:http's cheapest public way to send them, the ceiling for any middleware that sends these headers, before it does any work.",
      '',
      'What each stack sent (Date and Expires values left out):',
      '',
      '```',
      ...Object.entries(rt.samples).flatMap(([name, v]) => [`${name}: ${v.status}`, ...v.headers.map((h) => `  ${h}`)]),
      '```',
      '',
    );
    const filters = rt.rows.filter((x) => x.section === 'filters');
    if (filters.length) {
      out.push(
        '### Each filter alone',
        '',
        `Same command, section \`filters\`: the runtime with one filter against the runtime with none (shorter runs). The CPU column shows the filter's own cost best.`,
        '',
      );
      out.push(...loadTable(filters, 'of no filter'), '');
    }
    const serve = rt.rows.filter((x) => x.section === 'serve');
    if (serve.length) {
      out.push(
        "### Static files through the chain: `tollgate serve` against Tomcat's default servlet",
        '',
        'Same command, section `serve`: both serve the same files of the same webapp behind the same eight filters.',
        '',
      );
      out.push(...loadTable(serve, 'of tollgate serve'), '');
    }
  }

  if (r.cost) {
    const c = r.cost;
    const floor = c.rows[0]!;
    out.push(
      '### CPU per request without the network',
      '',
      `Command: \`${c.command}\`. Real IncomingMessage and ServerResponse objects driven in a loop in one process, no socket: node:http's own`,
      `header handling and serialisation are in, the kernel's share of a loopback request and the load generator are out. CPU time (user + system) per request,`,
      `median of 5 samples of ${c.requestsPerSample.toLocaleString('en-US')} requests, each variant in its own process; log records are dropped, not written.`,
      '',
      '| | µs per request, median (min–max) | over the floor, µs |',
      '|---|---|---|',
      ...c.rows.map(
        (row) =>
          `| ${row.name} | ${row.us.median.toFixed(2)} (${row.us.min.toFixed(2)}–${row.us.max.toFixed(2)}) | ${row === floor ? '—' : row.overFloorUs.toFixed(2)} |`,
      ),
      '',
    );
  }

  if (r.instructions) {
    const ins = r.instructions;
    out.push('### Instructions per request', '');
    if (ins.skipped !== null) out.push(`Command: \`${ins.command}\`: not measured (${ins.skipped}).`, '');
    else {
      const floor = ins.rows[0]!;
      out.push(
        `Command: \`${ins.command}\`. The same in-process requests, counted by valgrind's cachegrind under \`node --predictable\`: a figure the machine's load does not move.`,
        'Each variant runs 10,000 and 40,000 requests after the same warm-up; the difference over 30,000 is one request.',
        '',
        '| | instructions per request | over the bare handler |',
        '|---|---|---|',
        ...ins.rows.map(
          (row) =>
            `| ${row.name} | ${row.perRequest.toLocaleString('en-US')} | ${row === floor ? '—' : `+${(row.perRequest - floor.perRequest).toLocaleString('en-US')}`} |`,
        ),
        '',
      );
    }
  }

  if (r.sessions) {
    const ss = r.sessions;
    out.push(
      '## Memory under session churn',
      '',
      `Command: \`npx tsx bench/sessions.ts --requests ${ss.requests}\`. ${ss.requests.toLocaleString('en-US')} requests through CsrfPreventionFilter, each creating a session with a nonce cache; heap after a full GC.`,
      `The context has <Manager maxActiveSessions="${ss.maxActiveSessions.toLocaleString('en-US')}">: new sessions beyond it are refused (500, as on Tomcat), live ones are never evicted, expired ones are swept.`,
      '',
      '| requests | heap MB | RSS MB | sessions | refused | req/s | non-2xx |',
      '|---|---|---|---|---|---|---|',
      ...ss.points.map(
        (p) =>
          `| ${p.requests.toLocaleString('en-US')} | ${p.heapUsedMB.toFixed(1)} | ${p.rssMB.toFixed(0)} | ${p.sessions} | ${p.rejected} | ${Math.round(p.rps)} | ${p.non2xx} |`,
      ),
      '',
      `Heap growth from the first slice to the end: ${ss.heapGrowthMB.toFixed(1)} MB.`,
      '',
    );
  }

  if (r.workers) {
    const w = r.workers;
    const s = w.settings;
    out.push(
      '## `tollgate serve --workers`: one process, one per core, and Tomcat',
      '',
      `Command: \`npx tsx bench/workers.ts --seconds ${s.seconds} --runs ${s.runs} --connections ${s.connections}\` (section \`workers\` of bench/run.ts). Load average when it started: ${w.loadAverage.join(', ')} (1, 5, 15 min).`,
      `\`GET /app/static/app.css\` (1 KB) through the 8-filter chain of bench/fixtures/runtime, served by \`tollgate serve\` as one process, by \`--workers auto\` (${s.workers} processes sharing the port through node:cluster) and by ${s.tomcat}'s default servlet behind the same web.xml;`,
      `${LOAD_TOOL} with ${s.connections} keep-alive connections on the same machine. Server CPU counts the primary and its workers.`,
      '',
      ...loadTable(w.rows, 'of one process'),
      '',
      "Goal (issue 20): `--workers auto` at or above Tomcat's requests/s on the same machine.",
      '',
    );
  }

  for (const e of r.external) {
    out.push(
      `## ${e.title}`,
      '',
      `Command: \`${e.command.join(' ')}\` (${e.seconds.toFixed(0)} s${e.ok ? '' : ', FAILED'}).`,
      '',
      '```',
      e.output,
      '```',
      '',
    );
  }

  out.push('## Time taken', '', ...Object.entries(r.seconds).map(([k, v]) => `- ${k}: ${v.toFixed(0)} s`), '');
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string', default: join(repo, 'bench', 'RESULTS.md') },
    },
  });
  const quick = values.quick!;
  const only = new Set(values.only ? values.only.split(',') : SECTIONS);
  for (const s of only)
    if (!(SECTIONS as readonly string[]).includes(s))
      throw new Error(`--only: unknown section ${s} (known: ${SECTIONS.join(', ')})`);
  const r: Results = {
    startedAt: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    quick,
    external: [],
    seconds: {},
  };
  const timed = async <T>(name: string, fn: () => Promise<T> | T): Promise<T> => {
    const t = Date.now();
    process.stderr.write(`bench: ${name}\n`);
    const v = await fn();
    r.seconds[name] = (Date.now() - t) / 1000;
    return v;
  };
  const sizes = quick ? [10, 100, 1000] : [10, 100, 1000, 10_000];
  if (only.has('parse')) r.parse = await timed('parse', () => runParse(sizes));
  if (only.has('lint')) r.lint = await timed('lint', () => runLint(sizes));
  if (only.has('runtime'))
    r.runtime = await timed('runtime', () =>
      runRuntime({
        seconds: quick ? 3 : 5,
        runs: quick ? 2 : 3,
        connections: 50,
        sections: ['chain', 'filters', 'serve'],
        tomcat: true,
      }),
    );
  if (only.has('cost')) r.cost = await timed('cost', () => runCost());
  if (only.has('instructions')) r.instructions = await timed('instructions', () => runInstructions());
  if (only.has('sessions'))
    r.sessions = await timed('sessions', () => runSessions({ requests: quick ? 200_000 : 1_000_000, slices: 10 }));
  if (only.has('workers'))
    r.workers = await timed('workers', () =>
      runWorkers({ seconds: quick ? 3 : 5, runs: quick ? 2 : 3, connections: 50, tomcat: true }),
    );
  const ext = externalCommands(quick);
  for (const [name, e] of Object.entries(ext))
    if (only.has(name as (typeof SECTIONS)[number]))
      r.external.push(await timed(name, () => runExternal(e.title, e.args)));
  writeFileSync(values.out!, markdown(r));
  process.stderr.write(`bench: wrote ${values.out}\n`);
}

await main();
process.exit(0);
