/**
 * The default servlet's resource cache, with Tomcat's semantics: what was
 * learnt about a path is reused for cacheTtl (5 s by default), small files
 * are served from memory, large ones are streamed from disk, and a TTL of 0
 * (cachingAllowed="false") sees every change at once.
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStaticHandler, type StaticOptions } from '../../src/server/static.js';
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
});
