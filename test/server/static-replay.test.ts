/**
 * Replays requests recorded against Tomcat 10.1.60's default servlet (the
 * same files, the same modification time) and holds tollgate's answers to
 * them: status, headers in order, bodies byte for byte; for error reports
 * the status, headers and message line (tollgate renders its own page).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextRuntime, toNodeListener } from '../../src/runtime/index.js';
import { createStaticHandler } from '../../src/server/static.js';
import { ask, listen, type Running } from './http.js';

interface Step {
  id: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  response: { status: number; headers: [string, string][]; body: string };
}

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'tomcat-10.1.60-static.json'), 'utf8'),
) as { files: Record<string, string>; steps: Step[] };

const FRAMING = new Set(['connection', 'transfer-encoding']);
const ENTITIES: Record<string, string> = {
  '&#47;': '/',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

function message(body: string): string | null {
  const m = /<p><b>Message<\/b> (.*?)<\/p>/.exec(body)?.[1];
  return m === undefined ? null : m.replace(/&#47;|&amp;|&lt;|&gt;|&quot;|&#39;/g, (e) => ENTITIES[e]!);
}

function isErrorReport(body: string): boolean {
  return body.startsWith('<!doctype html>');
}

let dir: string;
let plain: Running;
let viaContext: Running;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-replay-'));
  for (const [rel, content] of Object.entries(recorded.files)) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    // The exact modification time of the recording (utimes would round the milliseconds).
    execFileSync('touch', ['-d', '@1767323045.678', file]);
  }
  const serve = createStaticHandler({ docBase: dir, contextPath: '/app' });
  plain = await listen((req, res) => void serve(req, res));
  const serveInContext = createStaticHandler({ docBase: dir });
  viaContext = await listen(
    toNodeListener(createContextRuntime({ contextPath: '/app' }), (req, res) => void serveInContext(req, res)),
  );
});

afterAll(async () => {
  await plain.close();
  await viaContext.close();
  rmSync(dir, { recursive: true, force: true });
});

async function replay(port: number, step: Step) {
  const r = await ask(port, step.path, { method: step.method, headers: { ...step.headers, connection: 'close' } });
  const headers: [string, string][] = [];
  for (const name of r.headerOrder)
    if (name !== 'date' && name !== 'keep-alive') headers.push([name, String(r.headers[name])]);
  return { status: r.status, headers, body: r.body.toString('latin1') };
}

describe('replay of Tomcat 10.1.60 static serving, on the static servlet alone', () => {
  it.each(recorded.steps.map((s) => [s.id, s.path, s] as const))('%s %s', async (_id, _path, step) => {
    const mine = await replay(plain.port, step);
    const want = step.response;
    expect(mine.status).toBe(want.status);
    const expected = want.headers.map(([k, v]) => [k.toLowerCase(), v] as [string, string]);
    // An empty redirect may be framed by length or by chunks: the same message either way.
    const emptyRedirect = want.status === 302 && want.body === '' && mine.body === '';
    const skip = new Set(FRAMING);
    if (isErrorReport(want.body) || emptyRedirect) skip.add('content-length');
    const framing = (h: [string, string][]) =>
      h
        .filter(([k]) => FRAMING.has(k) && !(emptyRedirect && k === 'transfer-encoding'))
        .map(([k, v]) => `${k}: ${v}`)
        .sort();
    expect(framing(mine.headers)).toEqual(framing(expected));
    expect(mine.headers.filter(([k]) => !skip.has(k))).toEqual(expected.filter(([k]) => !skip.has(k)));
    if (isErrorReport(want.body)) expect(message(mine.body)).toBe(message(want.body));
    else expect(mine.body).toBe(want.body);
  });
});

describe('replay of Tomcat 10.1.60 static serving, behind a tollgate context', () => {
  it.each(recorded.steps.map((s) => [s.id, s.path, s] as const))('%s %s', async (_id, _path, step) => {
    const mine = await replay(viaContext.port, step);
    expect(mine.status).toBe(step.response.status);
    // Successful answers come from the static servlet: the same bytes as Tomcat's.
    if (step.response.status < 300) expect(mine.body).toBe(step.response.body);
  });
});
