/**
 * Re-observes the ordering fixtures on real Tomcat and rewrites
 * test/fixtures/ordering/observed.json: `npx tsx test/tomcat/observe-ordering.ts`.
 */
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProbeJar, startTomcat } from './tomcat.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'ordering');

interface Req { host: string; path: string; note?: string }

function get(port: number, host: string, path: string): Promise<{ status: number; order: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      const order: string[] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        if (res.rawHeaders[i]!.toLowerCase() === 'x-probe-order') order.push(res.rawHeaders[i + 1]!);
      }
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, order }));
    });
    req.on('error', reject);
    req.end();
  });
}

const work = mkdtempSync(join(tmpdir(), 'tollgate-probe-'));
const tomcat = await startTomcat(join(fixtures, 'base'), { jars: [buildProbeJar(work)] });
try {
  const requests = JSON.parse(readFileSync(join(fixtures, 'requests.json'), 'utf8')) as Req[];
  const results = [];
  for (const r of requests) results.push({ ...r, ...(await get(tomcat.port, r.host, r.path)) });
  const version = /Server version name:\s*(.*)/.exec(tomcat.log())?.[1]?.trim() ?? 'unknown';
  const failed = [...tomcat.log().matchAll(/Context \[([^\]]*)\] startup failed/g)].map((m) => m[1]);
  writeFileSync(join(fixtures, 'observed.json'), JSON.stringify({ tomcat: version, failedContexts: failed, results }, null, 2) + '\n');
  console.log(`observed ${results.length} requests on ${version}; failed contexts: ${failed.join(', ') || 'none'}`);
} finally {
  await tomcat.stop();
  rmSync(work, { recursive: true, force: true });
}
