/**
 * The catalogue rules on real Tomcat 9.0.70 and 10.1 (issue 30): every base of catalogue-cases.ts
 * starts on both versions; for each construct the test records what Tomcat did (refused the
 * connector, context or server; started and logged that it failed to set a property; took it) and
 * holds `lint --target 9.0` and `--target 10.1` to it: an error with effect "refuses" exactly where that
 * Tomcat refused, a finding with effect "ignores" where it logged the property it could not set, and
 * neither where it took the construct. Two Tomcat starts per base, run at once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { effectOf } from '../../src/lint/severity.js';
import type { Diagnostic } from '../../src/model/index.js';
import { CATALOGUE_BASES, type CatalogueBase, type CatalogueCase } from './catalogue-cases.js';
import {
  makeKeys,
  startAndCheck,
  tomcatVersionMissing,
  writeBase,
  type Keys,
  type StartReport,
  type TomcatVersion,
} from './migrate-tomcat.js';

/** What Tomcat did with a construct, and what lint says it does. */
type Verdict = 'refuses' | 'ignores' | 'takes';

let root = '';
let keys: Keys;

beforeAll(() => {
  const missing = tomcatVersionMissing('9.0') ?? tomcatVersionMissing('10.1');
  if (missing) throw new Error(missing);
  root = mkdtempSync(join(tmpdir(), 'tollgate-catalogue-conformance-'));
  keys = makeKeys(join(root, 'keys'));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Tomcat's line for a property it could not set: 10.1 "failed to set property [x] to [y]", 9.0 the
 * same from the digester, or "Setting property 'x' to 'y' did not find a matching property".
 */
function failedToSet(log: string, attribute: string): boolean {
  const a = escape(attribute);
  return new RegExp(
    `failed to set property \\[${a}\\]|Setting property '${a}' to .* did not find a matching property|property \\[${a}\\] .*(?:failed|not found|no setter)`,
  ).test(log);
}

function observed(c: CatalogueCase, r: StartReport): Verdict {
  const up = !r.started
    ? false
    : c.scope === 'server'
      ? true
      : 'connector' in c.scope
        ? r.connectors[c.scope.connector] === true
        : r.contexts[c.scope.context] === true;
  if (!up) return 'refuses';
  return c.attributes.some((a) => failedToSet(r.log, a)) ? 'ignores' : 'takes';
}

/** The lines of conf/server.xml each case holds: from its marker to the next. */
function regions(serverXml: string): Map<string, [number, number]> {
  const lines = serverXml.split('\n');
  const out = new Map<string, [number, number]>();
  let open: { id: string; from: number } | null = null;
  lines.forEach((l, i) => {
    const m = /<!-- case:([\w-]+) -->/.exec(l);
    if (!m) return;
    if (open) out.set(open.id, [open.from, i]);
    open = m[1] === 'end' ? null : { id: m[1]!, from: i + 1 };
  });
  if (open) out.set((open as { id: string }).id, [(open as { from: number }).from, lines.length]);
  return out;
}

function linted(
  c: CatalogueCase,
  found: Diagnostic[],
  dir: string,
  serverXml: string,
): { verdict: Verdict; shown: string[] } {
  const file = join(dir, ...c.file.split('/'));
  const region = c.file === 'conf/server.xml' ? regions(serverXml).get(c.id) : undefined;
  const mine = found.filter(
    (d) => d.span.file === file && (!region || (d.span.line >= region[0] && d.span.line <= region[1])),
  );
  const shown = mine.map((d) => `${d.span.line}:${d.span.column} ${d.severity} ${d.ruleId} (${effectOf(d) ?? '-'})`);
  if (mine.some((d) => d.severity === 'error' && effectOf(d) === 'refuses')) return { verdict: 'refuses', shown };
  if (mine.some((d) => effectOf(d) === 'ignores')) return { verdict: 'ignores', shown };
  return { verdict: 'takes', shown };
}

/** The lines of a Tomcat log worth showing when a verdict differs. */
function problems(r: StartReport): string {
  return r.log
    .split('\n')
    .filter(
      (l) =>
        /SEVERE|WARNING|Caused by|Exception:|failed to set|matching property/.test(l) &&
        !/ClassLoaderFactory|add-opens/.test(l),
    )
    .slice(0, 40)
    .join('\n');
}

const VERSIONS: TomcatVersion[] = ['9.0', '10.1'];

describe('the catalogue rules against real Tomcat 9.0.70 and 10.1', () => {
  it.each(CATALOGUE_BASES.map((b) => [b.name, b] as const))(
    '%s: lint --target 9.0 and --target 10.1 say what each Tomcat did with every construct',
    async (_name: string, def: CatalogueBase) => {
      const dirs = Object.fromEntries(VERSIONS.map((v) => [v, join(root, `${def.name}-${v}`)])) as Record<
        TomcatVersion,
        string
      >;
      const ports = Object.fromEntries(
        await Promise.all(VERSIONS.map(async (v) => [v, await writeBase(def, dirs[v], keys)] as const)),
      ) as Record<TomcatVersion, Record<string, number>>;
      // Lint first: the files as written, before Tomcat adds its work directories.
      const findings = Object.fromEntries(
        VERSIONS.map((v) => [v, lintBase(loadInput(dirs[v]), { target: v }).diagnostics] as const),
      ) as Record<TomcatVersion, Diagnostic[]>;
      const reports = await Promise.all(VERSIONS.map((v) => startAndCheck(v, dirs[v], def, ports[v]!)));
      const rows: string[] = [];
      const differ: string[] = [];
      VERSIONS.forEach((v, i) => {
        const r = reports[i]!;
        // A server.xml Tomcat cannot read stops it before VersionLoggerListener says its version.
        if (r.version !== '?' || r.started)
          expect(r.version, r.log.slice(-3000)).toMatch(v === '9.0' ? /^9\.0\.70\./ : /^10\.1\./);
        const serverXml = readFileSync(join(dirs[v], 'conf', 'server.xml'), 'utf8');
        for (const c of def.cases) {
          const saw = observed(c, r);
          const lint = linted(c, findings[v], dirs[v], serverXml);
          rows.push(`${v} ${c.id}: Tomcat ${saw}, lint ${lint.verdict} [${lint.shown.join('; ')}]`);
          if (saw !== lint.verdict) differ.push(`${v} ${c.id}: Tomcat ${saw}, lint ${lint.verdict}\n${problems(r)}`);
        }
      });
      if (process.env.TOLLGATE_CATALOGUE_TRACE) console.log(rows.join('\n'));
      expect(differ, rows.join('\n')).toEqual([]);
    },
    600_000,
  );
});
