import { defineFilter } from './define.js';

export type DurationUnit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

/** One ExpiresDefault / ExpiresByType value: a base time plus calendar durations (months and years stay calendar units). */
export interface ExpiresRule {
  base: 'access' | 'modification';
  durations: { amount: number; unit: DurationUnit }[];
  text: string;
}

const UNITS: Record<string, DurationUnit> = {};
for (const u of ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const) {
  UNITS[u] = u;
  UNITS[u + 's'] = u;
}

/** Parses the rule language as ExpiresFilter does; the error names the token Tomcat stops at. */
export function parseExpiresRule(value: string): { ok: true; rule: ExpiresRule } | { ok: false; error: string } {
  let tokens = value.trim().split(' ').filter((t) => t !== '');
  if (tokens.length === 0) return { ok: false, error: 'empty rule: write e.g. "access plus 1 month" or "A2592000"' };
  let base: ExpiresRule['base'];
  const first = tokens[0]!.toLowerCase();
  if (first === 'access' || first === 'now') base = 'access';
  else if (first === 'modification') base = 'modification';
  else if (tokens.length === 1 && (first.startsWith('a') || first.startsWith('m'))) {
    base = first.startsWith('a') ? 'access' : 'modification';
    tokens = [first, tokens[0]!.slice(1), 'seconds'];
  } else {
    return { ok: false, error: `"${tokens[0]}" is not a starting point: use access, now, modification, or the compact A<seconds> / M<seconds>` };
  }
  let i = 1;
  if (tokens[i]?.toLowerCase() === 'plus') i++;
  if (i >= tokens.length) return { ok: false, error: 'no duration after the starting point (e.g. "access plus 1 day")' };
  const durations: ExpiresRule['durations'] = [];
  while (i < tokens.length) {
    const amountText = tokens[i]!;
    if (!/^[+-]?\d+$/.test(amountText) || Math.abs(Number(amountText)) > 2147483647) {
      return { ok: false, error: `"${amountText}" is not a whole number of units` };
    }
    const unitText = tokens[i + 1];
    if (unitText === undefined) return { ok: false, error: `no unit after "${amountText}" (years, months, weeks, days, hours, minutes or seconds)` };
    const unit = UNITS[unitText.toLowerCase()];
    if (!unit) return { ok: false, error: `"${unitText}" is not a unit: use year(s), month(s), week(s), day(s), hour(s), minute(s) or second(s)` };
    durations.push({ amount: Number(amountText), unit });
    i += 2;
  }
  return { ok: true, rule: { base, durations, text: value.trim() } };
}

const BY_TYPE = 'ExpiresByType';

export const spec = defineFilter({
  id: 'expires',
  simpleName: 'ExpiresFilter',
  description: 'Sets Expires and Cache-Control max-age on responses by content type, relative to access or modification time.',
  configProblemsAreFatal: true,
  unknownParams: 'logged',
  params: {},
  dynamicParams: {
    [BY_TYPE + ' ']: {
      kind: 'expires-rule',
      description: 'Rule for a content type: "ExpiresByType text/css", "ExpiresByType text/html;charset=utf-8" (no blank after ";") or a major type "ExpiresByType image".',
      examples: ['access plus 1 month', 'modification plus 2 hours 30 minutes', 'A86400'],
    },
    ExpiresDefault: { kind: 'expires-rule', description: 'Rule for every content type without its own ExpiresByType.', examples: ['access plus 10 minutes'] },
    ExpiresExcludedResponseStatusCodes: { kind: 'list', description: 'Comma-separated status codes that never get expiration headers.', default: '304', examples: ['302, 500, 503'] },
  },
  toConfig: (_v, raw, ctx) => {
    const byType: Record<string, ExpiresRule> = {};
    let defaultRule: ExpiresRule | null = null;
    let excludedStatusCodes = [304];
    for (const [name, value] of Object.entries(raw)) {
      const text = typeof value === 'string' ? value : String(value);
      if (name.startsWith(BY_TYPE) || name.toLowerCase() === 'expiresdefault') {
        const r = parseExpiresRule(text);
        if (!r.ok) {
          ctx.addIssue({ code: 'custom', path: [name], message: `${r.error}: Tomcat refuses to start the filter` });
          continue;
        }
        if (name.toLowerCase() === 'expiresdefault') defaultRule = r.rule;
        else byType[name.slice(BY_TYPE.length).trim().toLowerCase()] = r.rule;
      } else if (name.toLowerCase() === 'expiresexcludedresponsestatuscodes') {
        const codes = (Array.isArray(value) ? value.map(String) : text.split(',')).map((s) => s.trim()).filter((s) => s !== '');
        const bad = codes.find((c) => !/^[+-]?\d+$/.test(c));
        if (bad !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: `"${bad}" is not a status code: Tomcat refuses to start the filter` });
        else excludedStatusCodes = codes.map(Number);
      }
    }
    return { byType, defaultRule, excludedStatusCodes };
  },
});
export type ExpiresConfig = ReturnType<typeof spec.schema.parse>;

/** Whether an init-param name is one ExpiresFilter reads (others are ignored with a warning). */
export function isExpiresParam(name: string): boolean {
  const lower = name.toLowerCase();
  return name.startsWith(BY_TYPE) || lower === 'expiresdefault' || lower === 'expiresexcludedresponsestatuscodes';
}
