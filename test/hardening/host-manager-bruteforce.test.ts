/**
 * Password guessing against the host manager of the served example (a copy
 * of examples/base: LockOutRealm with Tomcat's defaults, failureCount 5 and
 * lockOutTime 300 s, around a user database whose passwords are PBKDF2
 * digests), over HTTP. The recorded Tomcat 10.1.60 session in
 * test/server/fixtures (replayed by tomcat-replay.test.ts) shows Tomcat's
 * side: after five failures the right password gets the same 401.
 * The expiry of a lock, which needs a clock, is tested in test/server.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startContainer, type Container } from '../../src/server/container.js';
import { ask } from '../server/http.js';
import { exampleBase } from './traffic-harness.js';

const RIGHT = 'deployer:tollgate-demo';
const list = (c: Container, auth: string) => ask(c.port, '/host-manager/text/list', { auth });

let c: Container;
let base: string;

describe('brute force against the host manager of the served example', () => {
  beforeEach(async () => {
    base = exampleBase();
    c = await startContainer({ base, port: 0 });
  });
  afterEach(async () => {
    await c.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('five wrong passwords lock the user: the right one then gets the same 401 page as a wrong one', async () => {
    expect((await list(c, RIGHT)).status).toBe(200);
    const wrong: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await list(c, `deployer:guess-${i}`);
      expect(r.status).toBe(401);
      wrong.push(r.text);
    }
    const locked = await list(c, RIGHT);
    expect(locked.status).toBe(401);
    expect(locked.headers['www-authenticate']).toBe('Basic realm="Tomcat Host Manager Application"');
    expect(locked.text).toBe(wrong[0]);
    // The lock is on the user, not on the server: the applications still answer.
    expect((await ask(c.port, '/')).status).toBe(200);
  });

  it('a burst of 40 concurrent guesses locks the user as surely as sequential ones', async () => {
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => list(c, `deployer:burst-${i}`)));
    expect(burst.map((r) => r.status)).toEqual(Array(40).fill(401));
    expect((await list(c, RIGHT)).status).toBe(401);
  });

  it('the lockout ignores the case of the user name, so DEPLOYER guesses count for deployer', async () => {
    for (const u of ['deployer', 'Deployer', 'DEPLOYER', 'dePloyer', 'deployeR'])
      expect((await list(c, `${u}:nope`)).status).toBe(401);
    expect((await list(c, RIGHT)).status).toBe(401);
  });

  it('four failures and a success reset the count: an owner who mistypes is not locked out', async () => {
    for (let i = 0; i < 4; i++) expect((await list(c, `deployer:typo-${i}`)).status).toBe(401);
    expect((await list(c, RIGHT)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await list(c, `deployer:typo-${i}`)).status).toBe(401);
    expect((await list(c, RIGHT)).status).toBe(200);
  });

  it('unknown users are locked too, with answers that do not tell them from known ones', async () => {
    const ghost: string[] = [];
    const known: string[] = [];
    for (let i = 0; i < 6; i++) ghost.push((await list(c, `ghost:g${i}`)).text);
    for (let i = 0; i < 6; i++) known.push((await list(c, `deployer:g${i}`)).text);
    expect(ghost).toEqual(known);
  });

  it('spraying one guess at each of 60 user names locks none of them and leaves the real user able to log in (LockOutRealm counts per user)', async () => {
    const spray = await Promise.all(Array.from({ length: 60 }, (_, i) => list(c, `user${i}:Winter2026!`)));
    expect(spray.every((r) => r.status === 401)).toBe(true);
    expect((await list(c, RIGHT)).status).toBe(200);
  });

  it('malformed Authorization headers are plain 401s and do not lock the real user out', async () => {
    for (const h of [
      'Basic',
      'Basic !!!!',
      'Basic ' + 'A'.repeat(6000),
      'Basic ZGVwbG95ZXI=',
      'Digest username="deployer"',
      'basic ' + Buffer.from(':').toString('base64'),
    ]) {
      expect((await ask(c.port, '/host-manager/text/list', { headers: { authorization: h } })).status).toBe(401);
    }
    expect((await list(c, RIGHT)).status).toBe(200);
  });

  it('a flood of 1,001 other user names without passwords leaves a locked user locked (Tomcat 10.1 drops the oldest record and unlocks it)', async () => {
    // Plain-text passwords make every check cheap, the case where a flood is cheapest to send.
    await c.stop();
    const users = join(base, 'conf', 'tomcat-users.xml');
    writeFileSync(users, readFileSync(users, 'utf8').replace(/password="[^"]*"/, 'password="tollgate-demo"'));
    const server = join(base, 'conf', 'server.xml');
    writeFileSync(server, readFileSync(server, 'utf8').replace(/<CredentialHandler[^>]*\/>/, ''));
    c = await startContainer({ base, port: 0 });
    expect((await list(c, RIGHT)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await list(c, `deployer:guess-${i}`)).status).toBe(401);
    const noColon = (name: string) => ({ authorization: 'Basic ' + Buffer.from(name).toString('base64') });
    for (let batch = 0; batch < 1001; batch += 50) {
      const names = Array.from({ length: Math.min(50, 1001 - batch) }, (_, i) => `flood-${batch + i}`);
      const answers = await Promise.all(
        names.map((n) => ask(c.port, '/host-manager/text/list', { headers: noColon(n) })),
      );
      expect(answers.every((r) => r.status === 401)).toBe(true);
    }
    expect((await list(c, RIGHT)).status).toBe(401);
  });
});
