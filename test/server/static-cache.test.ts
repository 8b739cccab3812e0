/**
 * The default servlet's resource cache, with Tomcat's semantics: what was
 * learnt about a path is reused for cacheTtl (5 s by default), small files
 * are served from memory, large ones are streamed from disk, and a TTL of 0
 * (cachingAllowed="false") sees every change at once.
 */
import { mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMimeLookup } from '../../src/server/mime.js';
import { createResourceCache } from '../../src/server/static-cache.js';
import { createStaticHandler, type StaticOptions } from '../../src/server/static.js';
import { createContextRuntime } from '../../src/runtime/context.js';
import { ask, listen, type Running } from './http.js';

let dir: string;
let running: Running | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tg-static-cache-'));
});
afterEach(async () => {
  await running?.close();
  running = null;
  rmSync(dir, { recursive: true, force: true });
});

async function serve(options: Partial<StaticOptions> = {}): Promise<number> {
  const handler = createStaticHandler({ docBase: dir, ...options });
  running = await listen((req, res) => void handler(req, res));
  return running.port;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('static resource cache', () => {
  it('answers a cached file and a cached absence through a context before the handler returns, as the uncached path answers them', async () => {
    writeFileSync(join(dir, 'a.css'), 'body { margin: 0 }');
    const endedOnReturn: boolean[] = [];
    const through = (options: Partial<StaticOptions>) => {
      const chain = createContextRuntime({ contextPath: '' });
      const handler = createStaticHandler({ docBase: dir, ...options });
      return listen((req, res) =>
        chain(req, res, () => {
          void handler(req, res);
          endedOnReturn.push(res.writableEnded);
        }),
      );
    };
    running = await through({});
    // The general path on every request: nothing is cached.
    const uncached = await through({ cachingAllowed: false });
    const without = ({ date: _date, ...rest }: Record<string, unknown>) => rest;
    try {
      for (const [path, status] of [
        ['/a.css', 200],
        ['/missing.css', 404],
      ] as const) {
        for (const method of ['GET', 'HEAD']) {
          endedOnReturn.length = 0;
          await ask(running.port, path, { method });
          const cached = await ask(running.port, path, { method });
          // The first request of a path looks on the disk; a repeat is answered from the cache at once.
          expect(endedOnReturn).toEqual(method === 'GET' ? [false, true] : [true, true]);
          const general = await ask(uncached.port, path, { method });
          expect(cached.status).toBe(status);
          expect(general.status).toBe(status);
          expect(without(cached.headers)).toEqual(without(general.headers));
          expect(cached.headerOrder).toEqual(general.headerOrder);
          expect(cached.body.equals(general.body)).toBe(true);
        }
      }
    } finally {
      await uncached.close();
    }
  });

  it('serves a changed or deleted file as it was until the entry expires, as Tomcat does within cacheTtl', async () => {
    writeFileSync(join(dir, 'a.txt'), 'first');
    const port = await serve({ cacheTtlMs: 60_000 });
    expect((await ask(port, '/a.txt')).text).toBe('first');
    writeFileSync(join(dir, 'a.txt'), 'second, longer');
    const stale = await ask(port, '/a.txt');
    expect(stale.text).toBe('first');
    expect(stale.headers['content-length']).toBe('5');
    unlinkSync(join(dir, 'a.txt'));
    expect((await ask(port, '/a.txt')).status).toBe(200);
  });

  it('looks again once the entry has expired', async () => {
    writeFileSync(join(dir, 'a.txt'), 'first');
    const port = await serve({ cacheTtlMs: 30 });
    expect((await ask(port, '/a.txt')).text).toBe('first');
    writeFileSync(join(dir, 'a.txt'), 'second');
    await wait(60);
    expect((await ask(port, '/a.txt')).text).toBe('second');
    unlinkSync(join(dir, 'a.txt'));
    await wait(60);
    expect((await ask(port, '/a.txt')).status).toBe(404);
  });

  it('caches a missing path too, and sees it appear after expiry', async () => {
    const port = await serve({ cacheTtlMs: 30 });
    expect((await ask(port, '/late.txt')).status).toBe(404);
    writeFileSync(join(dir, 'late.txt'), 'here');
    await wait(60);
    expect((await ask(port, '/late.txt')).text).toBe('here');
  });

  it('with a TTL of 0 sees every change at once', async () => {
    writeFileSync(join(dir, 'a.txt'), 'first');
    const port = await serve({ cacheTtlMs: 0 });
    expect((await ask(port, '/a.txt')).text).toBe('first');
    writeFileSync(join(dir, 'a.txt'), 'second');
    expect((await ask(port, '/a.txt')).text).toBe('second');
  });

  it('streams a file larger than the object limit from disk, ranges included', async () => {
    const big = Buffer.alloc(4096, 'x');
    big.write('HEAD', 0);
    big.write('TAIL', 4092);
    writeFileSync(join(dir, 'big.bin'), big);
    const port = await serve({ cacheObjectMaxBytes: 1024 });
    const whole = await ask(port, '/big.bin');
    expect(whole.body.equals(big)).toBe(true);
    const range = await ask(port, '/big.bin', { headers: { range: 'bytes=4092-' } });
    expect(range.status).toBe(206);
    expect(range.text).toBe('TAIL');
  });

  it('serves ranges and multipart ranges of a cached file byte for byte', async () => {
    writeFileSync(join(dir, 'r.txt'), '0123456789');
    const port = await serve();
    await ask(port, '/r.txt');
    const one = await ask(port, '/r.txt', { headers: { range: 'bytes=2-4' } });
    expect(one.status).toBe(206);
    expect(one.text).toBe('234');
    const multi = await ask(port, '/r.txt', { headers: { range: 'bytes=0-0,8-9' } });
    expect(multi.status).toBe(206);
    expect(multi.text).toContain('\r\n\r\n0\r\n');
    expect(multi.text).toContain('\r\n\r\n89\r\n');
    expect(Number(multi.headers['content-length'])).toBe(multi.body.length);
  });

  it('keeps within its byte budget: files beyond it are still served correctly', async () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.txt`), String(i).repeat(100));
    const port = await serve({ cacheMaxBytes: 250 });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) expect((await ask(port, `/f${i}.txt`)).text).toBe(String(i).repeat(100));
    }
  });

  it('after the TTL keeps an entry whose length and modification time are unchanged, bytes and all, as CachedResource.validateResource does', async () => {
    writeFileSync(join(dir, 'same.txt'), 'aaaa');
    // Whole seconds: a fractional time set through utimes can come back a millisecond off.
    const mtime = 1_700_000_000;
    utimesSync(join(dir, 'same.txt'), mtime, mtime);
    const port = await serve({ cacheTtlMs: 30 });
    expect((await ask(port, '/same.txt')).text).toBe('aaaa');
    // Same length, same modification time: Tomcat cannot tell the file changed and keeps serving what it cached.
    writeFileSync(join(dir, 'same.txt'), 'bbbb');
    utimesSync(join(dir, 'same.txt'), mtime, mtime);
    await wait(60);
    expect((await ask(port, '/same.txt')).text).toBe('aaaa');
    // A new modification time replaces the entry.
    utimesSync(join(dir, 'same.txt'), mtime + 5, mtime + 5);
    await wait(60);
    expect((await ask(port, '/same.txt')).text).toBe('bbbb');
  });

  it('answers a whole file with the precomputed validators in the order Tomcat sends them', async () => {
    writeFileSync(join(dir, 'v.css'), 'body{}');
    const { mtimeMs } = statSync(join(dir, 'v.css'));
    const port = await serve();
    for (let i = 0; i < 2; i++) {
      const r = await ask(port, '/v.css');
      expect(r.headers.etag).toBe(`W/"6-${Math.floor(mtimeMs)}"`);
      expect(r.headers['last-modified']).toBe(new Date(Math.floor(mtimeMs)).toUTCString());
      expect(r.headerOrder.filter((h) => !['date', 'connection', 'keep-alive'].includes(h))).toEqual([
        'accept-ranges',
        'etag',
        'last-modified',
        'content-type',
        'content-length',
      ]);
      expect(r.headers['content-type']).toBe('text/css');
    }
    const again = await ask(port, '/v.css', { headers: { 'if-none-match': `W/"6-${Math.floor(mtimeMs)}"` } });
    expect(again.status).toBe(304);
  });

  it('with cachingAllowed false reads the file system on every request', async () => {
    writeFileSync(join(dir, 'a.txt'), 'first');
    const port = await serve({ cachingAllowed: false, cacheTtlMs: 60_000 });
    expect((await ask(port, '/a.txt')).text).toBe('first');
    writeFileSync(join(dir, 'a.txt'), 'second');
    expect((await ask(port, '/a.txt')).text).toBe('second');
  });
});

describe("resource cache accounting (Tomcat's Cache)", () => {
  const mime = createMimeLookup();

  it('costs an entry 500 bytes, two per path character and the length of a file within the object limit', async () => {
    writeFileSync(join(dir, 'small.txt'), 'x'.repeat(100));
    writeFileSync(join(dir, 'large.txt'), 'x'.repeat(5000));
    const cache = createResourceCache({
      docBase: dir,
      mime,
      allowLinking: false,
      cachingAllowed: true,
      ttlMs: 60_000,
      maxBytes: 1024 * 1024,
      objectMaxBytes: 1000,
    });
    await cache.get('/small.txt');
    expect(cache.size).toBe(500 + 2 * '/small.txt'.length + 100);
    await cache.get('/large.txt');
    expect(cache.size).toBe(500 + 2 * '/small.txt'.length + 100 + 500 + 2 * '/large.txt'.length);
    await cache.get('/nothing-here');
    expect(cache.entries).toBe(3);
  });

  it('never holds more than cacheMaxSize: probing many missing paths within the TTL drops the new entries, not the checked ones', async () => {
    const cache = createResourceCache({
      docBase: dir,
      mime,
      allowLinking: false,
      cachingAllowed: true,
      ttlMs: 60_000,
      maxBytes: 5000,
      objectMaxBytes: 250,
    });
    for (let i = 0; i < 200; i++) expect((await cache.get(`/probe-${i}`)).kind).toBe('missing');
    expect(cache.size).toBeLessThanOrEqual(5000);
    expect(cache.entries).toBe(Math.floor(5000 / (500 + 2 * '/probe-0'.length)));
  });

  it('evicts entries whose TTL has passed to make room, down to 95% of the budget', async () => {
    const cache = createResourceCache({
      docBase: dir,
      mime,
      allowLinking: false,
      cachingAllowed: true,
      ttlMs: 20,
      maxBytes: 5000,
      objectMaxBytes: 250,
    });
    for (let i = 0; i < 9; i++) await cache.get(`/old-${i}`);
    expect(cache.entries).toBe(9);
    await wait(40);
    await cache.get('/a-longer-new-path');
    // One expired entry went (9 x 514 + 534 is over 5000; 8 x 514 + 534 is within 95% of it) and the new one stayed.
    expect(cache.size).toBe(8 * (500 + 2 * '/old-0'.length) + 500 + 2 * '/a-longer-new-path'.length);
    expect(cache.size).toBeLessThanOrEqual(5000 * 0.95);
    expect(cache.entries).toBe(9);
  });

  it('caps the object limit at cacheMaxSize / 20, as Tomcat does at start', async () => {
    writeFileSync(join(dir, 'f.txt'), 'x'.repeat(300));
    const cache = createResourceCache({
      docBase: dir,
      mime,
      allowLinking: false,
      cachingAllowed: true,
      ttlMs: 60_000,
      maxBytes: 4000,
      objectMaxBytes: 512 * 1024,
    });
    const f = await cache.get('/f.txt');
    expect(f.kind === 'file' && f.keepBytes).toBe(false);
    expect(cache.size).toBe(500 + 2 * '/f.txt'.length);
  });
});
