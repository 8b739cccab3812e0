import { afterEach, describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/remote-cidr.js';
import { create } from '../../../src/runtime/filters/remote-cidr.js';
import { setLogSink, type LogRecord } from '../../../src/runtime/index.js';
import { request, serve } from '../serve.js';
import { asIf, declare } from './helpers.js';

async function statusByAddr(params: Record<string, unknown>, addrs: string[]): Promise<Record<string, number>> {
  const s = await serve({ filters: [asIf, declare(spec, create, params)] });
  try {
    const out: Record<string, number> = {};
    for (const a of addrs) out[a] = (await request(s, '/x', { headers: { 'x-test-addr': a } })).status;
    return out;
  } finally {
    await s.close();
  }
}

/** 192.168.<i>.<j> (or another prefix) for a spread of i and j, with what Tomcat's test expects. */
function grid(prefix: string, expect: (i: number) => number): [string[], Record<string, number>] {
  const addrs: string[] = [];
  const want: Record<string, number> = {};
  for (const i of [0, 9, 10, 11, 19, 20, 21, 128, 255]) {
    for (const j of [0, 11, 254, 255]) {
      const a = `${prefix}.${i}.${j}`;
      addrs.push(a);
      want[a] = expect(i);
    }
  }
  return [addrs, want];
}

afterEach(() => setLogSink(null));

describe('RemoteCIDRFilter', () => {
  it('with allow only: accepts the listed /24 networks and refuses the rest with 403', async () => {
    const [addrs, want] = grid('192.168', (i) => (i === 10 || i === 20 ? 200 : 403));
    expect(await statusByAddr({ allow: '192.168.10.0/24, 192.168.20.0/24' }, addrs)).toEqual(want);
  });

  it('with deny only: refuses the listed networks and accepts the rest', async () => {
    const [addrs, want] = grid('192.168', (i) => (i === 10 || i === 20 ? 403 : 200));
    expect(await statusByAddr({ deny: '192.168.10.0/24, 192.168.20.0/24' }, addrs)).toEqual(want);
  });

  it('with both: deny carves holes into allow', async () => {
    const [addrs, want] = grid('10.10', (i) => (i === 10 || i === 20 ? 403 : 200));
    expect(await statusByAddr({ allow: '10.10.0.0/16', deny: '10.10.10.0/24, 10.10.20.0/24' }, addrs)).toEqual(want);
  });

  it('refuses everything when allow and deny are unset or empty', async () => {
    expect(await statusByAddr({}, ['192.168.0.1', '127.0.0.1'])).toEqual({ '192.168.0.1': 403, '127.0.0.1': 403 });
    expect(await statusByAddr({ allow: '', deny: '' }, ['192.168.0.1'])).toEqual({ '192.168.0.1': 403 });
  });

  it('matches IPv6 masks, in full or condensed form, and never across families', async () => {
    const got = await statusByAddr({ allow: '::1, fe80::/10, 10.0.0.0/8' }, [
      '0:0:0:0:0:0:0:1',
      'fe80:0:0:0:0:0:0:5',
      'febf:ffff:0:0:0:0:0:1',
      'fec0:0:0:0:0:0:0:1',
      '0:0:0:0:0:0:a00:1',
      '10.1.2.3',
    ]);
    expect(got).toEqual({
      '0:0:0:0:0:0:0:1': 200,
      'fe80:0:0:0:0:0:0:5': 200,
      'febf:ffff:0:0:0:0:0:1': 200,
      'fec0:0:0:0:0:0:0:1': 403,
      '0:0:0:0:0:0:a00:1': 403,
      '10.1.2.3': 200,
    });
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address, as Java does', async () => {
    expect(await statusByAddr({ allow: '192.168.10.0/24' }, ['::ffff:192.168.10.5', '::ffff:192.168.11.5'])).toEqual({
      '::ffff:192.168.10.5': 200,
      '::ffff:192.168.11.5': 403,
    });
  });

  it('accepts single addresses without a prefix as /32 and masks with odd prefix lengths', async () => {
    expect(
      await statusByAddr({ allow: '10.0.0.1, 172.16.0.0/12' }, [
        '10.0.0.1',
        '10.0.0.2',
        '172.31.255.255',
        '172.32.0.0',
      ]),
    ).toEqual({ '10.0.0.1': 200, '10.0.0.2': 403, '172.31.255.255': 200, '172.32.0.0': 403 });
  });

  it('refuses a remote address that is not an IP literal, logging that the client has no IP address', async () => {
    const logs: LogRecord[] = [];
    setLogSink((r) => logs.push(r));
    expect(await statusByAddr({ deny: '10.0.0.0/8' }, ['unknown', 'localhost', '', '999.1.1.1'])).toEqual({
      unknown: 403,
      localhost: 403,
      '': 403,
      '999.1.1.1': 403,
    });
    expect(
      logs.filter(
        (l) =>
          l.logger === 'org.apache.catalina.filters.RemoteCIDRFilter' &&
          l.message.includes('does not have an IP address'),
      ).length,
    ).toBe(4);
  });

  it('gives the same verdict to a client that comes back, and logs a non-IP address every time', async () => {
    const logs: LogRecord[] = [];
    setLogSink((r) => logs.push(r));
    const s = await serve({ filters: [asIf, declare(spec, create, { allow: '10.0.0.0/8' })] });
    try {
      const seq = ['10.1.1.1', '11.1.1.1', '10.1.1.1', '11.1.1.1', 'unknown', 'unknown', '10.1.1.1'];
      const got: number[] = [];
      for (const a of seq) got.push((await request(s, '/x', { headers: { 'x-test-addr': a } })).status);
      expect(got).toEqual([200, 403, 200, 403, 403, 403, 200]);
      expect(logs.filter((l) => l.message.includes('does not have an IP address')).length).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('lets the real loopback client through when allowed', async () => {
    const s = await serve({ filters: [declare(spec, create, { allow: '127.0.0.0/8' })] });
    try {
      expect((await request(s, '/x')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
