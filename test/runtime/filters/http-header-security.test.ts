import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/http-header-security.js';
import { create } from '../../../src/runtime/filters/http-header-security.js';
import { setLogSink, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { asIf, declare } from './helpers.js';

async function headersFor(params: Record<string, unknown>, secure: boolean, handler?: Parameters<typeof serve>[1]) {
  const s = await serve({ filters: [asIf, declare(spec, create, params)] }, handler);
  try {
    const r = await request(s, '/x', { headers: secure ? { 'x-test-scheme': 'https' } : {} });
    return {
      status: r.status,
      hsts: r.headers['strict-transport-security'],
      frame: r.headers['x-frame-options'],
      sniff: r.headers['x-content-type-options'],
      xss: r.headers['x-xss-protection'],
    };
  } finally {
    await s.close();
  }
}

describe('HttpHeaderSecurityFilter', () => {
  it('sends X-Frame-Options DENY and nosniff by default, and no HSTS on an insecure request', async () => {
    expect(await headersFor({}, false)).toEqual({
      status: 200,
      hsts: undefined,
      frame: 'DENY',
      sniff: 'nosniff',
      xss: undefined,
    });
  });

  it('sends Strict-Transport-Security: max-age=0 on a secure request by default', async () => {
    expect((await headersFor({}, true)).hsts).toBe('max-age=0');
  });

  it('builds the HSTS value with includeSubDomains and preload', async () => {
    expect((await headersFor({ hstsMaxAgeSeconds: '63072000', hstsIncludeSubDomains: 'true' }, true)).hsts).toBe(
      'max-age=63072000;includeSubDomains',
    );
    expect(
      (await headersFor({ hstsMaxAgeSeconds: '63072000', hstsIncludeSubDomains: 'true', hstsPreload: 'true' }, true))
        .hsts,
    ).toBe('max-age=63072000;includeSubDomains;preload');
  });

  it('uses max-age=0 for a negative hstsMaxAgeSeconds and nothing when HSTS is disabled', async () => {
    expect((await headersFor({ hstsMaxAgeSeconds: '-1' }, true)).hsts).toBe('max-age=0');
    expect((await headersFor({ hstsEnabled: 'false' }, true)).hsts).toBeUndefined();
  });

  it('sends SAMEORIGIN and ALLOW-FROM <uri> frame options, case-insensitively configured', async () => {
    expect((await headersFor({ antiClickJackingOption: 'sameorigin' }, false)).frame).toBe('SAMEORIGIN');
    expect(
      (await headersFor({ antiClickJackingOption: 'ALLOW-FROM', antiClickJackingUri: 'https://example.com' }, false))
        .frame,
    ).toBe('ALLOW-FROM https://example.com');
  });

  it('sends nothing when every header is disabled, and X-XSS-Protection only when enabled', async () => {
    expect(
      await headersFor(
        { hstsEnabled: 'false', antiClickJackingEnabled: 'false', blockContentTypeSniffingEnabled: 'false' },
        true,
      ),
    ).toEqual({ status: 200, hsts: undefined, frame: undefined, sniff: undefined, xss: undefined });
    expect((await headersFor({ xssProtectionEnabled: 'true' }, false)).xss).toBe('1; mode=block');
  });

  it('replaces headers an earlier filter set', async () => {
    const s = await serve({
      filters: [
        { name: 'Early', doFilter: (ex, next) => (ex.response.setHeader('X-Frame-Options', 'ALLOWALL'), next()) },
        declare(spec, create, {}),
      ],
    });
    try {
      const r = await request(s, '/x');
      expect(r.headers['x-frame-options']).toBe('DENY');
    } finally {
      await s.close();
    }
  });

  it('fails the request when the response is already committed on entry, as Tomcat does (no downstream, the error logged)', async () => {
    const logs: LogRecord[] = [];
    setLogSink((r) => logs.push(r));
    let downstream = 0;
    const s = await serve(
      {
        filters: [
          { name: 'Committer', doFilter: (ex, next) => (ex.res.writeHead(200), next()) },
          declare(spec, create, {}),
        ],
      },
      (_req, res) => {
        downstream++;
        res.end('late');
      },
    );
    try {
      // The headers are out, so the runtime can only cut the connection.
      await expect(request(s, '/x')).rejects.toThrow();
      expect(downstream).toBe(0);
      expect(
        logs.some(
          (l) => l.level === 'SEVERE' && l.error instanceof Error && l.error.message.includes('already committed'),
        ),
      ).toBe(true);
    } finally {
      setLogSink(null);
      await s.close();
    }
  });
});
