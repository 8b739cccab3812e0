import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import type { FormatInput } from '../../src/lint/formatters/common.js';
import { formatGithub } from '../../src/lint/formatters/github.js';
import { formatJson } from '../../src/lint/formatters/json.js';
import { formatSarif } from '../../src/lint/formatters/sarif.js';
import { formatStylish } from '../../src/lint/formatters/stylish.js';
import { loadInput } from '../../src/lint/inputs.js';
import { ruleById } from '../../src/lint/rules/index.js';
import { cleanup, tree } from './helpers.js';

afterAll(cleanup);

// An existing rule given benchmark controls for these tests (and its own back after), so they hold whatever rules main has.
const rule = ruleById('shutdown-port-default')!;
const saved = rule.meta.benchmarks;
afterEach(() => {
  if (saved === undefined) delete rule.meta.benchmarks;
  else rule.meta.benchmarks = saved;
});

function input(): FormatInput {
  rule.meta.benchmarks = ['cis-tomcat-10.1:3.1', 'stig-tomcat:V-222951'];
  const dir = tree({
    'conf/server.xml':
      '<Server port="8005" shutdown="SHUTDOWN"><Service name="C"><Engine name="C" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
  });
  const r = lintBase(loadInput(dir));
  expect(r.diagnostics.map((d) => d.ruleId)).toContain('shutdown-port-default');
  return {
    diagnostics: r.diagnostics,
    files: r.files,
    lintedFiles: [...r.files.keys()],
    cwd: dir,
    repoRoot: dir,
    color: false,
    version: '0.1.0',
  };
}

describe("every format shows the benchmark controls a finding's rule decides", () => {
  it('SARIF tags the rule with them', () => {
    const log = JSON.parse(formatSarif(input())) as {
      runs: { tool: { driver: { rules: { id: string; properties: { tags: string[] } }[] } } }[];
    };
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.find((r) => r.id === 'shutdown-port-default')!.properties.tags).toEqual([
      'security',
      'cis-tomcat-10.1:3.1',
      'stig-tomcat:V-222951',
    ]);
    // A rule without controls keeps its tags as they were.
    expect(rules.find((r) => r.id === 'cors-any-origin')!.properties.tags).toEqual(['security']);
  });

  it('JSON gives each message of such a rule its benchmarks, and a message of a rule without controls no key', () => {
    const [file] = JSON.parse(formatJson(input())) as { messages: { ruleId: string; benchmarks?: string[] }[] }[];
    const message = file!.messages.find((m) => m.ruleId === 'shutdown-port-default')!;
    expect(message.benchmarks).toEqual(['cis-tomcat-10.1:3.1', 'stig-tomcat:V-222951']);
    for (const m of file!.messages.filter((m) => !ruleById(m.ruleId)?.meta.benchmarks))
      expect(m).not.toHaveProperty('benchmarks');
  });

  it('stylish and GitHub annotations name them after the rule id', () => {
    const i = input();
    expect(formatStylish(i)).toContain('shutdown-port-default (CIS 3.1, STIG V-222951)');
    expect(formatGithub(i)).toContain('title=shutdown-port-default (CIS 3.1%2C STIG V-222951)');
  });
});
