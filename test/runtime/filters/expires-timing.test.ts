/**
 * When ExpiresFilter decides (docs/divergences.md, "ExpiresFilter decides when
 * the headers go out"): at the first write, which in Node sends the headers,
 * from the content type and headers as they are then.
 */
import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/expires.js';
import { create } from '../../../src/runtime/filters/expires.js';
import { exchangeOf } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare } from './helpers.js';

const PARAMS = {
  'ExpiresByType text/css': 'access plus 1 hour',
  'ExpiresByType image/png': 'access plus 2 hours',
  ExpiresDefault: 'access plus 1 minute',
};

describe('ExpiresFilter timing', () => {
  it('the rule is chosen by the content type at the first write; a type set after it changes nothing', async () => {
    const s = await serve({ filters: [declare(spec, create, PARAMS)] }, (req, res) => {
      const r = exchangeOf(req)!.response;
      r.setContentType('text/css');
      res.write('a{}');
      r.setContentType('image/png');
      r.setHeader('Cache-Control', 'no-store');
      res.end();
    });
    try {
      const r = await request(s, '/x.css');
      expect(r.headers['content-type']).toBe('text/css');
      expect(r.headers['cache-control']).toBe('max-age=3600');
    } finally {
      await s.close();
    }
  });
  it('headers set before the first write are seen: a Cache-Control max-age of the handler wins', async () => {
    const s = await serve({ filters: [declare(spec, create, PARAMS)] }, (req, res) => {
      const r = exchangeOf(req)!.response;
      r.setContentType('text/css');
      r.setHeader('Cache-Control', 'max-age=5');
      res.end('a{}');
    });
    try {
      expect((await request(s, '/x.css')).headers['cache-control']).toBe('max-age=5');
    } finally {
      await s.close();
    }
  });
});
