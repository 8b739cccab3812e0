import type { Diagnostic, TomcatEffect } from '../model/index.js';
import { RULES, ruleById } from './rules/index.js';

/**
 * What Tomcat 10.1 does with the configuration a finding is about: the finding's own effect when
 * it carries one, else its rule's (the variant of its severity, or the rule's default). Undefined
 * for an id no rule registers. Whether a context starts depends on this ('refuses'), not on the
 * severity: an error may be a context Tomcat starts and then runs wrongly ('misbehaves').
 */
export function effectOf(d: Pick<Diagnostic, 'ruleId' | 'severity' | 'effect'>): TomcatEffect | undefined {
  if (d.effect) return d.effect;
  const meta = ruleById(d.ruleId)?.meta;
  if (!meta) return undefined;
  if (d.severity === meta.defaultSeverity) return meta.effect;
  return meta.variants?.find((v) => v.severity === d.severity)?.effect ?? meta.effect;
}

/** Whether Tomcat refuses to start what this finding is in (the context, or the server for server.xml). */
export function refusesStart(d: Pick<Diagnostic, 'ruleId' | 'severity' | 'effect'>): boolean {
  return d.severity === 'error' && effectOf(d) === 'refuses';
}

const EFFECT_TEXT: Record<TomcatEffect, string> = {
  refuses: 'Tomcat refuses to start it',
  misbehaves: 'Tomcat starts and does something unintended or unsafe',
  ignores: 'Tomcat ignores it (or it has no effect)',
  weakens: 'Tomcat starts and security is weaker',
  notes: 'worth knowing',
  tollgate: "about tollgate's own reading",
};

/**
 * docs/severity.md: the policy, then every rule with its severity, what Tomcat 10.1 does and why,
 * from the rules' metadata (test/lint/severity.test.ts keeps the file equal to this).
 */
export function severityDoc(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = [...RULES]
    .sort((a, b) => a.meta.id.localeCompare(b.meta.id))
    .map(({ meta: m }) => {
      const variants = (m.variants ?? [])
        .map((v) => `<br>**${v.severity}** (${EFFECT_TEXT[v.effect]}): ${cell(v.when)}.`)
        .join('');
      return `| [${m.id}](rules/${m.id}.md) | ${m.defaultSeverity} | ${EFFECT_TEXT[m.effect]} | ${cell(m.reason)}${variants} |`;
    });
  const count = (s: string) => RULES.filter((r) => r.meta.defaultSeverity === s).length;
  return [
    '# Severities',
    '',
    "<!-- Generated from the rules' metadata (effect, reason, variants in src/lint/rules/*.ts) by",
    '     `npx tsx scripts/severity-doc.ts > docs/severity.md`; test/lint/severity.test.ts fails when it is out of date. -->',
    '',
    'A severity says what real Apache Tomcat 10.1 does with the configuration:',
    '',
    '- **error**: Tomcat refuses to start the context (or the server), or it starts and certainly does something',
    '  unintended or unsafe (a header that tells browsers to forget HSTS, an origin list that refuses every origin,',
    '  a switch read the other way round).',
    '- **warning**: Tomcat ignores it, with a log line or without certain harm, or it weakens security.',
    '- **info**: worth knowing.',
    '',
    'Only the errors marked "Tomcat refuses to start it" stop a context: the others describe a context that Tomcat',
    "runs, wrongly. lint's `effectOf` (src/lint/severity.ts) gives the effect of each finding; a finding whose rule has",
    "variants carries the variant's severity. tollgate's own findings (a file it cannot read, an unused suppression)",
    "say so. Each rule's page, docs/rules/<id>.md, says what Tomcat 10.1 was seen to do with the mistake.",
    '',
    `${RULES.length} rules: ${count('error')} errors, ${count('warning')} warnings, ${count('info')} infos by default.`,
    '',
    '| rule | severity | what Tomcat 10.1 does | why |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

const BEGIN = "<!-- severity: generated from the rule's metadata by scripts/severity-doc.ts --rules -->";
const END = '<!-- /severity -->';

/**
 * The verdict a rule page's "What Tomcat 10.1 does" section opens with (docs/rules/<id>.md), from the
 * rule's metadata; what was observed on Tomcat follows it, written by hand.
 */
export function tomcatVerdict(id: string): string {
  const m = ruleById(id)!.meta;
  const lines = [BEGIN, `**${m.defaultSeverity}** (${EFFECT_TEXT[m.effect]}): ${m.reason}`];
  for (const v of m.variants ?? []) lines.push(`- **${v.severity}** (${EFFECT_TEXT[v.effect]}): ${v.when}.`);
  lines.push(END);
  return lines.join('\n');
}

/**
 * A rule page whose "What Tomcat 10.1 does" section opens with the generated verdict: replaced where it
 * is, put at the top of the section where the section has none, and the section added before
 * "## Wrong" where the page has none. Text written by hand in the section is kept.
 */
export function withTomcatSection(page: string, id: string): string {
  const verdict = tomcatVerdict(id);
  const b = page.indexOf(BEGIN);
  if (b >= 0) {
    const e = page.indexOf(END, b);
    return page.slice(0, b) + verdict + page.slice(e + END.length);
  }
  const heading = '## What Tomcat 10.1 does\n';
  const at = page.indexOf(heading);
  if (at >= 0) return page.slice(0, at + heading.length) + '\n' + verdict + '\n' + page.slice(at + heading.length);
  const section = `${heading}\n${verdict}\n`;
  const wrong = page.indexOf('## Wrong');
  return wrong >= 0 ? page.slice(0, wrong) + section + '\n' + page.slice(wrong) : page.trimEnd() + '\n\n' + section;
}
