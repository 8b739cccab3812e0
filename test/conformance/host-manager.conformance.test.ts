/**
 * The host manager's text interface against real Tomcat 10.1 (issue 6): the
 * sequence of hm-util.ts MAIN_STEPS is sent, in order, to Tomcat running its
 * own host-manager webapp and to `tollgate serve`, each on a copy of
 * fixtures/host-manager/base (stock LockOutRealm + UserDatabaseRealm, users
 * per role). Status, the headers that matter and the body are compared after
 * replacing each side's base directory by {base}. Where tollgate deliberately
 * differs, the step names the docs/divergences.md entry and each side is held
 * to its own expected answer. A second pair, on a base with
 * StoreConfigLifecycleListener, checks persist and what it writes.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, recordStep, send, startPair, type Pair, type Side } from './harness.js';
import {
  ABSOLUTE_APPBASE,
  aligned,
  basic,
  MAIN_STEPS,
  STORECONFIG_STEPS,
  view,
  type Step,
  type View,
} from './hm-util.js';

const AREA = 'host-manager';
const DIVERGENCES = readFileSync(join(FIXTURES, '..', '..', '..', 'docs', 'divergences.md'), 'utf8');

function request(step: Step) {
  const headers: Record<string, string> = {};
  if (step.raw !== undefined) headers['authorization'] = step.raw;
  else if (step.auth !== undefined) headers['authorization'] = basic(step.auth);
  return { method: step.method ?? 'GET', path: step.path, headers, ...(step.host ? { host: step.host } : {}) };
}

async function replay(pair: Pair, step: Step): Promise<{ tomcat: View; tollgate: View }> {
  const req = request(step);
  // One side after the other: both are idle otherwise, and the order of failures matters to the realms.
  const tomcat = view(await send(pair.tomcat, req), pair.tomcat.base);
  const tollgate = view(await send(pair.tollgate, req), pair.tollgate.base);
  recordStep(AREA, step.id);
  return { tomcat, tollgate };
}

function check(step: Step, got: { tomcat: View; tollgate: View }): void {
  const d = step.divergence;
  if (d === undefined) {
    const [tomcat, tollgate] = aligned(got.tomcat, got.tollgate);
    expect(tollgate).toEqual(tomcat);
    return;
  }
  expect(DIVERGENCES).toContain(`### ${d.heading}\n`);
  const pick = (v: View, e: { body?: string }) => ({
    status: v.status,
    ...(e.body === undefined ? {} : { body: v.body }),
  });
  expect({ tomcat: pick(got.tomcat, d.tomcat), tollgate: pick(got.tollgate, d.tollgate) }).toEqual({
    tomcat: d.tomcat,
    tollgate: d.tollgate,
  });
}

describe('host manager text interface: Tomcat 10.1 and tollgate, the same sequence', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair(join(FIXTURES, 'host-manager', 'base'), { hostManager: true });
  });
  afterAll(async () => {
    await pair?.stop();
    rmSync(ABSOLUTE_APPBASE, { recursive: true, force: true });
  });

  it('the sequence is long enough and its ids are unique', () => {
    expect(MAIN_STEPS.length + STORECONFIG_STEPS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(MAIN_STEPS.map((s) => s.id)).size).toBe(MAIN_STEPS.length);
    // Steps named for missing credentials really send no Authorization header.
    const anonymous = MAIN_STEPS.filter((s) => /without credentials|no credentials|redirects|TRACE/.test(s.id));
    expect(anonymous.length).toBeGreaterThanOrEqual(6);
    for (const s of anonymous) expect(request(s).headers, s.id).toEqual({});
  });

  // In order: later steps depend on the hosts earlier ones added and the failures they counted.
  it.each(MAIN_STEPS.map((s) => [s.id, s] as const))('%s', async (_id, step) => {
    check(step, await replay(pair, step));
  });
});

describe('host manager persist with StoreConfigLifecycleListener', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair(join(FIXTURES, 'host-manager', 'storeconfig'), { hostManager: true });
  });
  afterAll(async () => {
    await pair?.stop();
  });

  const serverXml = (side: Side) => readFileSync(join(side.base, 'conf', 'server.xml'), 'utf8');
  const backups = (side: Side) =>
    readdirSync(join(side.base, 'conf')).filter((f) => /^server\.xml\.\d{4}-\d\d-\d\d\.\d\d-\d\d-\d\d/.test(f));
  const declares = (xml: string) => ({
    host: /<Host\b[^>]*\bname="p\.example"/.test(xml),
    alias: /<Alias>www\.p\.example<\/Alias>/.test(xml),
  });

  it.each(STORECONFIG_STEPS.map((s) => [s.id, s] as const))('%s', async (_id, step) => {
    check(step, await replay(pair, step));
    if (step.id === 'persist') {
      // What persist wrote: the new host and its alias, on both sides, and a backup of the old file.
      recordStep(AREA, 'persisted server.xml declares the added host and its alias');
      expect({ tomcat: declares(serverXml(pair.tomcat)), tollgate: declares(serverXml(pair.tollgate)) }).toEqual({
        tomcat: { host: true, alias: true },
        tollgate: { host: true, alias: true },
      });
      recordStep(AREA, 'persist leaves a dated backup of server.xml');
      expect([backups(pair.tomcat).length > 0, backups(pair.tollgate).length > 0]).toEqual([true, true]);
      // docs/divergences.md "Only Host elements change": StoreConfig regenerates the file, tollgate edits the Hosts.
      recordStep(AREA, 'persist keeps comments (tollgate) or regenerates the file (Tomcat)');
      expect(DIVERGENCES).toContain('### Only Host elements change\n');
      const comment = '<!-- Use the LockOutRealm to prevent attempts to guess user passwords';
      expect([serverXml(pair.tomcat).includes(comment), serverXml(pair.tollgate).includes(comment)]).toEqual([
        false,
        true,
      ]);
    }
    if (step.id === 'persist after remove') {
      recordStep(AREA, 'persisted server.xml no longer declares the removed host');
      expect({ tomcat: declares(serverXml(pair.tomcat)), tollgate: declares(serverXml(pair.tollgate)) }).toEqual({
        tomcat: { host: false, alias: false },
        tollgate: { host: false, alias: false },
      });
    }
  });
});
