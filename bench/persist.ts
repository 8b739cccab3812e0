/**
 * `persist` on a large server.xml: how long the rewrite takes for 1,000 to 10,000 removed hosts, and
 * the longest stall of the event loop (requests wait that long) while a running container persists.
 *
 *   npx tsx bench/persist.ts [--hosts 10000] [--runs 5]
 *
 * Loads tollgate from dist/ (bench/dist.ts), so build first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fromDist } from './dist.js';

const { values } = parseArgs({
  options: { hosts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } },
});
const total = Number(values.hosts);
const runs = Number(values.runs);

type PersistModule = typeof import('../src/server/persist.js');
type HostsModule = typeof import('../src/server/hosts.js');
type ParserModule = typeof import('../src/parser/index.js');
const persist = await fromDist<PersistModule>('server/persist.js');
const { HostRegistry } = await fromDist<HostsModule>('server/hosts.js');
const { loadBase } = await fromDist<ParserModule>('parser/index.js');

function serverXml(n: number): string {
  const hosts = Array.from(
    { length: n },
    (_, i) =>
      `      <Host name="h${i}.example" appBase="h${i}">\n        <Alias>www.h${i}.example</Alias>\n      </Host>\n`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListener"/>
  <Service name="Catalina">
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"/>
${hosts}    </Engine>
  </Service>
</Server>
`;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const base = mkdtempSync(join(tmpdir(), 'tg-bench-persist-'));
try {
  mkdirSync(join(base, 'conf'));
  mkdirSync(join(base, 'webapps'));
  const xml = serverXml(total);
  const bytes = Buffer.from(xml);
  const file = join(base, 'conf', 'server.xml');
  writeFileSync(file, xml);
  const registry = HostRegistry.fromBase(loadBase({ base }));
  const all = registry.list();
  console.log(
    `server.xml with ${total.toLocaleString('en-US')} hosts (${(bytes.length / 1e6).toFixed(1)} MB); median of ${runs} runs`,
  );
  console.log('');
  console.log('| hosts removed | rewriteHosts ms (min–max) |');
  console.log('|---|---|');
  for (const removed of [1000, 2000, 4000, 10000].filter((n) => n <= total)) {
    const keep = all.filter((h) => h.name === 'localhost' || Number(h.name.slice(1, h.name.indexOf('.'))) >= removed);
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      persist.rewriteHosts(bytes, file, keep, 'Catalina');
      times.push(performance.now() - t);
    }
    console.log(
      `| ${removed.toLocaleString('en-US')} | ${median(times).toFixed(1)} (${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)}) |`,
    );
  }

  // A whole persist (read, rewrite, backup, write, fsync, rename) after removing half the hosts, with
  // the event loop's delay recorded: the longest a request arriving meanwhile would wait.
  for (let i = 0; i < total; i += 2) await registry.remove(`h${i}.example`);
  const persister = persist.createServerXmlPersister({ registry, file, keepBackups: 2 });
  const stalls: number[] = [];
  const walls: number[] = [];
  for (let r = 0; r < runs; r++) {
    writeFileSync(file, xml);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const t = performance.now();
    await persister.persist();
    walls.push(performance.now() - t);
    h.disable();
    stalls.push(h.max / 1e6);
  }
  console.log('');
  console.log(
    `Persist after removing ${(total / 2).toLocaleString('en-US')} of ${total.toLocaleString('en-US')} hosts: ${median(walls).toFixed(0)} ms in all, longest event-loop stall ${median(stalls).toFixed(0)} ms (min–max ${Math.min(...stalls).toFixed(0)}–${Math.max(...stalls).toFixed(0)}).`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
