import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileCidrMatcher,
  formatIpJava,
  parseCidr,
  parseCidrList,
  parseIp,
  toTomcatRemoteAddr,
} from '../../src/protocol/net.js';

describe('IP addresses', () => {
  it('parses IPv4 and every IPv6 form', () => {
    expect([...parseIp('192.168.0.1')!]).toEqual([192, 168, 0, 1]);
    expect(formatIpJava(parseIp('::1')!)).toBe('0:0:0:0:0:0:0:1');
    expect(formatIpJava(parseIp('::')!)).toBe('0:0:0:0:0:0:0:0');
    expect(formatIpJava(parseIp('2001:DB8::8:800:200C:417A')!)).toBe('2001:db8:0:0:8:800:200c:417a');
    expect(formatIpJava(parseIp('[fe80::1%eth0]')!)).toBe('fe80:0:0:0:0:0:0:1');
    expect(formatIpJava(parseIp('::ffff:10.1.2.3')!)).toBe('10.1.2.3');
    expect(formatIpJava(parseIp('64:ff9b::192.0.2.33')!)).toBe('64:ff9b:0:0:0:0:c000:221');
  });
  it('refuses what is not an address', () => {
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4x', 'localhost', '1::2::3', '12345::', ':::', '1.2.3.4.5', ''])
      expect(parseIp(bad), bad).toBeNull();
  });
  it('reads dotted quads exactly as the strict grammar does (0-255, no leading zeros, four parts)', () => {
    // The grammar as a regex: the oracle the hand-written per-request parser must agree with.
    const quad =
      /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
    const oracle = (t: string): number[] | null => {
      const m = quad.exec(t);
      return m ? m.slice(1).map(Number) : null;
    };
    for (const t of [
      '0.0.0.0',
      '255.255.255.255',
      '1.2.3.04',
      '00.1.1.1',
      '1.2.3.256',
      '1..2.3',
      '.1.2.3',
      '1.2.3.4.',
      '1.2.3.4 ',
      ' 1.2.3.4',
      '1.2.3.-4',
      '1234.1.1.1',
      '999.1.1.1',
      '1.2.3.+4',
    ]) {
      const got = parseIp(t);
      expect(got === null || got.length === 4 ? (got === null ? null : [...got]) : 'v6', t).toEqual(oracle(t));
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.]{0,16}$/), (t) => {
        const got = parseIp(t);
        expect(got === null ? null : [...got]).toEqual(oracle(t));
      }),
      { numRuns: 20_000 },
    );
  });
  it('gives Node socket addresses the form Tomcat reports', () => {
    expect(toTomcatRemoteAddr('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(toTomcatRemoteAddr('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(toTomcatRemoteAddr('10.0.0.7')).toBe('10.0.0.7');
  });
});

describe('CIDR masks', () => {
  it('accepts an address alone as a single-address mask', () => {
    expect(parseCidr('10.1.2.3')).toMatchObject({ ok: true, cidr: { prefix: 32 } });
    expect(parseCidr('::1')).toMatchObject({ ok: true, cidr: { prefix: 128 } });
  });
  it('refuses dotted netmasks, truncated addresses, host names and long prefixes, as NetMask does', () => {
    expect(parseCidr('10.0.0.0/255.0.0.0')).toMatchObject({
      ok: false,
      error: expect.stringContaining('dotted netmask'),
    });
    expect(parseCidr('10.0/16')).toMatchObject({ ok: false, error: expect.stringContaining('truncated') });
    expect(parseCidr('intranet.local/24')).toMatchObject({ ok: false, error: expect.stringContaining('host names') });
    expect(parseCidr('10.0.0.0/33')).toMatchObject({ ok: false });
    expect(parseCidr('::/129')).toMatchObject({ ok: false });
    expect(parseCidr('10.0.0.0/-1')).toMatchObject({ ok: false });
  });
  it('reports each bad entry of a list with its offset', () => {
    const r = parseCidrList('10.0.0.0/8, bad, ::1');
    expect(r.cidrs).toHaveLength(2);
    expect(r.errors).toEqual([{ entry: 'bad', offset: 12, error: expect.any(String) }]);
  });
  it('matches boundary prefixes and never across families', () => {
    const m = (list: string) => compileCidrMatcher(parseCidrList(list).cidrs);
    expect(m('0.0.0.0/0')('8.8.8.8')).toBe(true);
    expect(m('0.0.0.0/0')('0:0:0:0:0:0:0:1')).toBe(false);
    expect(m('10.0.0.0/9')('10.127.255.255')).toBe(true);
    expect(m('10.0.0.0/9')('10.128.0.0')).toBe(false);
    expect(m('fd00::/8')('fd12:0:0:0:0:0:0:1')).toBe(true);
    expect(m('::1')('0:0:0:0:0:0:0:1')).toBe(true);
  });
  it('agrees with a bit-by-bit comparison for random addresses and prefixes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 32 }),
        (a, b, prefix) => {
          const bits = (x: number[]) => x.map((n) => n.toString(2).padStart(8, '0')).join('');
          const expected = bits(a).slice(0, prefix) === bits(b).slice(0, prefix);
          return compileCidrMatcher([{ family: 4, bytes: a, prefix, text: '' }])(b.join('.')) === expected;
        },
      ),
      { numRuns: 2000, seed: 42 },
    );
  });
});
