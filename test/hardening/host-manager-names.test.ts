/**
 * Hostile host names and appBase values sent to the host manager over HTTP.
 * Where Tomcat 10.1.60 refuses, tollgate answers with the same line (the
 * observations, made with Tomcat's own host-manager webapp on a copy of
 * examples/base, are quoted next to each case); where Tomcat accepts a name
 * that can never be a host (a slash, a backslash, blanks, NUL, `.`/`..` with
 * an appBase of their own) tollgate refuses it with Tomcat's invalid-name
 * line. Every refusal leaves the registry and the file system unchanged.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeBase, serverXml, startContainer, type Container } from '../server/harness.js';
import { ask } from '../server/http.js';

const ADMIN = 'admin:s3cret';
let c: Container;
let outside: string;
let before: { hosts: string[]; base: string[]; conf: string[]; outside: string[] };

const add = async (query: string): Promise<string> => {
  const r = await ask(c.port, `/host-manager/text/add?${query}`, { auth: ADMIN });
  expect(r.status).toBe(200);
  return r.text;
};
const snapshot = () => ({
  hosts: c.registry.list().map((h) => h.name),
  base: readdirSync(c.base).sort(),
  conf: readdirSync(join(c.base, 'conf', 'Catalina')).sort(),
  // The places the refused requests below point at, outside the base (the rest of /tmp belongs to other tests).
  outside: [
    join(dirname(c.base), 'outside'),
    join(dirname(c.base), 'x'),
    join(dirname(c.base), 'q'),
    '/escape',
    join(outside, 'apps'),
  ].filter((p) => existsSync(p)),
});

describe('host manager: names and appBase values that must be refused', () => {
  beforeAll(async () => {
    c = await startContainer(makeBase(serverXml()));
    mkdirSync(join(c.base, 'conf', 'Catalina'), { recursive: true });
    outside = mkdtempSync(join(tmpdir(), 'tg-outside-'));
  });
  afterAll(async () => {
    await c.dispose();
    rmSync(outside, { recursive: true, force: true });
  });
  beforeEach(() => {
    before = snapshot();
  });
  afterEach(async () => {
    // Refused means refused: no host, no directory inside the base or next to it.
    expect(snapshot()).toEqual(before);
    expect((await ask(c.port, '/host-manager/text/list', { auth: ADMIN })).text).toBe(
      'OK - Listed hosts\n[localhost]:[]\n',
    );
  });

  it('.. (the default appBase is the name): outside the base, as Tomcat says', async () => {
    // Tomcat: FAIL - Unable to use [/tmp] as that is outside the expected directory [/tmp/hz-tomcat]
    expect(await add('name=..')).toBe(
      `FAIL - Unable to use [${dirname(c.base)}] as that is outside the expected directory [${c.base}]\n`,
    );
  });

  it('../../etc and ..%2F..%2Fescape: outside the base', async () => {
    // Tomcat: FAIL - Unable to use [/etc] as that is outside ...; [/escape] for the second
    expect(await add('name=../../etc')).toBe(
      `FAIL - Unable to use [/etc] as that is outside the expected directory [${c.base}]\n`,
    );
    expect(await add('name=..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fescape')).toBe(
      `FAIL - Unable to use [/escape] as that is outside the expected directory [${c.base}]\n`,
    );
  });

  it("a name that climbs out of conf/ with an appBase of its own: both of Tomcat's lines", async () => {
    // Tomcat: FAIL - Unable to use [.../conf/Catalina/z/../../../q] as that is outside the expected directory [.../conf]
    //         FAIL - Failed to identify configBase directory for host [z/../../../q]   (and it had created appBase zz)
    const r = await add('name=z%2F..%2F..%2F..%2Fq&appBase=zz');
    expect(r).toBe(
      `FAIL - Unable to use [${join(c.base, 'q')}] as that is outside the expected directory [${join(c.base, 'conf')}]\n` +
        'FAIL - Failed to identify configBase directory for host [z/../../../q]\n',
    );
  });

  it("NUL in the name: Tomcat's path check error, nothing created", async () => {
    // Tomcat: FAIL - Unable to use [/tmp/hz-tomcat/a\0b] due to [Invalid file path] while checking if it was outside the expected directory [/tmp/hz-tomcat]
    expect(await add('name=a%00b')).toBe(
      `FAIL - Unable to use [${c.base}/a\0b] due to [Invalid file path] while checking if it was outside the expected directory [${c.base}]\n`,
    );
  });

  it("NUL in the name with a valid appBase: the configBase check fails, with both of Tomcat's lines", async () => {
    // Tomcat: FAIL - Unable to use [/tmp/hz-tomcat/conf/Catalina/x\0y] due to [Invalid file path] while checking if it was outside the expected directory [/tmp/hz-tomcat/conf]
    //         FAIL - Failed to identify configBase directory for host [x\0y]
    expect(await add('name=x%00y&appBase=xy')).toBe(
      `FAIL - Unable to use [${c.base}/conf/Catalina/x\0y] due to [Invalid file path] while checking if it was outside the expected directory [${join(c.base, 'conf')}]\n` +
        'FAIL - Failed to identify configBase directory for host [x\0y]\n',
    );
  });

  it('NUL in appBase: the path check error', async () => {
    // Tomcat: FAIL - Unable to use [/tmp/hz-tomcat/a\0b] due to [Invalid file path] while checking ...
    expect(await add('name=ok4.example&appBase=a%00b')).toBe(
      `FAIL - Unable to use [${c.base}/a\0b] due to [Invalid file path] while checking if it was outside the expected directory [${c.base}]\n`,
    );
  });

  it('a 300-character name: the appBase cannot be created (a file name is at most 255 bytes)', async () => {
    // Tomcat: FAIL - Failed to create appBase directory [/tmp/hz-tomcat/aaa…] for host [aaa…]
    const name = 'a'.repeat(300);
    expect(await add(`name=${name}`)).toBe(
      `FAIL - Failed to create appBase directory [${join(c.base, name)}] for host [${name}]\n`,
    );
  });

  it("a 5000-character name: longer than PATH_MAX, Tomcat's path check error", async () => {
    // Tomcat: FAIL - Unable to use [/tmp/hz-tomcat/aaa…] due to [File name too long] while checking if it was outside the expected directory [/tmp/hz-tomcat]
    const name = 'a'.repeat(5000);
    expect(await add(`name=${name}`)).toBe(
      `FAIL - Unable to use [${join(c.base, name)}] due to [File name too long] while checking if it was outside the expected directory [${c.base}]\n`,
    );
  });

  // Tomcat 10.1.60 answered "OK - Host [a/b] added" (creating appBase a/b and conf/Catalina/a/b), and the same
  // for a\b, " ", "a b" and, with an appBase of their own, "." and "..". None can match a Host header.
  it.each([
    ['a%2Fb', 'a/b'],
    ['a%5Cb', 'a\\b'],
    ['%20', ' '],
    ['a%20b', 'a b'],
    ['a%09b', 'a\tb'],
    ['a%7Fb', 'a\x7fb'],
    ['..&appBase=dots', '..'],
    ['.&appBase=dot', '.'],
  ])('name=%s is refused as an invalid host name (Tomcat adds it)', async (query, name) => {
    expect(await add(`name=${query}`)).toBe(`FAIL - Invalid host name [${name}] was specified\n`);
  });

  it('appBase=../outside and webapps/../../x climb out of the base', async () => {
    // Tomcat: FAIL - Unable to use [/tmp/outside] as that is outside the expected directory [/tmp/hz-tomcat]; [/tmp/x] for the second
    expect(await add('name=o1.example&appBase=..%2Foutside')).toBe(
      `FAIL - Unable to use [${join(dirname(c.base), 'outside')}] as that is outside the expected directory [${c.base}]\n`,
    );
    expect(await add('name=o2.example&appBase=webapps%2F..%2F..%2Fx')).toBe(
      `FAIL - Unable to use [${join(dirname(c.base), 'x')}] as that is outside the expected directory [${c.base}]\n`,
    );
  });

  it('an appBase that is a symbolic link out of the base is judged by where it leads', async () => {
    const link = join(c.base, 'sneaky');
    symlinkSync(outside, link);
    before = snapshot();
    try {
      expect(await add('name=s.example&appBase=sneaky')).toBe(
        `FAIL - Unable to use [${outside}] as that is outside the expected directory [${c.base}]\n`,
      );
      expect(existsSync(join(outside, 'ROOT'))).toBe(false);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(link);
      before = snapshot();
    }
  });

  it('an absolute appBase outside the base (Tomcat accepts it; tollgate only with --allow-app-base-outside-base)', async () => {
    // Tomcat: OK - Host [ok2.example] added
    expect(await add(`name=abs.example&appBase=${encodeURIComponent(join(outside, 'apps'))}`)).toBe(
      `FAIL - Unable to use [${join(outside, 'apps')}] as that is outside the expected directory [${c.base}]\n`,
    );
  });
});
