import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/remote-addr.js';
import { create } from '../../../src/runtime/filters/remote-addr.js';
import { request, serve } from '../serve.js';
import { asIf, declare } from './helpers.js';

/** Status of one request per address (set as if a proxy filter had put it there). */
async function statuses(params: Record<string, unknown>, addrs: string[]): Promise<number[]> {
  const s = await serve({ filters: [asIf, declare(spec, create, params)] });
  try {
    const out: number[] = [];
    for (const a of addrs) out.push((await request(s, '/x', { headers: { 'x-test-addr': a } })).status);
    return out;
  } finally {
    await s.close();
  }
}

describe('RemoteAddrFilter', () => {
  it('accepts the real loopback client when allow matches it', async () => {
    const s = await serve({ filters: [declare(spec, create, { allow: '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1' })] });
    try {
      expect((await request(s, '/x')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('with allow only: accepts matching addresses and refuses the rest with 403', async () => {
    expect(await statuses({ allow: '192\\.168\\.1\\.\\d+' }, ['192.168.1.5', '192.168.2.5', '10.0.0.1'])).toEqual([
      200, 403, 403,
    ]);
  });

  it('matches the whole address, never a part of it', async () => {
    expect(await statuses({ allow: '127\\.0\\.0\\.1' }, ['127.0.0.1', '127.0.0.10', '1127.0.0.1'])).toEqual([
      200, 403, 403,
    ]);
    expect(await statuses({ allow: '127' }, ['127.0.0.1'])).toEqual([403]);
  });

  it('with deny only: refuses matching addresses and accepts the rest', async () => {
    expect(await statuses({ deny: '10\\..*' }, ['10.1.2.3', '192.168.0.1'])).toEqual([403, 200]);
  });

  it('checks deny before allow', async () => {
    expect(await statuses({ allow: '10\\..*', deny: '10\\.0\\.0\\.1' }, ['10.0.0.1', '10.0.0.2', '11.0.0.1'])).toEqual([
      403, 200, 403,
    ]);
  });

  it('refuses everything with neither allow nor deny', async () => {
    expect(await statuses({}, ['127.0.0.1', '10.0.0.1'])).toEqual([403, 403]);
  });

  it('compares IPv6 in the full form Tomcat reports: ::1 does not match 0:0:0:0:0:0:0:1', async () => {
    expect(await statuses({ allow: '0:0:0:0:0:0:0:1' }, ['0:0:0:0:0:0:0:1'])).toEqual([200]);
    expect(await statuses({ allow: '::1' }, ['0:0:0:0:0:0:0:1'])).toEqual([403]);
  });

  it('answers with denyStatus, e.g. 404 to hide the resource', async () => {
    expect(await statuses({ allow: '10\\..*', denyStatus: '404' }, ['192.168.0.1'])).toEqual([404]);
  });

  it('refuses garbage addresses a proxy header might have put there', async () => {
    expect(await statuses({ allow: '\\d+\\.\\d+\\.\\d+\\.\\d+' }, ['unknown', '', '1.2.3.4x', '1.2.3.4.5'])).toEqual([
      403, 403, 403, 403,
    ]);
  });
});
