import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { profileLevel } from '../../src/lint/profiles.js';
import { ruleById } from '../../src/lint/rules/index.js';
import { effectOf } from '../../src/lint/severity.js';
import type { Profile } from '../../src/lint/types.js';
import type { Severity, TomcatEffect } from '../../src/model/index.js';
import { ON_TOMCAT_11 } from '../lint/rule-cases.js';
import type { FailFixture } from './rule-fixtures.js';
import type { FixtureObservation } from './rule-observe.js';

/**
 * tollgate's verdict on each rule's failing fixture held to what Tomcat 10.1 did with it
 * (test/fixtures/tomcat-observed/rules.json, recorded by scripts/observe-rules.ts), and the
 * "Observed on Tomcat" block of each rule page, generated from those recordings.
 */
export const RECORDINGS = join(import.meta.dirname, '..', 'fixtures', 'tomcat-observed', 'rules.json');

export interface Recordings {
  tomcat: string;
  date: string;
  how: string;
  fixtures: FixtureObservation[];
}

export function readRecordings(): Recordings {
  return JSON.parse(readFileSync(RECORDINGS, 'utf8')) as Recordings;
}

/** A server.xml component Tomcat logged as not started: the server runs without it. */
const COMPONENT_FAILED = [
  /Failed to (?:start|initialize) (?:connector|component)/,
  /Protocol handler (?:start|initialization) failed/,
];

/** What Tomcat did, in the policy's terms: it refused to start something (the server, a context, a connector), or started everything. */
export function refused(o: FixtureObservation): boolean {
  return (
    o.server === 'failed' ||
    o.contexts.some((c) => !c.started) ||
    o.serverLog.some((l) => COMPONENT_FAILED.some((re) => re.test(l)))
  );
}

/** Whether Tomcat logged a SEVERE or WARNING line for the fixture, at start-up or while answering. */
export function logged(o: FixtureObservation): boolean {
  return o.serverLog.length > 0 || o.contexts.some((c) => c.log.length > 0) || o.probes.some((p) => p.log.length > 0);
}

export interface Verdict {
  severity: Severity;
  effect: TomcatEffect;
}

/** The profiles a fixture is linted in: its own, or the first where the rule is on. */
function profileFor(f: FailFixture): Profile {
  if (f.profile) return f.profile;
  const meta = ruleById(f.rule)!.meta;
  return (['recommended', 'cis', 'stig'] as const).find((p) => profileLevel(meta, p) !== 'off') ?? 'recommended';
}

/** tollgate's findings of the fixture's rule on the fixture, each with what it says Tomcat does. */
export function verdictsOf(f: FailFixture): Verdict[] {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-verdict-'));
  try {
    for (const [path, text] of Object.entries(f.files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const json = Object.keys(f.files).find((p) => p.endsWith('.json') && p !== 'tollgate.config.json');
    const found = lintBase(loadInput(json ? join(root, json) : root), {
      profile: profileFor(f),
      ...(f.target ? { target: f.target } : {}),
    }).diagnostics;
    return found
      .filter((d) => d.ruleId === f.rule)
      .map((d) => ({ severity: d.severity, effect: effectOf(d) ?? ruleById(f.rule)!.meta.effect }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Where tollgate's verdict and Tomcat disagree, why; null when they agree or Tomcat cannot show it
 * (effect `tollgate`). A refusal must be a refusal; anything else a server and contexts that start.
 */
export function disagreement(verdicts: Verdict[], o: FixtureObservation): string | null {
  const effects = new Set(verdicts.map((v) => v.effect));
  if (effects.size === 0) return 'tollgate reports nothing on the fixture';
  if ([...effects].every((e) => e === 'tollgate')) return null;
  const refuses = effects.has('refuses');
  if (refuses && !refused(o)) return `tollgate says Tomcat refuses it (${show(verdicts)}), Tomcat started it`;
  if (!refuses && refused(o))
    return `tollgate says Tomcat starts it (${show(verdicts)}), Tomcat ${o.server === 'failed' ? 'did not start the server' : 'refused the context'}`;
  return null;
}

const show = (vs: Verdict[]) => [...new Set(vs.map((v) => `${v.severity}/${v.effect}`))].join(', ');

// ---------------------------------------------------------------- the rule pages

export const OBSERVED_BEGIN =
  '<!-- observed: generated from test/fixtures/tomcat-observed/rules.json by scripts/severity-doc.ts --rules -->';
export const OBSERVED_END = '<!-- /observed -->';

/** `SEVERE org.apache.catalina.core.StandardContext.filterStart Exception…` as `SEVERE StandardContext.filterStart Exception…`. */
const short = (line: string) => line.replace(/^(\w+) (?:[a-z]\w*\.)+([A-Z][\w$]*\.\w+) /, '$1 $2 ').replace(/`/g, "'");
const code = (s: string) => '`' + s.replace(/`/g, "'") + '`';

function describeFixture(o: FixtureObservation): string[] {
  const out: string[] = [];
  const starts = o.contexts.filter((c) => c.started).map((c) => code(c.path || '/'));
  const fails = o.contexts.filter((c) => !c.started).map((c) => code(c.path || '/'));
  let head = o.server === 'failed' ? 'The server did not start.' : 'The server started';
  if (o.server === 'started') {
    const parts = [
      starts.length ? `context ${starts.join(', ')} started` : '',
      fails.length ? `context ${fails.join(', ')} was refused` : '',
    ].filter(Boolean);
    head += parts.length ? `; ${parts.join('; ')}.` : ' (the fixture deploys no application).';
  }
  out.push(`- ${head}`);
  const lines = [...o.serverLog, ...o.contexts.flatMap((c) => c.log)];
  for (const l of lines.slice(0, 5)) out.push(`  - ${code(short(l))}`);
  if (lines.length > 5) out.push(`  - and ${lines.length - 5} more lines`);
  if (lines.length === 0 && o.server === 'started') out.push('  - No SEVERE or WARNING line was logged at start-up.');
  for (const p of o.probes) {
    if (p.status === null) {
      out.push(`- ${code(p.request)}: no plain HTTP connector to ask.`);
      continue;
    }
    const headers = Object.entries(p.headers).map(([k, v]) => `${k}: ${v}`);
    out.push(
      `- ${code(p.request)} → ${p.status}${headers.length ? `, ${headers.map(code).join(', ')}` : ''}${
        p.log.length
          ? `; logged ${p.log
              .slice(0, 2)
              .map((l) => code(short(l)))
              .join(', ')}`
          : ''
      }`,
    );
  }
  return out;
}

/** The "Observed on Tomcat" block of a rule page, from the recordings of its failing fixtures. */
export function observedBlock(id: string, rec: Recordings): string {
  const meta = ruleById(id)!.meta;
  const mine = rec.fixtures.filter((o) => o.rule === id);
  const version = /Tomcat\/([\d.]+)/.exec(rec.tomcat)?.[1] ?? rec.tomcat;
  const lines = [OBSERVED_BEGIN, `### Observed on Tomcat ${version}`, ''];
  if (meta.effect === 'tollgate') {
    lines.push(
      `Not a statement about Tomcat: this finding is about tollgate's own reading of the files (effect \`tollgate\`), so no run of Tomcat can confirm or refute it.${mine.length ? ' What Tomcat did with the same files:' : ''}`,
      '',
    );
  } else if (mine.length === 0) {
    lines.push('No failing fixture of this rule could be deployed on Tomcat.', '');
  }
  if (ON_TOMCAT_11.has(id))
    lines.push(
      'This rule is about Tomcat 11.0 (`--target 11.0`); on 10.1 the same configuration is valid, as recorded here.',
      '',
    );
  for (const o of mine) {
    lines.push(
      `Fixture ${o.n + 1} of ${mine.length} (${code(o.source)}), ${rec.tomcat}, ${rec.date}:`,
      '',
      ...describeFixture(o),
      '',
    );
  }
  lines.push(
    `Recorded by \`npx tsx scripts/observe-rules.ts\`; \`npm run conformance\` records it again and compares.`,
    OBSERVED_END,
  );
  return lines.join('\n');
}

/** A rule page with its "Observed on Tomcat" block replaced, or put right after the generated verdict. */
export function withObservedBlock(page: string, id: string, rec: Recordings): string {
  const block = observedBlock(id, rec);
  const b = page.indexOf(OBSERVED_BEGIN);
  if (b >= 0) return page.slice(0, b) + block + page.slice(page.indexOf(OBSERVED_END, b) + OBSERVED_END.length);
  const verdictEnd = '<!-- /severity -->';
  const at = page.indexOf(verdictEnd);
  if (at < 0) throw new Error(`docs/rules/${id}.md has no generated verdict (run scripts/severity-doc.ts --rules)`);
  return page.slice(0, at + verdictEnd.length) + '\n\n' + block + page.slice(at + verdictEnd.length);
}
