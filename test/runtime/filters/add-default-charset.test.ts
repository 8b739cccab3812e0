import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/add-default-charset.js';
import { create } from '../../../src/runtime/filters/add-default-charset.js';
import { exchangeOf } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare } from './helpers.js';

/** Downstream sets the content type the way the query says (Tomcat's CharsetServlet modes, plus Node's own ways). */
function contentTypeFor(
  params: Record<string, unknown>,
  write: (res: ServerResponse) => void,
): Promise<string | undefined> {
  return (async () => {
    const s = await serve({ filters: [declare(spec, create, params)] }, (_req, res) => {
      write(res);
      res.end('OK');
    });
    try {
      return (await request(s, '/')).headers['content-type'];
    } finally {
      await s.close();
    }
  })();
}

describe('AddDefaultCharsetFilter', () => {
  it('adds ;charset=ISO-8859-1 to text/plain by default, and for "default" in any case', async () => {
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe(
      'text/plain;charset=ISO-8859-1',
    );
    expect(await contentTypeFor({ encoding: 'dEfAuLt' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe(
      'text/plain;charset=ISO-8859-1',
    );
  });

  it('uses UTF-8 for "system" (Node has no platform charset) and the name as written otherwise', async () => {
    expect(await contentTypeFor({ encoding: 'SyStEm' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe(
      'text/plain;charset=UTF-8',
    );
    expect(await contentTypeFor({ encoding: 'utf-8' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe(
      'text/plain;charset=utf-8',
    );
  });

  it('keeps a charset the application set, through setContentType, setCharacterEncoding or the header', async () => {
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain;charset=ISO-8859-2'))).toBe(
      'text/plain;charset=ISO-8859-2',
    );
    expect(
      await contentTypeFor({}, (res) => {
        const r = exchangeOf(res)!.response;
        r.setContentType('text/plain');
        r.setCharacterEncoding('ISO-8859-3');
      }),
    ).toBe('text/plain;charset=ISO-8859-3');
    expect(await contentTypeFor({}, (res) => res.writeHead(200, { 'Content-Type': 'text/html' }))).toBe(
      'text/html;charset=ISO-8859-1',
    );
  });

  it('leaves non-text types, missing content types and text types it cannot recognise textually alone', async () => {
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'application/json'))).toBe(
      'application/json',
    );
    expect(await contentTypeFor({}, () => undefined)).toBeUndefined();
    // Tomcat compares "text/" and "charset=" case-sensitively.
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'Text/Plain'))).toBe('Text/Plain');
    // "Charset=" is not "charset=", so the filter appends its own; Response.setContentType then keeps the last
    // charset parameter, whatever the case of its name (observed on 10.1.60 by test/conformance, adc-upper).
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain; Charset=utf-8'))).toBe(
      'text/plain;charset=ISO-8859-1',
    );
    expect(
      await contentTypeFor({ encoding: 'utf-8' }, (res) =>
        exchangeOf(res)!.response.setContentType('text/x-up;CHARSET=ISO-8859-1'),
      ),
    ).toBe('text/x-up;charset=utf-8');
  });

  it("acts when the content type is set, as Tomcat's wrapper does: getContentType() shows the charset at once", async () => {
    let seen: string | null = null;
    expect(
      await contentTypeFor({ encoding: 'UTF-8' }, (res) => {
        const r = exchangeOf(res)!.response;
        r.setContentType('text/plain');
        seen = r.getContentType();
      }),
    ).toBe('text/plain;charset=UTF-8');
    expect(seen).toBe('text/plain;charset=UTF-8');
  });

  it("leaves a content type set before the filter ran (Tomcat's wrapper only sees what runs after it)", async () => {
    const early = {
      name: 'early',
      doFilter: (ex: import('../../../src/runtime/exchange.js').Exchange, next: () => void | Promise<void>) => (
        ex.response.setContentType('text/plain'),
        next()
      ),
    };
    const s = await serve({ filters: [early, declare(spec, create, {})] }, (_req, res) => res.end('OK'));
    try {
      expect((await request(s, '/')).headers['content-type']).toBe('text/plain');
    } finally {
      await s.close();
    }
  });

  it('after setCharacterEncoding, a later text type gets that charset (the wrapper tracks it)', async () => {
    expect(
      await contentTypeFor({}, (res) => {
        const r = exchangeOf(res)!.response;
        r.setCharacterEncoding('UTF-16');
        r.setContentType('text/plain');
      }),
    ).toBe('text/plain;charset=UTF-16');
  });

  it('also applies to error pages and responses that set the type with writeHead only', async () => {
    const s = await serve({ filters: [declare(spec, create, { encoding: 'UTF-8' })] }, (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('missing');
    });
    try {
      expect((await request(s, '/')).headers['content-type']).toBe('text/plain;charset=UTF-8');
    } finally {
      await s.close();
    }
  });
});
