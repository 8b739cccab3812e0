/**
 * Conditional requests with HTTP dates Tomcat 10.1 cannot read or reads unusually (issue 23),
 * against the static servlet of fixtures/filters (ROOT/index.html). Both servers run with
 * TZ=America/New_York, where reading asctime in local time once gave a 304 for a file changed
 * after the date.
 *
 * What Tomcat 10.1 was observed to do, and every step holds tollgate to: an If-Unmodified-Since
 * or If-Modified-Since it cannot parse is ignored (200, where Date.parse read "1" as 2001 and
 * answered 412); asctime is GMT whatever the machine's zone (one hour before Last-Modified: 200;
 * at it: 304); RFC 850 is read, and text after a complete date is ignored.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../src/protocol/http-date.js';
import { FIXTURES, exchange, exchangeEach, modeOf, startPair, type Pair, type Request, type Side } from './harness.js';

process.env.TZ = 'America/New_York';

let pair: Pair;
const lastModified = new Map<string, number>();
beforeAll(async () => {
  pair = await startPair(join(FIXTURES, 'filters'));
  // Each side serves its own copy of the fixture, so each has its own Last-Modified.
  for (const side of [pair.tomcat, pair.tollgate]) {
    const res = await fetch(`http://127.0.0.1:${side.port}/index.html`);
    await res.arrayBuffer();
    lastModified.set(side.name, Date.parse(res.headers.get('last-modified')!));
  }
});
afterAll(async () => {
  await pair?.stop();
});

const AREA = 'conditional HTTP dates';

/** asctime, as C's asctime() writes it (day padded with a space), in GMT. */
function asctime(ms: number): string {
  const d = new Date(ms);
  const [wd, mon] = [d.toUTCString().slice(0, 3), d.toUTCString().slice(8, 11)];
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${wd} ${mon} ${String(d.getUTCDate()).padStart(2, ' ')} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** RFC 850: full weekday, two-digit year. */
function rfc850(ms: number): string {
  const d = new Date(ms);
  const weekday = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][d.getUTCDay()]!;
  const s = d.toUTCString();
  return `${weekday}, ${s.slice(5, 7)}-${s.slice(8, 11)}-${s.slice(14, 16)} ${s.slice(17, 25)} GMT`;
}

async function same(description: string, build: (side: Side) => Request, tomcatStatus: number): Promise<void> {
  // A 412 is the container's error report: compared by title and message (docs/divergences.md, "Error pages").
  const c = await exchangeEach(pair, AREA, description, build, {
    headers: [],
    body: modeOf('/index.html', tomcatStatus),
  });
  expect(c.tomcat.status, description).toBe(tomcatStatus);
  expect(c.tollgate.status, description).toBe(c.tomcat.status);
  expect(c.views.tollgate, description).toEqual(c.views.tomcat);
}

describe('a date Tomcat cannot parse is no precondition', () => {
  it.each([
    ['if-unmodified-since', '1'],
    ['if-unmodified-since', '2000-01-01'],
    ['if-unmodified-since', 'Sat, 01 Jan 2000 00:00:00 EST'.replace('EST', 'Z')],
    ['if-modified-since', '1'],
    ['if-modified-since', 'tomorrow'],
  ])('%s: %s -> 200, the file', async (name, value) => {
    expect(parseHttpDate(value)).toBeNull();
    const c = await exchange(
      pair,
      AREA,
      `${name}: ${value}`,
      { path: '/index.html', headers: { [name]: value } },
      { headers: [] },
    );
    expect(c.tomcat.status).toBe(200);
    expect(c.views.tollgate).toEqual(c.views.tomcat);
  });

  it('a readable If-Unmodified-Since before the change is still a 412', async () => {
    const c = await exchange(
      pair,
      AREA,
      'if-unmodified-since: 2000 -> 412',
      { path: '/index.html', headers: { 'if-unmodified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' } },
      { headers: [], body: 'error-title' },
    );
    expect(c.tomcat.status).toBe(412);
    expect(c.views.tollgate).toEqual(c.views.tomcat);
  });
});

describe('asctime is GMT, whatever the zone the servers run in', () => {
  it('one hour before Last-Modified: 200', async () => {
    await same(
      'asctime if-modified-since one hour before',
      (side) => ({
        path: '/index.html',
        headers: { 'if-modified-since': asctime(lastModified.get(side.name)! - 3_600_000) },
      }),
      200,
    );
  });
  it('at Last-Modified: 304', async () => {
    await same(
      'asctime if-modified-since at last-modified',
      (side) => ({ path: '/index.html', headers: { 'if-modified-since': asctime(lastModified.get(side.name)!) } }),
      304,
    );
  });
  it('one hour after Last-Modified, as If-Unmodified-Since: 200', async () => {
    await same(
      'asctime if-unmodified-since one hour after',
      (side) => ({
        path: '/index.html',
        headers: { 'if-unmodified-since': asctime(lastModified.get(side.name)! + 3_600_000) },
      }),
      200,
    );
  });
  it('one hour before Last-Modified, as If-Unmodified-Since: 412', async () => {
    await same(
      'asctime if-unmodified-since one hour before',
      (side) => ({
        path: '/index.html',
        headers: { 'if-unmodified-since': asctime(lastModified.get(side.name)! - 3_600_000) },
      }),
      412,
    );
  });
});

describe('the other spellings Tomcat reads', () => {
  it('RFC 850 at Last-Modified: 304', async () => {
    await same(
      'rfc850 if-modified-since at last-modified',
      (side) => ({ path: '/index.html', headers: { 'if-modified-since': rfc850(lastModified.get(side.name)!) } }),
      304,
    );
  });
  it('IMF-fixdate followed by other text: the date counts, 304', async () => {
    await same(
      'imf-fixdate with trailing text',
      (side) => ({
        path: '/index.html',
        headers: { 'if-modified-since': `${new Date(lastModified.get(side.name)!).toUTCString()}; length=12` },
      }),
      304,
    );
  });
  it('lower-case names and a wrong weekday: the date counts, 304', async () => {
    await same(
      'lower case, wrong weekday',
      (side) => {
        const s = new Date(lastModified.get(side.name)!).toUTCString().toLowerCase();
        return {
          path: '/index.html',
          headers: { 'if-modified-since': (s.startsWith('mon') ? 'tue' : 'mon') + s.slice(3) },
        };
      },
      304,
    );
  });
});

it('each side gave a real Last-Modified for the dates above to be built from', () => {
  for (const side of ['tomcat', 'tollgate']) expect(Number.isFinite(lastModified.get(side))).toBe(true);
});
