import { afterEach, describe, expect, it, vi } from 'vitest';
import { spec } from '../../../src/filters/request-dumper.js';
import { create } from '../../../src/runtime/filters/request-dumper.js';
import { exchangeOf, setLogLevel, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { captureLogs, declare } from './helpers.js';

const LOGGER = 'org.apache.catalina.filters.RequestDumperFilter';
let logs: { records: LogRecord[]; stop: () => void } | null = null;
afterEach(() => logs?.stop());

function dumped(): string[] {
  return logs!.records.filter((r) => r.logger === LOGGER && r.level === 'INFO').map((r) => r.message);
}

describe('RequestDumperFilter', () => {
  it('logs the request before the chain and the response after it, at INFO, each line prefixed per request', async () => {
    logs = captureLogs(LOGGER, 'INFO');
    const s = await serve({ contextPath: '/app', filters: [declare(spec, create, {}, 'dump')] }, (_req, res) => {
      res.setHeader('X-Out', 'yes');
      res.setHeader('Content-Type', 'text/plain;charset=UTF-8');
      res.statusCode = 201;
      res.end('ok');
    });
    try {
      await request(s, '/app/a/b?x=1&x=2&y=', {
        headers: { cookie: 'JSESSIONID=ABC; k="v"', 'accept-language': 'fr-ch;q=0.4, en-GB, de;q=0.9', 'x-in': 'in' },
      });
    } finally {
      await s.close();
    }
    const lines = dumped();
    expect(lines.every((l) => l.startsWith('dump-1 '))).toBe(true);
    const text = lines.map((l) => l.slice('dump-1 '.length));
    expect(text[0]).toMatch(/^START TIME {8}=\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d$/);
    expect(text).toEqual(
      expect.arrayContaining([
        '        requestURI=/app/a/b',
        '          authType=null',
        ' characterEncoding=null',
        '     contentLength=-1',
        '       contentType=null',
        '       contextPath=/app',
        '            cookie=JSESSIONID=ABC',
        '            cookie=k=v',
        '            header=x-in=in',
        '            locale=en_GB',
        '            method=GET',
        '         parameter=x=1, 2',
        '         parameter=y=',
        '          pathInfo=null',
        '          protocol=HTTP/1.1',
        '       queryString=x=1&x=2&y=',
        '        remoteAddr=127.0.0.1',
        'requestedSessionId=ABC',
        '            scheme=http',
        `        serverPort=${s.port}`,
        '       servletPath=/a/b',
        '          isSecure=false',
        '       contentType=text/plain;charset=UTF-8',
        '            header=x-out=yes',
        '            status=201',
        `${'='.repeat(18)}=${'='.repeat(44)}`,
      ]),
    );
    // Request part, then the separator, then the response part.
    const separator = text.indexOf('------------------=--------------------------------------------');
    expect(separator).toBeGreaterThan(text.indexOf('          isSecure=false') - 1);
    expect(text.lastIndexOf('------------------=--------------------------------------------')).toBeLessThan(
      text.indexOf('            status=201'),
    );
    expect(text[text.length - 2]).toMatch(/^END TIME {10}=/);
  });

  it('dumps form parameters (reading the body) and downstream still sees them', async () => {
    logs = captureLogs(LOGGER, 'INFO');
    const s = await serve({ filters: [declare(spec, create, {})] }, (req, res) => {
      res.end(exchangeOf(req)!.request.getParameter('a') ?? 'none');
    });
    try {
      const r = await request(s, '/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=b%20c',
      });
      expect(r.body).toBe('b c');
    } finally {
      await s.close();
    }
    expect(dumped().some((l) => l.endsWith('         parameter=a=b c'))).toBe(true);
  });

  it('dumps the response of an asynchronous handler once it is complete', async () => {
    logs = captureLogs(LOGGER, 'INFO');
    const s = await serve({ filters: [declare(spec, create, {})] }, (_req, res) => {
      setTimeout(() => {
        res.statusCode = 202;
        res.end();
      }, 10);
    });
    try {
      await request(s, '/');
      // The dump is written on the server's 'close' event, which may come just after the client has the response.
      await vi.waitFor(() => expect(dumped().some((l) => l.endsWith('            status=202'))).toBe(true), {
        timeout: 120_000,
      });
    } finally {
      await s.close();
    }
  });

  it('logs nothing, and does not read the body, when INFO is off for its logger', async () => {
    logs = captureLogs(LOGGER, 'INFO');
    setLogLevel(LOGGER, 'WARNING');
    const s = await serve({ filters: [declare(spec, create, {})] });
    try {
      await request(s, '/?x=1');
    } finally {
      await s.close();
    }
    expect(dumped()).toEqual([]);
  });
});
