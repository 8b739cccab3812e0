import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Ajv as AjvCore } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { formatGithub } from '../../src/lint/formatters/github.js';
import { formatJson } from '../../src/lint/formatters/json.js';
import { formatSarif } from '../../src/lint/formatters/sarif.js';
import { formatStylish } from '../../src/lint/formatters/stylish.js';
import type { FormatInput } from '../../src/lint/formatters/common.js';
import { loadInput } from '../../src/lint/inputs.js';
import { app, cleanup, filter, tree } from './helpers.js';

afterAll(cleanup);

function input(): FormatInput {
  const dir = tree(
    app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' }) +
        filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSecond: '10' }),
    ),
  );
  const r = lintBase(loadInput(dir));
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

describe('formatters', () => {
  it('stylish shows a code frame with a caret under the span and a summary', () => {
    const out = formatStylish(input());
    expect(out).toContain('webapps/app/WEB-INF/web.xml');
    expect(out).toMatch(/\n\s+\d+ \| .*cors\.support\.credentials/);
    expect(out).toMatch(/\|\s+\^+/);
    expect(out).toMatch(/✖ \d+ problems \(\d+ errors?, \d+ warnings?, \d+ infos?\)/);
  });

  it('stylish shows a window of a very long line with the caret still under the span', () => {
    const i = input();
    const long = 'x'.repeat(5000) + '<param-value>BAD</param-value>' + 'y'.repeat(5000);
    const file = join(i.cwd, 'long.xml');
    const at = long.indexOf('BAD');
    i.files = new Map([[file, { path: file, text: `<a>\n${long}\n</a>\n`, encoding: 'utf-8', bom: false }]]);
    i.diagnostics = [
      {
        ruleId: 'filter-param-invalid',
        severity: 'error',
        message: 'bad',
        span: { file, line: 2, column: at + 1, endLine: 2, endColumn: at + 4, offset: 0, endOffset: 0 },
      },
    ];
    const lines = formatStylish(i).split('\n');
    const frame = lines.find((l) => l.includes('BAD'))!;
    const carets = lines[lines.indexOf(frame) + 1]!;
    expect(frame.length).toBeLessThan(200);
    expect(frame.indexOf('BAD')).toBe(carets.indexOf('^^^'));
    expect(carets.trimEnd().endsWith('^^^')).toBe(true);
  });

  it("json is ESLint's result format", () => {
    const results = JSON.parse(formatJson(input())) as Record<string, unknown>[];
    expect(results).toHaveLength(1);
    const r = results[0]!;
    expect(Object.keys(r).sort()).toEqual([
      'errorCount',
      'fatalErrorCount',
      'filePath',
      'fixableErrorCount',
      'fixableWarningCount',
      'messages',
      'suppressedMessages',
      'usedDeprecatedRules',
      'warningCount',
    ]);
    const m = (r['messages'] as Record<string, unknown>[])[0]!;
    expect(m).toMatchObject({
      ruleId: expect.any(String),
      severity: expect.any(Number),
      line: expect.any(Number),
      column: expect.any(Number),
      nodeType: null,
    });
    expect((r['messages'] as { fix?: unknown }[]).some((x) => x.fix)).toBe(true);
  });

  it('sarif validates against the SARIF 2.1.0 schema and carries what code scanning needs', () => {
    const require = createRequire(import.meta.url);
    const schemaPath = join(
      dirname(require.resolve('@microsoft/jest-sarif/package.json')),
      'lib',
      'schemas',
      'sarif-2.1.0-rtm.5.json',
    );
    // The official schema has a language-tag pattern that is only valid without the u flag.
    // Both packages are CommonJS; require keeps their default exports intact.
    const Ajv4 = require('ajv-draft-04') as new (opts: object) => AjvCore;
    const addFormats = require('ajv-formats') as (ajv: AjvCore) => void;
    const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(require(schemaPath) as object);
    const log = JSON.parse(formatSarif(input())) as {
      runs: {
        tool: { driver: { rules: { properties: Record<string, unknown>; helpUri: string }[] } };
        // SARIF results, walked by key as the format names them.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        results: Record<string, any>[];
      }[];
    };
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const run = log.runs[0]!;
    const result = run.results[0]!;
    expect(result['partialFingerprints']['primaryLocationLineHash']).toMatch(/^[0-9a-f]{32}$/);
    expect((run as unknown as { columnKind: string }).columnKind).toBe('utf16CodeUnits');
    expect(result['locations'][0].physicalLocation.artifactLocation.uri).toBe('webapps/app/WEB-INF/web.xml');
    const security = run.tool.driver.rules.find((r) => r.properties['security-severity']);
    expect(security?.properties['tags']).toContain('security');
    expect(run.tool.driver.rules.every((r) => r.helpUri.startsWith('https://'))).toBe(true);
  });

  it('sarif percent-encodes repository paths and names files outside the repository by absolute URI', () => {
    const i = input();
    const d = i.diagnostics[0]!;
    const inside = join(i.repoRoot, 'web apps', 'a#b', 'web.xml');
    const outside = join(dirname(i.repoRoot), 'elsewhere', 'web.xml');
    i.diagnostics = [
      { ...d, span: { ...d.span, file: inside } },
      { ...d, span: { ...d.span, file: outside } },
    ];
    const log = JSON.parse(formatSarif(i)) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[];
        originalUriBaseIds: Record<string, { uri: string }>;
      }[];
    };
    const [a, b] = log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation);
    expect(a).toEqual({ uri: 'web%20apps/a%23b/web.xml', uriBaseId: '%SRCROOT%' });
    expect(b!.uriBaseId).toBeUndefined();
    expect(b!.uri).toBe(pathToFileURL(outside).href);
    expect(log.runs[0]!.originalUriBaseIds['%SRCROOT%']!.uri).toBe(pathToFileURL(i.repoRoot).href + '/');
  });

  it("json leaves out a fix that edits another file than the message's", () => {
    const i = input();
    const d = i.diagnostics.find((x) => x.fix?.length === 1)!;
    i.diagnostics = [{ ...d, fix: [{ ...d.fix![0]!, file: d.span.file + '.other' }] }];
    const [r] = JSON.parse(formatJson(i)) as { messages: { fix?: unknown }[] }[];
    expect(r!.messages[0]!.fix).toBeUndefined();
  });

  it('json lists what suppression comments silenced as ESLint does, with the reason after "::"', () => {
    const dir = tree(
      app(
        '<!-- tollgate-disable filter-never-mapped :: kept for the next release -->\n' +
          filter('a', 'WebdavFixFilter', {}, false),
      ),
    );
    const r = lintBase(loadInput(dir));
    const [result] = JSON.parse(
      formatJson({
        diagnostics: r.diagnostics,
        suppressed: r.suppressed,
        files: r.files,
        lintedFiles: [...r.files.keys()],
        cwd: dir,
        repoRoot: dir,
        color: false,
        version: '0.1.0',
      }),
    ) as {
      messages: { ruleId: string }[];
      suppressedMessages: { ruleId: string; line: number; suppressions: unknown[] }[];
    }[];
    expect(result!.messages.map((m) => m.ruleId)).not.toContain('filter-never-mapped');
    expect(result!.suppressedMessages).toEqual([
      expect.objectContaining({
        ruleId: 'filter-never-mapped',
        line: 5,
        suppressions: [{ kind: 'directive', justification: 'kept for the next release' }],
      }),
    ]);
  });

  it('github annotations escape their properties and data', () => {
    const i = input();
    i.diagnostics = [{ ...i.diagnostics[0]!, message: 'a,b:c\n100%' }];
    expect(formatGithub(i)).toMatch(
      /^::error file=webapps\/app\/WEB-INF\/web\.xml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z-]+::a,b:c%0A100%25\n$/,
    );
  });
});
