// Records what real Tomcat 10.1 does with every rule's failing fixture into
// test/fixtures/tomcat-observed/rules.json (test/conformance/rule-observe.ts says how):
//   npx tsx scripts/observe-rules.ts [--only id,id] [--parallel 2]
// With --only, the other rules' recordings are kept. Then `npx tsx scripts/severity-doc.ts --rules`
// writes the "Observed on Tomcat" block of each rule page from it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { failFixtures } from '../test/conformance/rule-fixtures.js';
import { observeAll, tomcatVersion, type FixtureObservation } from '../test/conformance/rule-observe.js';

const { values } = parseArgs({
  options: { only: { type: 'string' }, parallel: { type: 'string', default: '2' } },
  strict: true,
});
const file = join(import.meta.dirname, '..', 'test', 'fixtures', 'tomcat-observed', 'rules.json');
const only = values.only ? new Set(values.only.split(',')) : null;
const fixtures = failFixtures().filter((f) => !only || only.has(f.rule));
const t0 = Date.now();
const observed = await observeAll(fixtures, {
  parallel: Number(values.parallel),
  progress: (m) => process.stderr.write(`${m}\n`),
});
const kept: FixtureObservation[] =
  only && existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { fixtures: FixtureObservation[] }).fixtures.filter(
        (o) => !only.has(o.rule),
      )
    : [];
const order = new Map(failFixtures().map((f, i) => [`${f.rule}/${f.n}`, i]));
const all = [...kept, ...observed].sort(
  (a, b) => (order.get(`${a.rule}/${a.n}`) ?? 1e9) - (order.get(`${b.rule}/${b.n}`) ?? 1e9),
);
const doc = {
  tomcat: tomcatVersion(),
  date: new Date().toISOString().slice(0, 10),
  how: 'npx tsx scripts/observe-rules.ts: each rule\'s failing fixture deployed on catalina.sh run (test/conformance/rule-observe.ts), connectors on 127.0.0.1; server: did "Server startup in" come; contexts: did each deployed context start, with the SEVERE/WARNING lines logged while it was deployed; probes: GET <context>/index.html and the requests of PROBES, with the headers they record.',
  fixtures: all,
};
writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
process.stderr.write(
  `${observed.length} fixtures observed in ${Math.round((Date.now() - t0) / 1000)} s; ${all.length} in ${file}\n`,
);
