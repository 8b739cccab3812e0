import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import type { FormatInput } from '../../src/lint/formatters/common.js';
import { formatJson } from '../../src/lint/formatters/json.js';
import { formatSarif } from '../../src/lint/formatters/sarif.js';
import { loadInput } from '../../src/lint/inputs.js';
import { renderReport } from '../../src/report/html.js';
import { buildReportData } from '../../src/report/index.js';
import { loadBase } from '../../src/parser/index.js';
import { cleanup, tree } from './helpers.js';

afterAll(cleanup);

// Two findings of one rule (ajp-no-secret) with the same severity and different effects: the connector on
// port 8009 is refused (no secret while one is required), the one on 8010 starts and trusts anyone.
const SERVER = `<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="8009" protocol="AJP/1.3" address="127.0.0.1"/>
    <Connector port="8010" protocol="AJP/1.3" address="0.0.0.0" secretRequired="false"/>
    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine>
  </Service>
</Server>
`;

function input(): FormatInput & { dir: string } {
  const dir = tree({ 'conf/server.xml': SERVER });
  const r = lintBase(loadInput(dir));
  return {
    dir,
    diagnostics: r.diagnostics,
    files: r.files,
    lintedFiles: [...r.files.keys()],
    cwd: dir,
    repoRoot: dir,
    color: false,
    version: '0.1.0',
  };
}

type Message = { ruleId: string; line: number; severity: number; effect: string };

describe('the effect of each finding travels with it into every output (issue 30, item 4)', () => {
  it("JSON: each message has an effect, the finding's own where one rule has two effects at one severity", () => {
    const [file] = JSON.parse(formatJson(input())) as { messages: Message[] }[];
    const ajp = file!.messages.filter((m) => m.ruleId === 'ajp-no-secret').map((m) => [m.line, m.severity, m.effect]);
    expect(ajp).toEqual([
      [3, 2, 'refuses'],
      [4, 2, 'misbehaves'],
    ]);
    for (const m of file!.messages)
      expect(['refuses', 'misbehaves', 'ignores', 'weakens', 'notes', 'tollgate']).toContain(m.effect);
  });

  it('SARIF: each result carries the effect in its properties', () => {
    const log = JSON.parse(formatSarif(input())) as {
      runs: {
        results: {
          ruleId: string;
          properties: { effect: string };
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    const ajp = log.runs[0]!.results.filter((r) => r.ruleId === 'ajp-no-secret');
    expect(ajp.map((r) => [r.locations[0]!.physicalLocation.region.startLine, r.properties.effect])).toEqual([
      [3, 'refuses'],
      [4, 'misbehaves'],
    ]);
  });

  it('the report: each finding has its effect in the data and in words on the page', () => {
    const { dir } = input();
    const data = buildReportData(loadBase({ base: dir }), dir, { label: 'base', now: new Date(0) });
    const items = data.findings.flatMap((f) => f.items).filter((i) => i.ruleId === 'ajp-no-secret');
    expect(items.map((i) => [i.place.line, i.effect])).toEqual([
      [3, 'refuses'],
      [4, 'misbehaves'],
    ]);
    const html = renderReport(data);
    expect(html).toContain('<span class="effect">Tomcat refuses to start it</span>');
    expect(html).toContain('<span class="effect">Tomcat starts and misbehaves</span>');
  });
});
