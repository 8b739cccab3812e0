import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/webdav-fix.js';
import { create } from '../../../src/runtime/filters/webdav-fix.js';
import { setLogSink, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare } from './helpers.js';

describe('WebdavFixFilter', () => {
  it('redirects Mini-Redirector clients to scheme://host:port/uri, the port always written (observed on Tomcat 10.1)', async () => {
    const s = await serve({ contextPath: '/dav', filters: [declare(spec, create, {})] });
    try {
      for (const ua of [
        'Microsoft-WebDAV-MiniRedir/6.1.7601',
        'Microsoft-WebDAV-MiniRedir/5.1.2600',
        'Microsoft-WebDAV-MiniRedir',
      ]) {
        const r = await request(s, '/dav/docs/a%20b.txt?q=1', { headers: { 'user-agent': ua, host: 'files.example' } });
        expect(r.status, ua).toBe(302);
        expect(r.headers['location']).toBe('http://files.example:80/dav/docs/a%20b.txt');
      }
    } finally {
      await s.close();
    }
  });

  it('lets other clients through, including ones that only mention the Mini-Redirector later', async () => {
    const s = await serve({ filters: [declare(spec, create, {})] });
    try {
      const cases: Record<string, string>[] = [
        {},
        { 'user-agent': 'curl/8' },
        { 'user-agent': 'Mozilla Microsoft-WebDAV-MiniRedir/6.1' },
      ];
      for (const headers of cases) {
        expect((await request(s, '/x', { headers })).status).toBe(200);
      }
    } finally {
      await s.close();
    }
  });

  it('lets the XP x64 SP2 client through, logging that it will not work', async () => {
    const logs: LogRecord[] = [];
    setLogSink((r) => logs.push(r));
    const s = await serve({ contextPath: '/dav', filters: [declare(spec, create, {})] });
    try {
      expect(
        (await request(s, '/dav/x', { headers: { 'user-agent': 'Microsoft-WebDAV-MiniRedir/5.2.3790' } })).status,
      ).toBe(200);
    } finally {
      setLogSink(null);
      await s.close();
    }
    const messages = logs
      .filter((l) => l.logger === 'org.apache.catalina.filters.WebdavFixFilter')
      .map((l) => l.message);
    expect(messages).toEqual([
      'WebdavFixFilter: the XP-x64-SP2 client will only work with the root context',
      'WebdavFixFilter: the XP-x64-SP2 client is known not to work with WebDAV Servlet',
    ]);
  });
});
