import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/add-default-charset.js';
import { create } from '../../../src/runtime/filters/add-default-charset.js';
import { exchangeOf } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare } from './helpers.js';

/** Downstream sets the content type the way the query says (Tomcat's CharsetServlet modes, plus Node's own ways). */
function contentTypeFor(params: Record<string, unknown>, write: (res: ServerResponse) => void): Promise<string | undefined> {
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
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe('text/plain;charset=ISO-8859-1');
    expect(await contentTypeFor({ encoding: 'dEfAuLt' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe('text/plain;charset=ISO-8859-1');
  });

  it('uses UTF-8 for "system" (Node has no platform charset) and the name as written otherwise', async () => {
    expect(await contentTypeFor({ encoding: 'SyStEm' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe('text/plain;charset=UTF-8');
    expect(await contentTypeFor({ encoding: 'utf-8' }, (res) => res.setHeader('Content-Type', 'text/plain'))).toBe('text/plain;charset=utf-8');
  });

  it('keeps a charset the application set, through setContentType, setCharacterEncoding or the header', async () => {
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain;charset=ISO-8859-2'))).toBe('text/plain;charset=ISO-8859-2');
    expect(await contentTypeFor({}, (res) => {
      const r = exchangeOf(res)!.response;
      r.setContentType('text/plain');
      r.setCharacterEncoding('ISO-8859-3');
    })).toBe('text/plain;charset=ISO-8859-3');
    expect(await contentTypeFor({}, (res) => res.writeHead(200, { 'Content-Type': 'text/html' }))).toBe('text/html;charset=ISO-8859-1');
  });

  it('leaves non-text types, missing content types and text types it cannot recognise textually alone', async () => {
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'application/json'))).toBe('application/json');
    expect(await contentTypeFor({}, () => undefined)).toBeUndefined();
    // Tomcat compares "text/" and "charset=" case-sensitively.
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'Text/Plain'))).toBe('Text/Plain');
    expect(await contentTypeFor({}, (res) => res.setHeader('Content-Type', 'text/plain; Charset=utf-8'))).toBe('text/plain; Charset=utf-8;charset=ISO-8859-1');
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
