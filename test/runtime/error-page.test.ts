import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createErrorReportRenderer,
  defaultErrorPage,
  endWithReport,
  escapeHtmlContent,
  reportLength,
  SERVER_INFO,
} from '../../src/runtime/error-page.js';

const CSS =
  'body {font-family:Tahoma,Arial,sans-serif;} h1, h2, h3, b {color:white;background-color:#525D76;} h1 {font-size:22px;} h2 {font-size:16px;} ' +
  'h3 {font-size:14px;} p {font-size:12px;} a {color:black;} .line {height:1px;background-color:#525D76;border:none;}';
/** Tomcat 10.1.60's answer to GET /nosuch.html on a context without the file (recorded; the footer replaced). */
const TOMCAT_404 =
  `<!doctype html><html lang="en"><head><title>HTTP Status 404 – Not Found</title><style type="text/css">${CSS}</style></head><body>` +
  '<h1>HTTP Status 404 – Not Found</h1><hr class="line" /><p><b>Type</b> Status Report</p><p><b>Message</b> The requested resource [&#47;app&#47;nosuch.html] is not available</p>' +
  '<p><b>Description</b> The origin server did not find a current representation for the target resource or is not willing to disclose that one exists.</p>' +
  '<hr class="line" /><h3>Apache Tomcat/10.1.60 (Debian)</h3></body></html>';

describe("Tomcat's ErrorReportValve page", () => {
  const tomcat = createErrorReportRenderer({ serverInfo: 'Apache Tomcat/10.1.60 (Debian)' });

  it('is byte for byte the page Tomcat sends, with its content type and language', () => {
    const page = tomcat(404, 'The requested resource [/app/nosuch.html] is not available');
    expect(page).toEqual({
      contentType: 'text/html;charset=utf-8',
      body: TOMCAT_404,
      headers: { 'content-language': 'en' },
      byteLength: Buffer.byteLength(TOMCAT_404),
      latin1: Buffer.from(TOMCAT_404).toString('latin1'),
    });
  });

  it('keeps the UTF-8 bytes as a Latin-1 string, and a response ended with it carries those bytes', async () => {
    // The title's en dash and a message outside Latin-1: the body is a two-byte string, the copy one byte per byte.
    const page = tomcat(404, 'Не найдено [/app/ü]')!;
    expect(Buffer.from(page.latin1!, 'latin1')).toEqual(Buffer.from(page.body, 'utf8'));
    expect(page.latin1!.length).toBe(page.byteLength);
    const server = createServer((req, res) => {
      res.setHeader('Content-Length', reportLength(page));
      endWithReport(res, page);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const got = await fetch(`http://127.0.0.1:${port}/`);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from(page.body, 'utf8'));
      expect(got.headers.get('content-length')).toBe(String(Buffer.byteLength(page.body)));
      // A renderer of one's own without the copy: the body is sent as UTF-8 text.
      expect(reportLength({ contentType: 'text/plain', body: 'é' })).toBe(2);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('keeps each rendered report (with its length in bytes) per status and message, the last 256 of them, and long messages not at all', () => {
    const r = createErrorReportRenderer();
    const first = r(404, 'gone');
    expect(r(404, 'gone')).toBe(first);
    expect(r(404, null)).not.toBe(first);
    expect(r(404, null)).toBe(r(404, null));
    expect(r(418, null)).toBeNull();
    for (let i = 0; i < 256; i++) r(500, `m${i}`);
    const again = r(404, 'gone');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    const long = 'x'.repeat(513);
    expect(r(500, long)).not.toBe(r(500, long));
    expect(r(500, long)!.body).toContain(long);
  });

  it('names tollgate in the footer unless told otherwise', () => {
    expect(defaultErrorPage(404, null)!.body).toMatch(new RegExp(`<h3>${SERVER_INFO}</h3></body></html>$`));
  });

  it('leaves the Message line out when there is no message, as for a request no context takes', () => {
    const body = tomcat(404, null)!.body;
    expect(body).not.toContain('<b>Message</b>');
    expect(body).toContain('<p><b>Type</b> Status Report</p><p><b>Description</b>');
    expect(tomcat(404, '')!.body).toBe(body);
  });

  it('showReport=false keeps only the title and the footer', () => {
    const page = createErrorReportRenderer({ showReport: false, serverInfo: 'X' })(403, 'secret detail')!;
    expect(page.body).toBe(
      `<!doctype html><html lang="en"><head><title>HTTP Status 403 – Forbidden</title><style type="text/css">${CSS}</style></head><body><h1>HTTP Status 403 – Forbidden</h1><h3>X</h3></body></html>`,
    );
  });

  it('showServerInfo=false drops the footer only', () => {
    const body = createErrorReportRenderer({ showServerInfo: false })(401, null)!.body;
    expect(body).toMatch(/<hr class="line" \/><\/body><\/html>$/);
    expect(body).not.toContain('<h3>');
  });

  it('a status without a reason phrase gets "Unknown Reason" when there is a message, and no report without one', () => {
    expect(tomcat(499, 'odd')!.body).toContain('<title>HTTP Status 499 – Unknown Reason</title>');
    expect(tomcat(499, 'odd')!.body).toContain('<p><b>Description</b> No description available</p>');
    expect(tomcat(499, null)).toBeNull();
  });

  it('writes no report below 400', () => {
    expect(tomcat(302, 'x')).toBeNull();
  });

  it("escapes the message as Escape.htmlElementContent does (/ and ' included)", () => {
    expect(escapeHtmlContent(`<a href="/x?a=1&b='2'">`)).toBe(
      '&lt;a href=&quot;&#47;x?a=1&amp;b=&#39;2&#39;&quot;&gt;',
    );
    expect(escapeHtmlContent('plain')).toBe('plain');
  });

  it('refuses options of the wrong type', () => {
    expect(() => createErrorReportRenderer({ showReport: 'no' as unknown as boolean })).toThrow(TypeError);
  });
});

describe('where the report differs from Tomcat on purpose (docs/divergences.md, "Error pages")', () => {
  it('is English whatever Accept-Language asks (Tomcat answers es, fr, ja, ru from its i18n jars)', async () => {
    const { serve, request } = await import('./serve.js');
    const { exchangeOf } = await import('../../src/runtime/index.js');
    const s = await serve({}, (req) => void exchangeOf(req)!.response.sendError(404));
    try {
      const r = await request(s, '/x', { headers: { 'accept-language': 'fr' } });
      expect(r.headers['content-language']).toBe('en');
      expect(r.body).toContain('<title>HTTP Status 404 – Not Found</title>');
    } finally {
      await s.close();
    }
  });
  it('a thrown error gets a Status Report, never an Exception Report with its stack trace', async () => {
    const { serve, request } = await import('./serve.js');
    const s = await serve({}, () => {
      throw new Error('secret detail');
    });
    try {
      const r = await request(s, '/x');
      expect(r.status).toBe(500);
      expect(r.body).toContain('<p><b>Type</b> Status Report</p>');
      expect(r.body).not.toContain('secret detail');
      expect(r.body).not.toContain('<pre>');
    } finally {
      await s.close();
    }
  });
});
