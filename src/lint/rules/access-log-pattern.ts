import { allValves, simpleName } from '../hardening.js';
import type { Rule } from '../types.js';

/** AccessLogValve's named patterns. */
const ALIASES: Record<string, string> = {
  common: '%h %l %u %t "%r" %s %b',
  combined: '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i"',
};

/** What the STIG asks every access log to record, with the control that asks for it. */
const FIELDS: [code: string, what: string, control: string][] = [
  ['%h', 'the remote host', 'V-222940'],
  ['%t', 'the date and time', 'V-222939'],
  ['%u', 'the authenticated user', 'V-222985'],
  ['%r', 'the first line of the request', 'V-222942'],
  ['%s', 'the status code', 'V-222941'],
];

export const rule: Rule = {
  meta: {
    id: 'access-log-pattern',
    description: 'An AccessLogValve pattern leaves out a field the STIG asks for (%h, %t, %u, "%r", %s).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat logs requests without a field an investigation needs.',
    category: 'security',
    securitySeverity: 3.1,
    benchmarks: [
      'stig-tomcat:V-222939',
      'stig-tomcat:V-222940',
      'stig-tomcat:V-222941',
      'stig-tomcat:V-222942',
      'stig-tomcat:V-222985',
      'cis-tomcat-10.1:7.5',
    ],
    // Which fields a log needs is the operator's choice; the benchmarks fix one.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const valves = allValves(ctx.base);
    for (const v of valves) {
      if (!/AccessLogValve$/.test(simpleName(v))) continue;
      const p = v.attributes['pattern'];
      // Without a pattern AccessLogValve logs "common".
      const raw = p?.value ?? 'common';
      const pattern = ALIASES[raw.trim()] ?? raw;
      const missing = FIELDS.filter(([code]) => !pattern.includes(code) && !(code === '%t' && pattern.includes('%{')));
      if (missing.length === 0) continue;
      ctx.report({
        message: `The access log pattern "${raw}" does not record ${missing.map(([code, what, control]) => `${what} (${code}, ${control})`).join(', ')}.`,
        span: p?.span ?? v.className?.span ?? v.span,
      });
    }
  },
};
