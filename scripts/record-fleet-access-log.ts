// Records the access log lines real Tomcat 10.1 writes for the fleet test's requests into
// test/server/fixtures/tomcat-10.1.60-fleet-access-log.json; test/server/fleet.test.ts holds the lines
// of every serve instance behind HAProxy to them (no Tomcat needed there):
//   npx tsx scripts/record-fleet-access-log.ts
// The base and the requests are test/server/fleet-base.ts's. Tomcat (CATALINA_HOME, default
// /usr/share/tomcat10) runs on a copy whose Connector listens on a free 127.0.0.1 port; it is always
// stopped, also on errors and Ctrl-C. Test tooling only: nothing here ships.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  ACCESS_LOG_PREFIX,
  FLEET_REQUESTS,
  normaliseLine,
  requestOf,
  writeFleetBase,
  type FleetRequest,
} from '../test/server/fleet-base.js';
// @ts-expect-error scripts/tomcat-process.mjs is plain JavaScript without declarations.
import { freePort, startTomcat, tempDir, tomcatVersion } from './tomcat-process.mjs';

const out = join(import.meta.dirname, '..', 'test', 'server', 'fixtures', 'tomcat-10.1.60-fleet-access-log.json');

function send(port: number, r: FleetRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: r.path,
        method: r.method,
        agent: false,
        headers: { host: 'localhost', ...r.headers },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

const base = tempDir('tg-fleet-tomcat-');
writeFleetBase(base);
const port = (await freePort()) as number;
const serverXml = join(base, 'conf', 'server.xml');
writeFileSync(
  serverXml,
  readFileSync(serverXml, 'utf8').replace('<Connector port="8080"', `<Connector port="${port}" address="127.0.0.1"`),
);
const tomcat = await startTomcat(base);
try {
  // One at a time, so the lines are in the order of the requests.
  for (const r of FLEET_REQUESTS) await send(port, r);
  const read = (): string[] =>
    readdirSync(join(base, 'logs'))
      .filter((f) => f.startsWith(`${ACCESS_LOG_PREFIX}.`))
      .flatMap((f) =>
        readFileSync(join(base, 'logs', f), 'utf8')
          .split('\n')
          .filter(Boolean),
      );
  const deadline = Date.now() + 30_000;
  while (read().length < FLEET_REQUESTS.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const lines = read();
  if (lines.length !== FLEET_REQUESTS.length || lines.some((l, i) => requestOf(l) !== i))
    throw new Error(`Tomcat's access log is not one line per request, in order:\n${lines.join('\n')}`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        tomcat: tomcatVersion(),
        recordedBy: 'scripts/record-fleet-access-log.ts',
        requests: FLEET_REQUESTS,
        lines: lines.map(normaliseLine),
      },
      null,
      2,
    ) + '\n',
  );
  process.stderr.write(`wrote ${out}\n`);
} finally {
  await tomcat.stop();
}
process.exit(0);
