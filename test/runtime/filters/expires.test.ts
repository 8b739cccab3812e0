import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/expires.js';
import { create, createExpires, expirationOf } from '../../../src/runtime/filters/expires.js';
import { exchangeOf, type FilterDeclaration, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { captureLogs, declare } from './helpers.js';

// Calendar arithmetic follows the server's time zone; pin it so dates below are exact.
beforeAll(() => {
  process.env.TZ = 'UTC';
});

const NOW = Date.UTC(2024, 0, 31, 12, 0, 0);

/** Tomcat's TestExpiresFilter configuration. */
const TOMCAT_PARAMS = {
  ExpiresDefault: 'access plus 1 minute',
  'ExpiresByType text/xml;charset=utf-8': 'access plus 3 minutes',
  'ExpiresByType text/xml': 'access plus 5 minutes',
  'ExpiresByType text': 'access plus 7 minutes',
  ExpiresExcludedResponseStatusCodes: '304, 503',
};

/** The filter with a fixed clock, so max-age and Expires are exact. */
function expiresAt(
  params: Record<string, unknown>,
  now = NOW,
  settingsExtra: Record<string, unknown> = {},
): FilterDeclaration<ReturnType<typeof spec.schema.parse>> {
  const d = declare(spec, create, params);
  return {
    ...d,
    factory: (config, ctx) =>
      createExpires(config, { ...ctx, settings: { ...ctx.settings, ...settingsExtra } }, () => now),
  };
}

async function run(
  decl: FilterDeclaration,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  init: { method?: string; path?: string } = {},
) {
  const s = await serve({ filters: [decl] }, handler);
  try {
    const r = await request(s, init.path ?? '/x', { method: init.method ?? 'GET' });
    return { status: r.status, cacheControl: r.headers['cache-control'], expires: r.headers['expires'] };
  } finally {
    await s.close();
  }
}

/** A handler that sets the content type through the exchange (setContentType) and optional headers, then writes. */
function respond(contentType: string | null, headers: [string, string][] = [], status = 200, body = 'x') {
  return (req: IncomingMessage, res: ServerResponse) => {
    const r = exchangeOf(req)!.response;
    r.status = status;
    if (contentType !== null) r.setContentType(contentType);
    for (const [k, v] of headers) r.addHeader(k, v);
    res.end(body);
  };
}

const maxAge = (minutes: number) => ({
  cacheControl: `max-age=${minutes * 60}`,
  expires: new Date(NOW + minutes * 60_000).toUTCString(),
});

describe("ExpiresFilter: choosing the rule (Tomcat's TestExpiresFilter cases)", () => {
  it('uses the rule for the exact content type with its charset', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/xml; charset=utf-8'))).toMatchObject(maxAge(3));
  });

  it('falls back to the content type without charset, then to the major type', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/xml; charset=iso-8859-1'))).toMatchObject(maxAge(5));
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/json; charset=iso-8859-1'))).toMatchObject(maxAge(7));
  });

  it('falls back to ExpiresDefault for other types and for a response without content type', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('image/jpeg'))).toMatchObject(maxAge(1));
    expect(await run(expiresAt(TOMCAT_PARAMS), respond(null))).toMatchObject(maxAge(1));
  });

  it('adds nothing when no rule matches and there is no default', async () => {
    expect(await run(expiresAt({ 'ExpiresByType text/css': 'access plus 1 day' }), respond('image/png'))).toEqual({
      status: 200,
      cacheControl: undefined,
      expires: undefined,
    });
  });

  it('also applies to a response with no body, and to HEAD', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain', [], 200, ''))).toMatchObject(maxAge(7));
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain'), { method: 'HEAD' })).toMatchObject(maxAge(7));
  });

  it('applies to content types written directly with res.setHeader or res.writeHead', async () => {
    expect(
      await run(expiresAt(TOMCAT_PARAMS), (_req, res) => {
        res.setHeader('Content-Type', 'text/xml; charset=UTF-8');
        res.end('x');
      }),
    ).toMatchObject(maxAge(3));
    expect(
      await run(expiresAt(TOMCAT_PARAMS), (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/gif' });
        res.write('streamed');
        res.end();
      }),
    ).toMatchObject(maxAge(1));
  });
});

describe('ExpiresFilter: eligibility', () => {
  it('keeps an existing max-age and adds no Expires', async () => {
    expect(
      await run(
        expiresAt(TOMCAT_PARAMS),
        respond('text/xml; charset=utf-8', [['Cache-Control', 'private, max-age=232']]),
      ),
    ).toEqual({ status: 200, cacheControl: 'private, max-age=232', expires: undefined });
  });

  it('keeps an existing Expires header and adds no max-age', async () => {
    const expires = 'Thu, 01 Jan 2030 00:00:00 GMT';
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/xml; charset=utf-8', [['Expires', expires]]))).toEqual({
      status: 200,
      cacheControl: undefined,
      expires,
    });
  });

  it('joins max-age to other Cache-Control directives already there', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('image/jpeg', [['Cache-Control', 'private']]))).toMatchObject({
      cacheControl: 'private, max-age=60',
    });
    expect(
      await run(
        expiresAt(TOMCAT_PARAMS),
        respond('image/jpeg', [
          ['Cache-Control', 'public'],
          ['Cache-Control', 'no-transform'],
        ]),
      ),
    ).toMatchObject({ cacheControl: 'public,no-transform, max-age=60' });
  });

  it('adds nothing when Cache-Control says no-store, or already holds max-age among several lines (bug 69439)', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('image/jpeg', [['Cache-Control', 'no-store']]))).toEqual({
      status: 200,
      cacheControl: 'no-store',
      expires: undefined,
    });
    const conflict = await run(
      expiresAt(TOMCAT_PARAMS),
      respond('image/jpeg', [
        ['Cache-Control', 'public'],
        ['Cache-Control', 'no-store'],
        ['Cache-Control', 'max-age=300'],
      ]),
    );
    expect(conflict.expires).toBeUndefined();
    const predefined = await run(
      expiresAt(TOMCAT_PARAMS),
      respond('image/jpeg', [
        ['Cache-Control', 'public'],
        ['Cache-Control', 'max-age=600'],
      ]),
    );
    expect(predefined).toEqual({ status: 200, cacheControl: 'public, max-age=600', expires: undefined });
  });

  it('skips excluded status codes (304 and 503 here) but not others', async () => {
    expect(
      await run(expiresAt(TOMCAT_PARAMS), respond('text/plain', [['ETag', 'W/"1934-1269208821000"']], 304, '')),
    ).toMatchObject({ status: 304, cacheControl: undefined, expires: undefined });
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain', [], 503))).toMatchObject({
      status: 503,
      expires: undefined,
    });
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain', [], 500))).toMatchObject({
      status: 500,
      ...maxAge(7),
    });
  });

  it('excludes 304 by default and nothing when ExpiresExcludedResponseStatusCodes is empty', async () => {
    expect(
      await run(expiresAt({ ExpiresDefault: 'access plus 1 minute' }), respond('text/plain', [], 304, '')),
    ).toMatchObject({ expires: undefined });
    expect(
      await run(
        expiresAt({ ExpiresDefault: 'access plus 1 minute', ExpiresExcludedResponseStatusCodes: '' }),
        respond('text/plain', [], 304, ''),
      ),
    ).toMatchObject(maxAge(1));
  });

  it("looks up the content type of a 304 without one from the file name in the context's MIME table (bug 63909)", async () => {
    const params = { ...TOMCAT_PARAMS, ExpiresExcludedResponseStatusCodes: '' };
    const mimeType = (name: string) => (name.endsWith('.txt') ? 'text/plain' : null);
    expect(
      await run(expiresAt(params, NOW, { mimeType }), respond(null, [], 304, ''), { path: '/bug6nnnn/bug69303.txt' }),
    ).toMatchObject(maxAge(7));
    // The runtime's default table is Tomcat's: txt is text/plain there too.
    expect(
      await run(expiresAt(params, NOW), respond(null, [], 304, ''), { path: '/bug6nnnn/bug69303.txt' }),
    ).toMatchObject(maxAge(7));
    expect(
      await run(expiresAt(params, NOW, { mimeType: () => null }), respond(null, [], 304, ''), {
        path: '/bug6nnnn/bug69303.txt',
      }),
    ).toMatchObject(maxAge(1));
  });

  it('adds nothing to responses of other methods', async () => {
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain'), { method: 'POST' })).toMatchObject({
      cacheControl: undefined,
      expires: undefined,
    });
    expect(await run(expiresAt(TOMCAT_PARAMS), respond('text/plain'), { method: 'PUT' })).toMatchObject({
      expires: undefined,
    });
  });

  it('adds nothing to error pages sent with sendError, even when their status is not excluded (Tomcat ignores headers set after sendError)', async () => {
    // Observed on Tomcat 10.1.60 by test/conformance (ExpiresFilter, "expires: /missing.css"): a 404 from the
    // default servlet gets no Expires although ExpiresDefault is set and 404 is not excluded.
    expect(
      await run(
        expiresAt({ ExpiresDefault: 'access plus 1 minute' }),
        (req) => void exchangeOf(req)!.response.sendError(404),
      ),
    ).toMatchObject({ status: 404, cacheControl: undefined, expires: undefined });
  });

  it('adds nothing to a redirect sent with sendRedirect (observed: the default servlet redirecting /dir to /dir/)', async () => {
    expect(
      await run(
        expiresAt({ ExpiresDefault: 'access plus 1 minute' }),
        (req) => void exchangeOf(req)!.response.sendRedirect('/dir/'),
      ),
    ).toMatchObject({ status: 302, cacheControl: undefined, expires: undefined });
  });
});

describe('ExpiresFilter: bases and durations', () => {
  const lastModified = 'Mon, 01 Jan 2001 00:00:00 GMT';
  const lm = Date.UTC(2001, 0, 1);

  it('counts a modification rule from the Last-Modified header, giving a negative max-age when that is in the past', async () => {
    const r = await run(
      expiresAt({ ExpiresDefault: 'modification plus 1 hour' }),
      respond('text/plain', [['Last-Modified', lastModified]]),
    );
    expect(r.expires).toBe('Mon, 01 Jan 2001 01:00:00 GMT');
    expect(r.cacheControl).toBe(`max-age=${Math.trunc((lm + 3_600_000 - NOW) / 1000)}`);
  });

  it('reads Last-Modified in the RFC 850 and asctime forms too', async () => {
    for (const form of ['Monday, 01-Jan-01 00:00:00 GMT', 'Mon Jan  1 00:00:00 2001']) {
      expect(
        (await run(expiresAt({ ExpiresDefault: 'M3600' }), respond('text/plain', [['Last-Modified', form]]))).expires,
        form,
      ).toBe('Mon, 01 Jan 2001 01:00:00 GMT');
    }
  });

  it('adds nothing for a modification rule when the response has no (readable) Last-Modified, as for generated content', async () => {
    expect(await run(expiresAt({ ExpiresDefault: 'modification plus 1 hour' }), respond('text/html'))).toMatchObject({
      cacheControl: undefined,
      expires: undefined,
    });
    expect(
      await run(
        expiresAt({ ExpiresDefault: 'modification plus 1 hour' }),
        respond('text/html', [['Last-Modified', 'yesterday']]),
      ),
    ).toMatchObject({ expires: undefined });
  });

  it('reads the compact forms A<seconds> and M<seconds>', async () => {
    expect(await run(expiresAt({ 'ExpiresByType image/jpg': 'A10000' }), respond('image/jpg'))).toMatchObject({
      cacheControl: 'max-age=10000',
    });
    expect(
      (
        await run(
          expiresAt({ 'ExpiresByType video/mpeg': 'M20000' }),
          respond('video/mpeg', [['Last-Modified', lastModified]]),
        )
      ).expires,
    ).toBe(new Date(lm + 20_000_000).toUTCString());
  });

  it('adds several durations in order: 1 month 15 days 2 hours from January 31 lands on March 15', async () => {
    const r = await run(
      expiresAt({ 'ExpiresByType text/html': 'access plus 1 month 15 days 2 hours' }),
      respond('text/html'),
    );
    expect(r.expires).toBe('Fri, 15 Mar 2024 14:00:00 GMT');
  });

  it('adds calendar months and years as java.util.Calendar does, pinning to the end of shorter months', () => {
    const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 12);
    expect(expirationOf({ durations: [{ amount: 1, unit: 'month' }] }, at(2024, 1, 31))).toBe(at(2024, 2, 29));
    expect(expirationOf({ durations: [{ amount: 1, unit: 'month' }] }, at(2023, 1, 31))).toBe(at(2023, 2, 28));
    expect(expirationOf({ durations: [{ amount: 1, unit: 'year' }] }, at(2024, 2, 29))).toBe(at(2025, 2, 28));
    expect(expirationOf({ durations: [{ amount: 13, unit: 'month' }] }, at(2024, 1, 31))).toBe(at(2025, 2, 28));
    expect(expirationOf({ durations: [{ amount: -1, unit: 'month' }] }, at(2024, 3, 31))).toBe(at(2024, 2, 29));
    expect(expirationOf({ durations: [{ amount: 2, unit: 'week' }] }, at(2024, 12, 25))).toBe(at(2025, 1, 8));
  });

  it('adds days on the wall clock but hours as elapsed time across a daylight-saving change', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      // 2024-03-10 is 23 hours long in New York.
      const base = new Date(2024, 2, 9, 12, 0, 0).getTime();
      expect(expirationOf({ durations: [{ amount: 1, unit: 'day' }] }, base) - base).toBe(23 * 3_600_000);
      expect(expirationOf({ durations: [{ amount: 24, unit: 'hour' }] }, base) - base).toBe(24 * 3_600_000);
    } finally {
      process.env.TZ = previous;
    }
  });

  it('counts access rules from the real clock with the default factory', async () => {
    const r = await run(declare(spec, create, { ExpiresDefault: 'access plus 1 day' }), respond('text/plain'));
    const seconds = Number(/max-age=(\d+)/.exec(r.cacheControl as string)![1]);
    expect(Math.abs(seconds - 86_400)).toBeLessThanOrEqual(2);
  });
});

describe('ExpiresFilter: logging at FINE', () => {
  let logs: { records: LogRecord[]; stop: () => void } | null = null;
  afterEach(() => logs?.stop());

  it('logs the configuration at start and, per request, the date set or that nothing is configured', async () => {
    logs = captureLogs('org.apache.catalina.filters.ExpiresFilter');
    const decl = expiresAt({ 'ExpiresByType text/css': 'access plus 1 day' });
    const s = await serve({ filters: [decl] }, (req, res) => {
      res.setHeader('content-type', new URLSearchParams(exchangeOf(req)!.request.queryString ?? '').get('t')!);
      res.end();
    });
    try {
      await request(s, '/a?t=text/css');
      await request(s, '/b?t=image/png');
    } finally {
      await s.close();
    }
    const messages = logs.records
      .filter((r) => r.logger === 'org.apache.catalina.filters.ExpiresFilter' && r.level === 'FINE')
      .map((r) => r.message);
    expect(messages[0]).toBe(
      'Filter initialized with configuration [ExpiresFilter[excludedResponseStatusCode=[304], default=null, byType={text/css=ExpiresConfiguration[startingPoint=ACCESS_TIME, duration=[1 DAY]]}]]',
    );
    expect(messages).toContain(
      `Request [/a] with response status [200] content-type [text/css], set expiration date [${new Date(NOW + 86_400_000).toUTCString()}]`,
    );
    expect(messages).toContain(
      'Request [/b] with response status [200] content-type [image/png], no expiration configured',
    );
  });

  it('logs nothing below FINE', async () => {
    logs = captureLogs('org.apache.catalina.filters.ExpiresFilter', 'INFO');
    await run(expiresAt(TOMCAT_PARAMS), respond('text/plain'));
    expect(logs.records.filter((r) => r.logger === 'org.apache.catalina.filters.ExpiresFilter')).toEqual([]);
  });
});

describe('ExpiresFilter: rules of seconds, minutes and hours counted from access', () => {
  it('send what adding the durations to the clock gives, for whole, fractional and huge clock values', async () => {
    const durations = [
      { amount: 2, unit: 'hour' as const },
      { amount: 3, unit: 'minute' as const },
      { amount: 4, unit: 'second' as const },
    ];
    for (const now of [NOW, NOW + 0.5, NOW - 999, 2 ** 53 - 5_000, 0]) {
      const expires = expirationOf({ durations }, now);
      const r = await run(
        expiresAt({ 'ExpiresByType text/plain': 'access plus 2 hours 3 minutes 4 seconds' }, now),
        respond('text/plain'),
      );
      expect({ now, ...r }).toEqual({
        now,
        status: 200,
        cacheControl: `max-age=${Math.trunc((expires - now) / 1000)}`,
        expires: new Date(expires).toUTCString(),
      });
    }
  });
});
