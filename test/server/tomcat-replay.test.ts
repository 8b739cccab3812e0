/**
 * Replays requests recorded against a real Tomcat 10.1.60 host manager and
 * holds tollgate's answers to them: status, every header but Date, and the
 * body byte for byte (for Tomcat's HTML error reports, the status and the
 * message line; tollgate renders its own report around them).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBase, serverXml, startContainer, type Container } from './harness.js';
import { ask } from './http.js';

interface Step {
  id: string;
  method?: string;
  path: string;
  auth?: string;
  response: { status: number; headers: [string, string][]; body: string };
}

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'tomcat-10.1.60-host-manager.json'), 'utf8'),
) as { steps: Step[] };

const FRAMING = new Set(['connection', 'transfer-encoding']);

/** Tomcat's ErrorReportValve page: only its "Message" line is compared. */
function isErrorReport(step: Step): boolean {
  return step.response.body.startsWith('<!doctype html>');
}

function message(body: string): string | null {
  return /<p><b>Message<\/b> (.*?)<\/p>/.exec(body)?.[1] ?? null;
}

describe('replay of a Tomcat 10.1.60 host-manager session', () => {
  let c: Container;
  const got = new Map<string, { status: number; headers: [string, string][]; body: string }>();

  beforeAll(async () => {
    c = await startContainer(makeBase(serverXml()));
    // In order: later steps depend on the state earlier ones left (hosts added, failures counted).
    for (const step of recorded.steps) {
      const r = await ask(c.port, step.path, {
        method: step.method,
        auth: step.auth,
        headers: { connection: 'close' },
      });
      const headers: [string, string][] = [];
      for (let i = 0; i < r.headerOrder.length; i++) {
        const name = r.headerOrder[i]!;
        if (name === 'date' || name === 'keep-alive') continue;
        headers.push([name, String(r.headers[name])]);
      }
      got.set(step.id, {
        status: r.status,
        headers: dedupe(headers),
        body: r.text.split(c.base).join('{base}').split(dirname(c.base)).join('{parent}'),
      });
    }
  });
  afterAll(async () => {
    await c.dispose();
  });

  it.each(recorded.steps.map((s) => [s.id, s] as const))('%s', (_id, step) => {
    const mine = got.get(step.id)!;
    expect(mine.status).toBe(step.response.status);
    const expected = step.response.headers.map(([k, v]) => [k.toLowerCase(), v] as [string, string]);
    // Message framing (Connection, Transfer-Encoding) is placed by Node's HTTP layer: compared as a set.
    const framing = (h: [string, string][]) =>
      h
        .filter(([k]) => FRAMING.has(k))
        .map(([k, v]) => `${k}: ${v}`)
        .sort();
    expect(framing(mine.headers)).toEqual(framing(expected));
    // The length of an error report is the length of tollgate's own page.
    const skip = isErrorReport(step) ? new Set([...FRAMING, 'content-length']) : FRAMING;
    expect(mine.headers.filter(([k]) => !skip.has(k))).toEqual(expected.filter(([k]) => !skip.has(k)));
    if (isErrorReport(step)) expect(message(mine.body)).toBe(message(step.response.body));
    else expect(mine.body).toBe(step.response.body);
  });
});

/** Node's rawHeaders repeat nothing here, but the lookup by name above would repeat a name listed twice. */
function dedupe(headers: [string, string][]): [string, string][] {
  const seen = new Set<string>();
  return headers.filter(([k]) => (seen.has(k) ? false : (seen.add(k), true)));
}
