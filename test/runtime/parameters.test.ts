import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  charsetDecoder,
  exchangeOf,
  PARAMETER_PARSE_FAILED_ATTR,
  PARAMETER_PARSE_FAILED_REASON_ATTR,
  setLogSink,
  type LogRecord,
  type RuntimeFilter,
} from '../../src/runtime/index.js';
import { ParameterMap, parseUrlEncoded } from '../../src/runtime/parameters.js';
import { jsonHandler, request, serve, type Served } from './serve.js';

function parse(text: string, limit = -1, charset = 'UTF-8') {
  const m = new ParameterMap(limit);
  parseUrlEncoded(Buffer.from(text, 'latin1'), charsetDecoder(charset)!, m);
  return { params: Object.fromEntries(m.values), failure: m.failure, count: m.count, skipped: m.skipped };
}

describe('parseUrlEncoded (Tomcat Parameters rules)', () => {
  it('keeps repeated names in order, gives "" for a name without "=", and decodes + as a space', () => {
    expect(parse('a=1&b&a=2&c=x+y%21&d=e=f')).toEqual({
      params: { a: ['1', '2'], b: [''], c: ['x y!'], d: ['e=f'] },
      failure: null,
      count: 5,
      skipped: 0,
    });
  });

  it('ignores empty chunks silently but records a chunk with an empty name as NO_NAME', () => {
    expect(parse('&&a=1&&')).toMatchObject({ params: { a: ['1'] }, failure: null });
    expect(parse('=x&a=1')).toMatchObject({ params: { a: ['1'] }, failure: 'NO_NAME', skipped: 1 });
  });

  it('skips a parameter with a malformed %-escape in its name or value and records URL_DECODING', () => {
    expect(parse('a=%zz&b=2&c%4=3&d=%4')).toMatchObject({ params: { b: ['2'] }, failure: 'URL_DECODING', skipped: 3 });
  });

  it('keeps only the first failure reason', () => {
    expect(parse('=x&a=%zz')).toMatchObject({ failure: 'NO_NAME', skipped: 2 });
  });

  it('stops at the limit and records TOO_MANY_PARAMETERS', () => {
    expect(parse('a=1&b=2&c=3&d=4', 2)).toMatchObject({
      params: { a: ['1'], b: ['2'] },
      failure: 'TOO_MANY_PARAMETERS',
      count: 2,
    });
    expect(parse('a=1&b=2', 2)).toMatchObject({ failure: null, count: 2 });
  });

  it('decodes bytes with the given charset, replacing malformed sequences instead of failing', () => {
    expect(parse('q=%C3%A9', -1, 'UTF-8').params.q).toEqual(['é']);
    expect(parse('q=%C3%A9', -1, 'ISO-8859-1').params.q).toEqual(['Ã©']);
    expect(parse('q=%E9', -1, 'ISO-8859-1').params.q).toEqual(['é']);
    expect(parse('q=%80', -1, 'ISO-8859-1').params.q).toEqual(['\u0080']);
    expect(parse('q=%E9', -1, 'UTF-8')).toMatchObject({ params: { q: ['\ufffd'] }, failure: null });
    expect(parse('q=%82%A0', -1, 'Shift_JIS').params.q).toEqual(['あ']);
  });
});

/** Parses (optionally after setting an encoding), lets the handler report what it sees. */
const parsing: RuntimeFilter = {
  name: 'Parse',
  async doFilter(ex, next) {
    const r = ex.request;
    const before = r.getHeader('x-encoding-before');
    if (before !== null) r.setCharacterEncoding(before);
    await r.parseParameters();
    const after = r.getHeader('x-encoding-after');
    if (after !== null) r.setCharacterEncoding(after);
    await next();
  },
};

function report(req: Parameters<typeof exchangeOf>[0]) {
  const r = exchangeOf(req)!.request;
  return {
    params: Object.fromEntries(r.getParameterMap()),
    count: r.getParameterNames().reduce((n, k) => n + r.getParameterValues(k)!.length, 0),
    failure: r.parameterFailure,
    failedAttr: r.getAttribute(PARAMETER_PARSE_FAILED_ATTR) ?? null,
    reasonAttr: r.getAttribute(PARAMETER_PARSE_FAILED_REASON_ATTR) ?? null,
    encoding: r.characterEncoding,
    bodyBytes: r.body?.length ?? null,
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('request parameters over HTTP', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ filters: [parsing], maxPostSize: 64 * 1024 }, jsonHandler(report));
  });
  afterAll(() => s.close());

  it('merges query string and form body, query first', async () => {
    const v = JSON.parse((await request(s, '/?a=1&b=2', { method: 'POST', headers: FORM, body: 'a=3&c=4' })).body);
    expect(v).toMatchObject({
      params: { a: ['1', '3'], b: ['2'], c: ['4'] },
      failure: null,
      failedAttr: null,
      reasonAttr: null,
      bodyBytes: 7,
    });
  });

  it("records more than 1000 parameters (query plus body) as skipped, with Tomcat's attributes", async () => {
    const query = Array.from({ length: 600 }, (_, i) => `q${i}=1`).join('&');
    const body = Array.from({ length: 600 }, (_, i) => `b${i}=1`).join('&');
    const v = JSON.parse((await request(s, `/?${query}`, { method: 'POST', headers: FORM, body })).body);
    expect(v.count).toBe(1000);
    expect(v).toMatchObject({ failure: 'TOO_MANY_PARAMETERS', failedAttr: true, reasonAttr: 'TOO_MANY_PARAMETERS' });
  });

  it('accepts exactly 1000 parameters without a failure', async () => {
    const query = Array.from({ length: 1000 }, (_, i) => `q${i}=1`).join('&');
    const v = JSON.parse((await request(s, `/?${query}`)).body);
    expect(v).toMatchObject({ count: 1000, failure: null });
  });

  it('records a bad %-escape as URL_DECODING and keeps the other parameters', async () => {
    const v = JSON.parse((await request(s, '/?a=%zz&b=1')).body);
    expect(v).toMatchObject({ params: { b: ['1'] }, failure: 'URL_DECODING', failedAttr: true });
  });

  it('decodes the body as ISO-8859-1 by default and the query string as UTF-8', async () => {
    const v = JSON.parse(
      (await request(s, '/?q=%C3%A9', { method: 'POST', headers: FORM, body: 'b=%C3%A9&l=%E9' })).body,
    );
    expect(v.params).toEqual({ q: ['é'], b: ['Ã©'], l: ['é'] });
    expect(v.encoding).toBeNull();
  });

  it('uses the Content-Type charset for the body', async () => {
    const v = JSON.parse(
      (
        await request(s, '/', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
          body: 'b=%C3%A9',
        })
      ).body,
    );
    expect(v).toMatchObject({ params: { b: ['é'] }, encoding: 'UTF-8' });
  });

  it('applies an encoding set before parsing, and ignores one set afterwards (except in characterEncoding)', async () => {
    const before = JSON.parse(
      (await request(s, '/', { method: 'POST', headers: { ...FORM, 'x-encoding-before': 'UTF-8' }, body: 'b=%C3%A9' }))
        .body,
    );
    expect(before).toMatchObject({ params: { b: ['é'] }, encoding: 'UTF-8' });
    const after = JSON.parse(
      (await request(s, '/', { method: 'POST', headers: { ...FORM, 'x-encoding-after': 'UTF-8' }, body: 'b=%C3%A9' }))
        .body,
    );
    expect(after).toMatchObject({ params: { b: ['Ã©'] }, encoding: 'UTF-8' });
  });

  it('refuses an unknown encoding name with an error (a logged 500 from the filter)', async () => {
    const logs: LogRecord[] = [];
    setLogSink((l) => logs.push(l));
    try {
      const r = await request(s, '/', {
        method: 'POST',
        headers: { ...FORM, 'x-encoding-before': 'no-such-charset' },
        body: 'b=1',
      });
      expect(r.status).toBe(500);
    } finally {
      setLogSink(null);
    }
    expect(String(logs[0]?.error)).toBe('RangeError: Unsupported encoding [no-such-charset]');
  });

  it('reads a body only for POST with the form content type', async () => {
    const put = JSON.parse((await request(s, '/?q=1', { method: 'PUT', headers: FORM, body: 'b=1' })).body);
    expect(put).toMatchObject({ params: { q: ['1'] }, bodyBytes: null });
    const text = JSON.parse(
      (await request(s, '/', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'b=1' })).body,
    );
    expect(text).toMatchObject({ params: {}, bodyBytes: null });
    const upper = JSON.parse(
      (
        await request(s, '/', {
          method: 'POST',
          headers: { 'content-type': 'Application/X-WWW-Form-URLEncoded;charset=utf-8' },
          body: 'b=1',
        })
      ).body,
    );
    expect(upper.params).toEqual({ b: ['1'] });
  });

  it('records POST_TOO_LARGE without reading a declared body over maxPostSize', async () => {
    const v = JSON.parse(
      (await request(s, '/?q=1', { method: 'POST', headers: FORM, body: `b=${'x'.repeat(64 * 1024)}` })).body,
    );
    expect(v).toMatchObject({ params: { q: ['1'] }, failure: 'POST_TOO_LARGE', bodyBytes: null });
  });

  it('records POST_TOO_LARGE for a chunked body that grows past maxPostSize', async () => {
    const v = JSON.parse(
      (await request(s, '/', { method: 'POST', headers: FORM, body: `b=${'x'.repeat(70 * 1024)}`, chunked: true }))
        .body,
    );
    expect(v).toMatchObject({ params: {}, failure: 'POST_TOO_LARGE' });
  });

  it('parses a chunked body within the limit', async () => {
    const v = JSON.parse(
      (await request(s, '/', { method: 'POST', headers: FORM, body: 'a=1&b=2', chunked: true })).body,
    );
    expect(v).toMatchObject({ params: { a: ['1'], b: ['2'] }, failure: null });
  });
});

describe('parameter access before parsing', () => {
  it('works synchronously without a form body and throws, asking for parseParameters, with one', async () => {
    const s = await serve(
      {},
      jsonHandler((req) => {
        const r = exchangeOf(req)!.request;
        return { parsed: r.parametersParsed, a: r.getParameter('a') };
      }),
    );
    try {
      expect(JSON.parse((await request(s, '/?a=1')).body)).toEqual({ parsed: false, a: '1' });
      const thrown = JSON.parse((await request(s, '/?a=1', { method: 'POST', headers: FORM, body: 'b=2' })).body);
      expect(thrown.thrown).toMatch(/await request\.parseParameters\(\)/);
    } finally {
      await s.close();
    }
  });

  it('honours the context request-character-encoding and useBodyEncodingForURI', async () => {
    const s = await serve(
      { filters: [parsing], requestCharacterEncoding: 'UTF-8', useBodyEncodingForURI: true },
      jsonHandler(report),
    );
    try {
      const v = JSON.parse((await request(s, '/?q=%C3%A9', { method: 'POST', headers: FORM, body: 'b=%C3%A9' })).body);
      expect(v).toMatchObject({ params: { q: ['é'], b: ['é'] }, encoding: 'UTF-8' });
      const latin = JSON.parse(
        (
          await request(s, '/?q=%E9', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded;charset=ISO-8859-1' },
            body: 'b=%E9',
          })
        ).body,
      );
      expect(latin.params).toEqual({ q: ['é'], b: ['é'] });
    } finally {
      await s.close();
    }
  });
});
