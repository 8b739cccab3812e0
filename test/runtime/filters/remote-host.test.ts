import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/remote-host.js';
import { create } from '../../../src/runtime/filters/remote-host.js';
import type { RuntimeFilter } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare } from './helpers.js';

const setHost: RuntimeFilter = {
  name: 'SetHost',
  doFilter(ex, next) {
    const h = ex.request.getHeader('x-test-remote-host');
    if (h !== null) ex.request.remoteHost = h;
    return next();
  },
};

describe('RemoteHostFilter', () => {
  it('without lookups sees the address as the host name, so a name pattern does not match the loopback client', async () => {
    const s = await serve({ filters: [declare(spec, create, { allow: 'localhost' })] });
    try {
      expect((await request(s, '/x')).status).toBe(403);
    } finally {
      await s.close();
    }
    const t = await serve({ filters: [declare(spec, create, { allow: '127\\.0\\.0\\.1' })] });
    try {
      expect((await request(t, '/x')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('matches the whole host name a filter in front set, deny before allow, with denyStatus', async () => {
    const s = await serve({
      filters: [
        setHost,
        declare(spec, create, { allow: '.*\\.example\\.com', deny: 'bad\\.example\\.com', denyStatus: '404' }),
      ],
    });
    try {
      const status = async (host: string) =>
        (await request(s, '/x', { headers: { 'x-test-remote-host': host } })).status;
      expect(await status('www.example.com')).toBe(200);
      expect(await status('bad.example.com')).toBe(404);
      expect(await status('www.example.com.evil.org')).toBe(404);
    } finally {
      await s.close();
    }
  });
});
