import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/session-initializer.js';
import { create } from '../../../src/runtime/filters/session-initializer.js';
import { request, serve } from '../serve.js';
import { declare, reportWith } from './helpers.js';

describe('SessionInitializerFilter', () => {
  it('creates a session with its cookie before downstream runs, and reuses it on the next request', async () => {
    const s = await serve(
      { contextPath: '/app', filters: [declare(spec, create, {})] },
      reportWith((ex) => ({ id: ex.request.getSession(false)?.id ?? null })),
    );
    try {
      const first = await request(s, '/app/x');
      const id = JSON.parse(first.body).id as string;
      expect(id).toMatch(/^[0-9A-F]{32}$/);
      expect(first.headers['set-cookie']).toEqual([`JSESSIONID=${id}; Path=/app; HttpOnly`]);
      const second = await request(s, '/app/x', { headers: { cookie: `JSESSIONID=${id}` } });
      expect(JSON.parse(second.body).id).toBe(id);
      expect(second.headers['set-cookie']).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});
