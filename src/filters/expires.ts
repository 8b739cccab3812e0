import * as z from 'zod';
import { defineFilter, param, refuse } from './define.js';
import { patternText, reader } from './values.js';
import { javaTrim, parseJavaInteger, splitCommaSeparated } from './java-text.js';
import type { ParamDoc, ParamNote } from './spec.js';

export type DurationUnit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

/** One ExpiresDefault / ExpiresByType value: a base time plus calendar durations (months and years stay calendar units). */
export interface ExpiresRule {
  base: 'access' | 'modification';
  durations: { amount: number; unit: DurationUnit }[];
  /** The value as written (trimmed). */
  text: string;
}

export type ExpiresRuleResult =
  { ok: true; rule: ExpiresRule } | { ok: false; error: string; offset: number; length: number };

const UNITS = new Map<string, DurationUnit>();
for (const u of ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const) {
  UNITS.set(u, u);
  UNITS.set(u + 's', u);
}

const START_HELP = 'access, now, modification, or the compact A<seconds> / M<seconds>';

/**
 * Parses the rule language as ExpiresFilter does: the trimmed value split on
 * single spaces (a tab or line break is part of a word), `access`/`now`/
 * `modification`, an optional `plus`, then `<int> <unit>` pairs; or one word
 * `A<seconds>` / `M<seconds>`. Errors name the word Tomcat stops at, with its
 * offset in `value`.
 */
export function parseExpiresRule(value: string): ExpiresRuleResult {
  const line = javaTrim(value);
  const lead = value.indexOf(line.charAt(0));
  const tokens: { t: string; at: number }[] = [];
  let at = 0;
  for (const t of line.split(' ')) {
    if (t !== '') tokens.push({ t, at: lead + at });
    at += t.length + 1;
  }
  const fail = (error: string, tok?: { t: string; at: number }): ExpiresRuleResult => ({
    ok: false,
    error:
      tok && /\s/.test(tok.t) ? `${error} (only spaces separate words: this one has a tab or line break in it)` : error,
    offset: tok ? tok.at : Math.max(0, lead + line.length),
    length: tok ? tok.t.length : 0,
  });
  const first = tokens[0];
  if (!first) return fail(`no starting point: write ${START_HELP}, e.g. "access plus 1 month"`);

  let base: ExpiresRule['base'];
  let rest = tokens.slice(1);
  const word = first.t.toLowerCase();
  if (word === 'access' || word === 'now') base = 'access';
  else if (word === 'modification') base = 'modification';
  else if (tokens.length === 1 && (word.startsWith('a') || word.startsWith('m'))) {
    base = word.startsWith('a') ? 'access' : 'modification';
    const seconds = first.t.slice(1);
    if (parseJavaInteger(seconds) === null) {
      return fail(
        `"${first.t}" is neither a starting point nor a compact ${first.t.charAt(0)}<seconds> (e.g. ${first.t.charAt(0).toUpperCase()}86400)`,
        first,
      );
    }
    rest = [
      { t: seconds, at: first.at + 1 },
      { t: 'seconds', at: first.at + first.t.length },
    ];
  } else {
    return fail(`"${first.t}" is not a starting point: use ${START_HELP}`, first);
  }

  if (rest[0]?.t.toLowerCase() === 'plus') rest = rest.slice(1);
  if (rest.length === 0) return fail('no duration after the starting point (e.g. "access plus 1 day")');
  const durations: ExpiresRule['durations'] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const amount = parseJavaInteger(rest[i]!.t);
    if (amount === null) return fail(`"${rest[i]!.t}" is not a whole number of units`, rest[i]);
    const unitTok = rest[i + 1];
    if (!unitTok) return fail(`no unit after ${amount} (years, months, weeks, days, hours, minutes or seconds)`);
    const unit = UNITS.get(unitTok.t.toLowerCase());
    if (!unit)
      return fail(
        `"${unitTok.t}" is not a unit: use year(s), month(s), week(s), day(s), hour(s), minute(s) or second(s)`,
        unitTok,
      );
    durations.push({ amount, unit });
  }
  return { ok: true, rule: { base, durations, text: line } };
}

const BY_TYPE = 'ExpiresByType';

/** The content type an ExpiresByType name configures, keyed as Tomcat keys it (trimmed, lower-cased). */
export function expiresContentType(name: string): string {
  return javaTrim(name.slice(BY_TYPE.length)).toLowerCase();
}

function rule(description: string, examples: string[]) {
  return reader(
    z.string().meta({ title: 'web.xml text' }),
    { description, examples },
    (v, ctx): ExpiresRule | null => {
      const r = parseExpiresRule(v);
      if (!r.ok) refuse(ctx, r.error, { offset: r.offset, length: r.length });
      return r.ok ? r.rule : null;
    },
    (): ExpiresRule | null => null,
  );
}

const excludedCodes = reader(
  z.union([
    z
      .array(z.union([z.number().int(), patternText('^\\s*[+-]?[0-9]+\\s*$', 'a status code')]))
      .meta({ title: 'JSON list' }),
    z.number().int().meta({ title: 'JSON number (one code)' }),
    patternText('^(\\s*[+-]?[0-9]+\\s*(,\\s*[+-]?[0-9]+\\s*)*,*)?$'),
  ]),
  {
    description: 'Comma-separated status codes that never get expiration headers. Empty: none excluded.',
    default: [304],
    examples: ['304, 302, 500'],
  },
  (v, ctx) => {
    const pieces =
      typeof v === 'string'
        ? splitCommaSeparated(v)
        : (typeof v === 'number' ? [v] : v).map((x) => ({ text: javaTrim(String(x)), offset: 0 }));
    const codes: number[] = [];
    for (const [i, p] of pieces.entries()) {
      const n = parseJavaInteger(p.text);
      if (n === null)
        refuse(ctx, `entry ${i} ("${p.text}") is not a whole number`, {
          offset: p.offset,
          length: Math.max(1, p.text.length),
        });
      else codes.push(n);
    }
    return codes;
  },
  () => [304],
);

const byTypeDoc: ParamDoc & { kind: 'expires-rule' } = {
  kind: 'expires-rule',
  description:
    'Rule for one content type: "ExpiresByType text/css", "ExpiresByType text/html;charset=utf-8" (no blank after ";") or a major type "ExpiresByType image". Overrides ExpiresDefault.',
  examples: ['access plus 1 month', 'modification plus 2 hours 30 minutes', 'A86400'],
};
const byTypeJson = z.toJSONSchema(
  z.string().meta({ description: byTypeDoc.description, examples: byTypeDoc.examples }),
  { target: 'draft-7', io: 'input' },
);
delete (byTypeJson as Record<string, unknown>)['$schema'];

const defaultParam = param(
  'expires-rule',
  rule('Rule for every content type without its own ExpiresByType.', ['access plus 10 minutes', 'A600']),
);
const excludedParam = param('list', excludedCodes);

export const spec = defineFilter({
  id: 'expires',
  simpleName: 'ExpiresFilter',
  description:
    "Sets Expires and Cache-Control max-age on GET and HEAD responses by content type, relative to the access time or the file's modification time.",
  configProblemsAreFatal: true,
  unknownParams: 'logged',
  names: (name) => {
    if (name.startsWith(BY_TYPE)) return name;
    const lower = name.toLowerCase();
    if (lower === 'expiresdefault') return 'ExpiresDefault';
    if (lower === 'expiresexcludedresponsestatuscodes') return 'ExpiresExcludedResponseStatusCodes';
    return null;
  },
  params: { ExpiresDefault: defaultParam, ExpiresExcludedResponseStatusCodes: excludedParam },
  // Any property named ExpiresByType<type> holds a rule: zod cannot say "keys with this prefix".
  jsonSchema: { patternProperties: { [`^${BY_TYPE}`]: byTypeJson } },
  dynamicParams: {
    [BY_TYPE + ' ']: byTypeDoc,
    ExpiresDefault: defaultParam.doc,
    ExpiresExcludedResponseStatusCodes: excludedParam.doc,
  },
  toConfig: (v, raw, ctx) => {
    const byType: Record<string, ExpiresRule> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (!name.startsWith(BY_TYPE)) continue;
      if (typeof value !== 'string') {
        refuse(ctx, 'an ExpiresByType rule is a string such as "access plus 1 month"', {}, [name]);
        continue;
      }
      const r = parseExpiresRule(value);
      if (r.ok) byType[expiresContentType(name)] = r.rule;
      else refuse(ctx, r.error, { offset: r.offset, length: r.length }, [name]);
    }
    return { excludedStatusCodes: v.ExpiresExcludedResponseStatusCodes, defaultRule: v.ExpiresDefault, byType };
  },
  notes: (raw): ParamNote[] => {
    const seen = new Map<string, string>();
    const out: ParamNote[] = [];
    for (const name of Object.keys(raw)) {
      if (!name.startsWith(BY_TYPE)) continue;
      const type = expiresContentType(name);
      const prior = seen.get(type);
      if (prior !== undefined) {
        out.push({
          param: name,
          on: 'name',
          ruleId: 'filter-param-duplicate',
          severity: 'warning',
          message: `"${name}" and "${prior}" both configure "${type}"; which rule Tomcat keeps depends on hash order. Keep one`,
        });
      } else seen.set(type, name);
    }
    return out;
  },
});

export type ExpiresConfig = z.output<typeof spec.schema>;

/** Whether an init-param name is one ExpiresFilter reads (others are ignored with a warning). */
export function isExpiresParam(name: string): boolean {
  return spec.resolveParam(name) !== null;
}
