/**
 * The default servlet's resource cache against Tomcat 10.1's (StandardRoot's Cache): within
 * `<Resources cacheTtl>` a changed file is served as it was and a new file stays missing; once the
 * TTL has passed both servers see the change; with cachingAllowed="false" every request sees it.
 * Each side serves its own copy of fixtures/static-cache, changed in the same way at the same moment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, exchange, sleep, startPair, type Pair } from './harness.js';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair(join(FIXTURES, 'static-cache'));
});
afterAll(async () => {
  await pair?.stop();
});

const AREA = 'static resource cache';
const HEADERS = ['content-length', 'content-type'];

/** One GET to both sides, whose answers must agree. */
async function get(description: string, path: string, kind: 'file' | 'report' = 'file') {
  // An error report names the server in its footer, so its length differs: compared without the footer.
  const c = await exchange(
    pair,
    AREA,
    description,
    { path },
    kind === 'file' ? { headers: HEADERS } : { headers: ['content-type'], body: 'error-title' },
  );
  expect(c.views.tollgate).toEqual(c.views.tomcat);
  return c.views.tomcat;
}

function write(app: string, file: string, text: string): void {
  for (const side of [pair.tomcat, pair.tollgate]) writeFileSync(join(side.base, 'webapps', app, file), text);
}

describe("the static resource cache behaves as Tomcat's", () => {
  it('serves a changed file as it was within cacheTtl and the new one after it, and caches a missing path likewise', async () => {
    const first = await get('GET /ttl/a.txt (now cached)', '/ttl/a.txt');
    expect(first.body).toBe('first');
    await get('GET /ttl/late.txt before it exists (a missing entry is cached too)', '/ttl/late.txt', 'report');
    write('ttl', 'a.txt', 'second, longer');
    write('ttl', 'late.txt', 'here');
    const stale = await get(
      'GET /ttl/a.txt right after it changed, within cacheTtl="2000": the cached bytes',
      '/ttl/a.txt',
    );
    expect(stale.body).toBe('first');
    const stillMissing = await get(
      'GET /ttl/late.txt right after it was created: still 404',
      '/ttl/late.txt',
      'report',
    );
    expect(stillMissing.status).toBe(404);
    await sleep(2600);
    const fresh = await get('GET /ttl/a.txt after the TTL: the new file', '/ttl/a.txt');
    expect(fresh.body).toBe('second, longer');
    const found = await get('GET /ttl/late.txt after the TTL: found', '/ttl/late.txt');
    expect(found.status).toBe(200);
  });

  it('with cachingAllowed="false" serves every change at once', async () => {
    await get('GET /nocache/a.txt', '/nocache/a.txt');
    write('nocache', 'a.txt', 'changed');
    const now = await get('GET /nocache/a.txt right after it changed: the new bytes', '/nocache/a.txt');
    expect(now.body).toBe('changed');
  });
});
