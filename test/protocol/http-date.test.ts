import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHttpDate, parseHttpDate } from '../../src/protocol/http-date.js';

/** Tomcat 10.1's answers (FastHttpDateFormat.parseDate), recorded by scripts/record-http-dates.sh. */
const recorded = readFileSync(join(import.meta.dirname, 'tomcat', 'http-dates.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => {
    const tab = l.indexOf('\t');
    return { input: l.slice(tab + 1).replace(/\\t/g, '\t'), tomcat: Number(l.slice(0, tab)) };
  });

/** Java time-zone names other than GMT and UTC, which tollgate does not read (see the module's comment). */
const ZONE_NAMES = /\d (EST|ESTX|PST|CET|CST)$/;

describe('parseHttpDate reads what Tomcat 10.1 reads', () => {
  it('has recorded answers to compare with', () => {
    expect(recorded.length).toBeGreaterThan(140);
  });

  it.each(recorded.filter((r) => !ZONE_NAMES.test(r.input)))('$input -> $tomcat', ({ input, tomcat }) => {
    expect(parseHttpDate(input)).toBe(tomcat === -1 ? null : tomcat);
  });

  it('ignores dates in Java zone names other than GMT and UTC, where Tomcat reads them', () => {
    const named = recorded.filter((r) => ZONE_NAMES.test(r.input));
    expect(named.length).toBe(5);
    for (const r of named) {
      expect(r.tomcat).not.toBe(-1);
      expect(parseHttpDate(r.input)).toBeNull();
    }
  });

  it('reads a bare number as no date at all, where Date.parse reads "1" as 2001', () => {
    expect(Date.parse('1')).not.toBeNaN();
    expect(parseHttpDate('1')).toBeNull();
  });

  it('puts a two-digit RFC 850 year in the 100 years that start 80 years ago', () => {
    const now = new Date();
    const start = new Date(now);
    start.setUTCFullYear(now.getUTCFullYear() - 80);
    for (const yy of [0, 1, 49, 50, 99, start.getUTCFullYear() % 100, (start.getUTCFullYear() + 1) % 100]) {
      const t = parseHttpDate(`Sunday, 01-Jan-${String(yy).padStart(2, '0')} 00:00:00 GMT`)!;
      expect(t).toBeGreaterThanOrEqual(start.getTime() - 366 * 86_400_000);
      expect(t).toBeLessThan(start.getTime() + 100 * 366 * 86_400_000);
      expect(new Date(t).getUTCFullYear() % 100).toBe(yy);
    }
  });

  it("gives the same answers whatever the machine's time zone (asctime is GMT)", () => {
    const inputs = recorded.map((r) => r.input);
    const here = inputs.map(parseHttpDate);
    // Node takes a new zone when process.env.TZ is assigned (a test file runs alone in its process, as
    // vitest.config.ts's forks pool runs it, so no other test sees the change; it is put back after).
    const saved = process.env.TZ;
    try {
      for (const [tz, offset] of [
        ['UTC', 0],
        ['America/New_York', 300],
        ['Asia/Kolkata', -330],
      ] as const) {
        process.env.TZ = tz;
        expect(new Date(0).getTimezoneOffset(), `${tz} took effect`).toBe(offset);
        expect(inputs.map(parseHttpDate), tz).toEqual(here);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('formats IMF-fixdate, which it reads back', () => {
    expect(formatHttpDate(784111777000)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(parseHttpDate(formatHttpDate(1_700_000_000_000))).toBe(1_700_000_000_000);
  });
});
