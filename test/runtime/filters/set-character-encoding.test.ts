import { afterEach, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/set-character-encoding.js';
import { create } from '../../../src/runtime/filters/set-character-encoding.js';
import { exchangeOf, setLogSink, type ContextRuntimeOptions, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { declare, reportWith } from './helpers.js';

const report = reportWith((ex) => ({ encoding: ex.request.characterEncoding }));

/** Posts `body` as a form and reports the decoded parameter and the request encoding. */
async function post(
  params: Record<string, unknown>,
  body: Buffer,
  contentType = 'application/x-www-form-urlencoded',
  options: ContextRuntimeOptions = {},
) {
  const s = await serve({ ...options, filters: [declare(spec, create, params)] }, async (req, res) => {
    const r = exchangeOf(req)!.request;
    await r.parseParameters();
    res.end(JSON.stringify({ encoding: r.characterEncoding, a: r.getParameter('a') }));
  });
  try {
    const r = await request(s, '/', { method: 'POST', headers: { 'content-type': contentType }, body });
    return r.status === 200 ? JSON.parse(r.body) : { status: r.status };
  } finally {
    await s.close();
  }
}

let logs: LogRecord[] = [];
afterEach(() => {
  setLogSink(null);
  logs = [];
});

describe('SetCharacterEncodingFilter', () => {
  it('sets the encoding when the request names none, so a UTF-8 form body decodes', async () => {
    expect(await post({ encoding: 'UTF-8' }, Buffer.from('a=%C3%A9'))).toEqual({ encoding: 'UTF-8', a: 'é' });
  });

  it('decodes with a Java charset name Node knows under another label (Cp1252)', async () => {
    expect(await post({ encoding: 'Cp1252' }, Buffer.from('a=%80'))).toEqual({ encoding: 'windows-1252', a: '€' });
  });

  it('keeps the charset the client sent unless ignore is true', async () => {
    const ct = 'application/x-www-form-urlencoded; charset=ISO-8859-1';
    expect(await post({ encoding: 'UTF-8' }, Buffer.from('a=%C3%A9'), ct)).toEqual({ encoding: 'ISO-8859-1', a: 'Ã©' });
    expect(await post({ encoding: 'UTF-8', ignore: 'true' }, Buffer.from('a=%C3%A9'), ct)).toEqual({
      encoding: 'UTF-8',
      a: 'é',
    });
  });

  it("treats the context's request-character-encoding as given by the request (ignore=false leaves it)", async () => {
    expect(
      await post({ encoding: 'ISO-8859-1' }, Buffer.from('a=%C3%A9'), undefined, { requestCharacterEncoding: 'UTF-8' }),
    ).toEqual({ encoding: 'UTF-8', a: 'é' });
  });

  it('does nothing without an encoding', async () => {
    const s = await serve({ filters: [declare(spec, create, {})] }, report);
    try {
      expect(JSON.parse((await request(s, '/')).body)).toEqual({ encoding: null });
    } finally {
      await s.close();
    }
  });

  it('never applies a charset Java does not know, as Tomcat 10.1.60 (requests answered, decoded in the default charset), and warns at start', async () => {
    setLogSink((r) => logs.push(r));
    expect((await post({ encoding: 'x-no-such-charset' }, Buffer.from('a=%E9'))).a).toBe('é');
    expect(logs.some((l) => l.level === 'WARNING' && l.message.includes('x-no-such-charset'))).toBe(true);
  });

  it('fails with 500 for a charset Java knows but Node cannot decode (IBM037), rather than decode it wrongly', async () => {
    setLogSink((r) => logs.push(r));
    expect(await post({ encoding: 'IBM037' }, Buffer.from('a=1'))).toEqual({ status: 500 });
  });
});
