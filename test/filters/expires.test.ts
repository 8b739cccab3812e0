import { describe, expect, it } from 'vitest';
import { expiresContentType, parseExpiresRule } from '../../src/filters/index.js';
import { parse, refuses, validate } from './helpers.js';

const UNITS = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;

describe('the ExpiresFilter rule language', () => {
  for (const u of UNITS) {
    it(`reads "${u}" and "${u}s", in any case`, () => {
      expect(parseExpiresRule(`access plus 1 ${u}`)).toEqual({
        ok: true,
        rule: { base: 'access', durations: [{ amount: 1, unit: u }], text: `access plus 1 ${u}` },
      });
      expect(parseExpiresRule(`access plus 2 ${u}s`)).toMatchObject({
        ok: true,
        rule: { durations: [{ amount: 2, unit: u }] },
      });
      expect(parseExpiresRule(`access plus 3 ${u.toUpperCase()}S`)).toMatchObject({
        ok: true,
        rule: { durations: [{ amount: 3, unit: u }] },
      });
    });
  }

  it('takes access, now (the same as access) and modification as the base, in any case', () => {
    expect(parseExpiresRule('access 1 day')).toMatchObject({ ok: true, rule: { base: 'access' } });
    expect(parseExpiresRule('NOW plus 1 day')).toMatchObject({ ok: true, rule: { base: 'access' } });
    expect(parseExpiresRule('Modification PLUS 1 day')).toMatchObject({ ok: true, rule: { base: 'modification' } });
  });

  it('makes "plus" optional and adds up several clauses, keeping months and years as calendar units', () => {
    expect(parseExpiresRule('access 1 year 2 months 3 weeks 4 days 5 hours 6 minutes 7 seconds')).toMatchObject({
      ok: true,
      rule: {
        durations: [
          { amount: 1, unit: 'year' },
          { amount: 2, unit: 'month' },
          { amount: 3, unit: 'week' },
          { amount: 4, unit: 'day' },
          { amount: 5, unit: 'hour' },
          { amount: 6, unit: 'minute' },
          { amount: 7, unit: 'second' },
        ],
      },
    });
    expect(parseExpiresRule('modification plus 1 month 1 month')).toMatchObject({
      ok: true,
      rule: {
        durations: [
          { amount: 1, unit: 'month' },
          { amount: 1, unit: 'month' },
        ],
      },
    });
  });

  it("reads amounts with Integer.parseInt: signs, leading zeros and other scripts' digits, within 32 bits", () => {
    expect(parseExpiresRule('access plus -1 day')).toMatchObject({
      ok: true,
      rule: { durations: [{ amount: -1, unit: 'day' }] },
    });
    expect(parseExpiresRule('access plus +007 days')).toMatchObject({
      ok: true,
      rule: { durations: [{ amount: 7, unit: 'day' }] },
    });
    expect(parseExpiresRule('access plus \uff15 days')).toMatchObject({
      ok: true,
      rule: { durations: [{ amount: 5, unit: 'day' }] },
    });
    expect(parseExpiresRule('access plus 2147483647 seconds').ok).toBe(true);
    expect(parseExpiresRule('access plus 2147483648 seconds')).toMatchObject({ ok: false, offset: 12, length: 10 });
  });

  it('reads the compact A<seconds> and M<seconds> forms, letters in any case', () => {
    expect(parseExpiresRule('A86400')).toEqual({
      ok: true,
      rule: { base: 'access', durations: [{ amount: 86400, unit: 'second' }], text: 'A86400' },
    });
    expect(parseExpiresRule('a60')).toMatchObject({
      ok: true,
      rule: { base: 'access', durations: [{ amount: 60, unit: 'second' }] },
    });
    expect(parseExpiresRule('M3600')).toMatchObject({
      ok: true,
      rule: { base: 'modification', durations: [{ amount: 3600, unit: 'second' }] },
    });
    expect(parseExpiresRule('m-5')).toMatchObject({
      ok: true,
      rule: { base: 'modification', durations: [{ amount: -5, unit: 'second' }] },
    });
  });

  it('splits on spaces only and ignores runs of them and blanks around the value', () => {
    expect(parseExpiresRule('  access   plus  1   day  ')).toMatchObject({
      ok: true,
      rule: { text: 'access   plus  1   day' },
    });
    const tab = parseExpiresRule('access plus 1\tday');
    expect(tab).toMatchObject({ ok: false, offset: 12, length: 5 });
    expect(tab.ok ? '' : tab.error).toMatch(/tab or line break/);
  });

  // [value, error fragment, offset and length of the word Tomcat stops at]
  const bad: [string, RegExp, number, number][] = [
    ['', /no starting point/, 0, 0],
    ['later plus 1 day', /"later" is not a starting point/, 0, 5],
    ['access', /no duration/, 6, 0],
    ['access plus', /no duration/, 11, 0],
    ['access plus one day', /"one" is not a whole number/, 12, 3],
    ['access plus 1', /no unit after 1/, 13, 0],
    ['access plus 1 fortnight', /"fortnight" is not a unit/, 14, 9],
    ['access plus 1 day 2', /no unit after 2/, 19, 0],
    ['access plus plus 1 day', /"plus" is not a whole number/, 12, 4],
    ['A', /"A" is neither a starting point nor a compact A<seconds>/, 0, 1],
    ['Axyz', /"Axyz" is neither/, 0, 4],
    ['A 60', /"A" is not a starting point/, 0, 1],
    ['mod', /"mod" is neither a starting point nor a compact m<seconds>/, 0, 3],
    ['A1.5', /neither/, 0, 4],
    ['access plus 1.5 days', /"1.5" is not a whole number/, 12, 3],
  ];
  for (const [value, error, offset, length] of bad) {
    it(`refuses ${JSON.stringify(value)} at the word Tomcat stops at`, () => {
      const r = parseExpiresRule(value);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error).toMatch(error);
      expect([r.offset, r.length]).toEqual([offset, length]);
    });
  }
});

describe('ExpiresFilter parameters', () => {
  it('keys ExpiresByType by the trimmed, lower-cased type: full type, type;charset, major type', () => {
    const c = parse('expires', {
      'ExpiresByType text/HTML;charset=UTF-8': 'access plus 1 day',
      'ExpiresByType image': 'A60',
      'ExpiresByTypeapplication/json': 'A1',
      'ExpiresByType   text/css  ': 'modification plus 1 hour',
      ExpiresDefault: 'access plus 1 minute',
    }) as { byType: Record<string, unknown>; defaultRule: unknown };
    expect(Object.keys(c.byType).sort()).toEqual(['application/json', 'image', 'text/css', 'text/html;charset=utf-8']);
    expect(c.defaultRule).toMatchObject({ base: 'access', durations: [{ amount: 1, unit: 'minute' }] });
    expect(expiresContentType('ExpiresByType text/html; charset=utf-8')).toBe('text/html; charset=utf-8');
  });

  it('reads ExpiresExcludedResponseStatusCodes as Tomcat does: empty excludes nothing, trailing commas are dropped', () => {
    const codes = (v: unknown) =>
      (parse('expires', { ExpiresExcludedResponseStatusCodes: v }) as { excludedStatusCodes: number[] })
        .excludedStatusCodes;
    expect(codes('302, 500')).toEqual([302, 500]);
    expect(codes('')).toEqual([]);
    expect(codes('302,')).toEqual([302]);
    expect(codes(' 404 ')).toEqual([404]);
    expect(codes([302, '500'])).toEqual([302, 500]);
    expect(codes(503)).toEqual([503]);
    expect(refuses('expires', { ExpiresExcludedResponseStatusCodes: '302,,500' })).toBe(true);
    expect(refuses('expires', { ExpiresExcludedResponseStatusCodes: ',302' })).toBe(true);
  });

  it('reads ExpiresDefault and ExpiresExcludedResponseStatusCodes names case-insensitively, ExpiresByType exactly', () => {
    const v = validate('ExpiresFilter', {
      expiresdefault: 'A60',
      EXPIRESEXCLUDEDRESPONSESTATUSCODES: '500',
      'expiresByType text/css': 'A60',
    });
    expect(v.config).toMatchObject({
      defaultRule: { durations: [{ amount: 60 }] },
      excludedStatusCodes: [500],
      byType: {},
    });
    const d = v.only('filter-param-unknown');
    expect(d.severity).toBe('warning');
    expect(d.message).toContain('Did you mean "ExpiresByType text/css"?');
    expect(d.fix?.[0]?.text).toBe('ExpiresByType text/css');
  });

  it('points a bad rule at the word inside the value, as an error', () => {
    const v = validate('ExpiresFilter', { 'ExpiresByType image/png': 'access plus 7 dayz' });
    const d = v.only('filter-param-invalid');
    expect(d.severity).toBe('error');
    expect(v.at(d)).toBe('dayz');
    expect(d.message).toMatch(/^ExpiresByType image\/png: "dayz" is not a unit/);
    expect(v.config).toBeNull();
  });

  it('points a bad status code at its entry', () => {
    const v = validate('ExpiresFilter', { ExpiresExcludedResponseStatusCodes: '304, 30x, 500' });
    expect(v.at(v.only('filter-param-invalid'))).toBe('30x');
  });

  it('warns when two ExpiresByType names configure the same type', () => {
    const v = validate('ExpiresFilter', { 'ExpiresByType text/css': 'A60', 'ExpiresByType TEXT/CSS': 'A120' });
    const d = v.only('filter-param-duplicate');
    expect(v.at(d)).toBe('ExpiresByType TEXT/CSS');
    expect(d.severity).toBe('warning');
  });

  it("takes the JSON chain format's natural types", () => {
    expect(parse('expires', { ExpiresDefault: 'A60', ExpiresExcludedResponseStatusCodes: [304, 302] })).toMatchObject({
      excludedStatusCodes: [304, 302],
    });
    expect(refuses('expires', { 'ExpiresByType image/png': 60 })).toBe(true);
  });

  it('reads a real configuration (refacktor/tomcat-conf)', () => {
    const v = validate('ExpiresFilter', {
      'ExpiresByType image': 'access plus 7 days',
      'ExpiresByType text/css': 'access plus 7 days',
      'ExpiresByType application/javascript': 'access plus 7 days',
    });
    expect(v.diagnostics).toEqual([]);
    expect(Object.keys((v.config as { byType: object }).byType)).toEqual([
      'image',
      'text/css',
      'application/javascript',
    ]);
  });
});
