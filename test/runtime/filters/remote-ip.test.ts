import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/remote-ip.js';
import { create, hostPortIndex } from '../../../src/runtime/filters/remote-ip.js';
import {
  createContextRuntime,
  exchangeOf,
  toNodeListener,
  type Exchange,
  type RuntimeFilter,
} from '../../../src/runtime/index.js';
import { request, serve, type Served } from '../serve.js';
import { asIf, declare, reportWith } from './helpers.js';

function view(ex: Exchange) {
  const r = ex.request;
  return {
    remoteAddr: r.remoteAddr,
    remoteHost: r.remoteHost,
    scheme: r.scheme,
    secure: r.secure,
    serverName: r.serverName,
    serverPort: r.serverPort,
    localPort: r.localPort,
    localName: r.localName,
    xff: r.getHeader('x-forwarded-for'),
    xfb: r.getHeader('x-forwarded-by'),
    nodeXff: ex.req.headers['x-forwarded-for'] ?? null,
    requestURL: r.requestURL,
  };
}

const report = reportWith(view);

async function remoteIpServer(params: Record<string, unknown>, extra: RuntimeFilter[] = []): Promise<Served> {
  return serve({ filters: [...extra, asIf, declare(spec, create, params)] }, report);
}

async function seen(s: Served, headers: Record<string, string | string[]>): Promise<ReturnType<typeof view>> {
  const r = await request(s, '/test', { headers });
  expect(r.status).toBe(200);
  return JSON.parse(r.body);
}

const TOMCAT_TEST_PARAMS = {
  internalProxies: '192\\.168\\.0\\.10|192\\.168\\.0\\.11',
  trustedProxies: 'proxy1|proxy2|proxy3',
  remoteIpHeader: 'x-forwarded-for',
  proxiesHeader: 'x-forwarded-by',
};

describe("RemoteIpFilter: the proxy walk (Tomcat's TestRemoteIpFilter cases)", () => {
  it('leaves the address alone when the internal proxy sent no X-Forwarded-For', async () => {
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS);
    try {
      expect(await seen(s, { 'x-test-addr': '192.168.0.10' })).toMatchObject({
        remoteAddr: '192.168.0.10',
        remoteHost: '192.168.0.10',
        xff: null,
        xfb: null,
      });
    } finally {
      await s.close();
    }
  });

  it('takes the leftmost entry and removes the header when every proxy is internal; no X-Forwarded-By', async () => {
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS);
    try {
      const v = await seen(s, {
        'x-test-addr': '192.168.0.10',
        'x-forwarded-for': '140.211.11.130, 192.168.0.10, 192.168.0.11',
      });
      expect(v).toMatchObject({
        remoteAddr: '140.211.11.130',
        remoteHost: '140.211.11.130',
        xff: null,
        xfb: null,
        nodeXff: null,
      });
    } finally {
      await s.close();
    }
  });

  it('moves trusted proxies to X-Forwarded-By, in request order, joined with ","', async () => {
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS);
    try {
      expect(
        await seen(s, { 'x-test-addr': '192.168.0.10', 'x-forwarded-for': '140.211.11.130, proxy1, proxy2' }),
      ).toMatchObject({ remoteAddr: '140.211.11.130', xff: null, xfb: 'proxy1,proxy2' });
      // The same list spread over several header lines.
      expect(
        await seen(s, { 'x-test-addr': '192.168.0.10', 'x-forwarded-for': ['140.211.11.130', 'proxy1', 'proxy2'] }),
      ).toMatchObject({ remoteAddr: '140.211.11.130', xff: null, xfb: 'proxy1,proxy2' });
      expect(
        await seen(s, {
          'x-test-addr': '192.168.0.10',
          'x-forwarded-for': '140.211.11.130, proxy1, proxy2, 192.168.0.10, 192.168.0.11',
        }),
      ).toMatchObject({ remoteAddr: '140.211.11.130', xff: null, xfb: 'proxy1,proxy2' });
    } finally {
      await s.close();
    }
  });

  it('lists a trusted (not internal) connecting proxy last in X-Forwarded-By, also with internalProxies empty or unset', async () => {
    for (const params of [
      { ...TOMCAT_TEST_PARAMS, internalProxies: '' },
      { trustedProxies: 'proxy1|proxy2|proxy3', proxiesHeader: 'x-forwarded-by' },
    ]) {
      const s = await remoteIpServer(params);
      try {
        expect(
          await seen(s, { 'x-test-addr': 'proxy3', 'x-forwarded-for': '140.211.11.130, proxy1, proxy2' }),
        ).toMatchObject({ remoteAddr: '140.211.11.130', xff: null, xfb: 'proxy1,proxy2,proxy3' });
      } finally {
        await s.close();
      }
    }
  });

  it('stops at the first untrusted entry: it becomes the client, entries before it stay in X-Forwarded-For', async () => {
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS);
    try {
      const v = await seen(s, {
        'x-test-addr': '192.168.0.10',
        'x-forwarded-for': '140.211.11.130, proxy1, untrusted-proxy, proxy2',
      });
      expect(v).toMatchObject({
        remoteAddr: 'untrusted-proxy',
        remoteHost: 'untrusted-proxy',
        xff: '140.211.11.130,proxy1',
        xfb: 'proxy2',
      });
    } finally {
      await s.close();
    }
  });

  it('ignores the headers of a connection that is neither internal nor trusted', async () => {
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS);
    try {
      const v = await seen(s, {
        'x-test-addr': 'not-allowed-internal-proxy',
        'x-forwarded-for': '140.211.11.130, proxy1, proxy2',
        'x-forwarded-proto': 'https',
      });
      expect(v).toMatchObject({
        remoteAddr: 'not-allowed-internal-proxy',
        xff: '140.211.11.130, proxy1, proxy2',
        xfb: null,
        scheme: 'http',
        secure: false,
      });
    } finally {
      await s.close();
    }
  });

  it('trusts the real loopback connection with the default internalProxies', async () => {
    const s = await remoteIpServer({});
    try {
      expect(await seen(s, { 'x-forwarded-for': 'my-remote-addr', 'x-forwarded-proto': 'https' })).toMatchObject({
        remoteAddr: 'my-remote-addr',
        remoteHost: 'my-remote-addr',
        secure: true,
        scheme: 'https',
        serverPort: 443,
      });
    } finally {
      await s.close();
    }
  });

  it('keeps an empty entry as an empty address, as Tomcat does', async () => {
    const s = await remoteIpServer({});
    try {
      expect(await seen(s, { 'x-forwarded-for': '1.2.3.4,,10.0.0.1' })).toMatchObject({
        remoteAddr: '',
        xff: '1.2.3.4',
      });
    } finally {
      await s.close();
    }
  });
});

describe('RemoteIpFilter: protocol, port and host headers', () => {
  it('marks the request insecure with scheme http and httpServerPort when the protocol header says http', async () => {
    const s = await remoteIpServer({
      protocolHeader: 'x-forwarded-proto',
      remoteIpHeader: 'x-my-forwarded-for',
      httpServerPort: '8080',
    });
    try {
      const v = await seen(s, {
        'x-test-addr': '192.168.0.10',
        'x-test-scheme': 'https',
        'x-my-forwarded-for': '140.211.11.130',
        'x-forwarded-proto': 'http',
      });
      expect(v).toMatchObject({ secure: false, scheme: 'http', serverPort: 8080, remoteAddr: '140.211.11.130' });
    } finally {
      await s.close();
    }
  });

  it('compares the https value case-insensitively and requires every comma-separated value (and line) to be https', async () => {
    const s = await remoteIpServer({});
    try {
      expect(await seen(s, { 'x-forwarded-proto': 'HTTPS' })).toMatchObject({
        secure: true,
        scheme: 'https',
        serverPort: 443,
      });
      expect(await seen(s, { 'x-forwarded-proto': 'https, HTTPS' })).toMatchObject({ secure: true });
      expect(await seen(s, { 'x-forwarded-proto': 'https, http' })).toMatchObject({
        secure: false,
        scheme: 'http',
        serverPort: 80,
      });
      expect(await seen(s, { 'x-forwarded-proto': ['https', 'http'] })).toMatchObject({ secure: false });
      expect(await seen(s, { 'x-forwarded-proto': ',' })).toMatchObject({ secure: false, scheme: 'http' });
    } finally {
      await s.close();
    }
  });

  it('takes the server name from hostHeader (dropping a port) and the port from portHeader', async () => {
    const s = await remoteIpServer({
      hostHeader: 'x-forwarded-host',
      portHeader: 'x-forwarded-port',
      protocolHeader: 'x-forwarded-proto',
    });
    try {
      expect(
        await seen(s, {
          'x-test-addr': '192.168.0.10',
          'x-forwarded-host': 'example.com',
          'x-forwarded-port': '8443',
          'x-forwarded-proto': 'https',
        }),
      ).toMatchObject({
        serverName: 'example.com',
        scheme: 'https',
        serverPort: 8443,
        secure: true,
        requestURL: 'https://example.com:8443/test',
      });
      expect(
        await seen(s, {
          'x-test-addr': '192.168.0.10',
          'x-forwarded-host': 'example.com:8443',
          'x-forwarded-proto': 'https',
        }),
      ).toMatchObject({ serverName: 'example.com', serverPort: 443 });
      expect(await seen(s, { 'x-forwarded-host': '[2001:db8::1]:9443', 'x-forwarded-proto': 'http' })).toMatchObject({
        serverName: '[2001:db8::1]',
        serverPort: 80,
      });
    } finally {
      await s.close();
    }
  });

  it('ignores an invalid host header value and a port that is not a number', async () => {
    const s = await remoteIpServer({ hostHeader: 'x-forwarded-host', portHeader: 'x-forwarded-port' });
    try {
      const v = await seen(s, {
        host: 'origin.test:1234',
        'x-forwarded-host': 'bad host',
        'x-forwarded-port': 'abc',
        'x-forwarded-proto': 'https',
      });
      expect(v).toMatchObject({ serverName: 'origin.test', serverPort: 443 });
    } finally {
      await s.close();
    }
  });

  it('changes the local port and local name only when asked', async () => {
    const params = { hostHeader: 'x-forwarded-host', portHeader: 'x-forwarded-port' };
    const headers = { 'x-forwarded-host': 'front.example', 'x-forwarded-port': '8443', 'x-forwarded-proto': 'https' };
    const plain = await remoteIpServer(params);
    try {
      expect(await seen(plain, headers)).toMatchObject({
        localPort: plain.port,
        localName: '127.0.0.1',
        serverPort: 8443,
      });
    } finally {
      await plain.close();
    }
    const changing = await remoteIpServer({ ...params, changeLocalPort: 'true', changeLocalName: 'true' });
    try {
      expect(await seen(changing, headers)).toMatchObject({ localPort: 8443, localName: 'front.example' });
    } finally {
      await changing.close();
    }
  });

  it('leaves scheme, secure and port alone when the protocol header is absent or protocolHeader is empty', async () => {
    const s = await remoteIpServer({ protocolHeader: '' });
    try {
      expect(await seen(s, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '1.2.3.4' })).toMatchObject({
        scheme: 'http',
        secure: false,
        serverPort: s.port,
        remoteAddr: '1.2.3.4',
      });
    } finally {
      await s.close();
    }
  });

  it('makes a session cookie Secure when the proxy says https (Tomcat bug 66471)', async () => {
    const s = await serve({ filters: [declare(spec, create, {})] }, (req, res) => {
      const ex = exchangeOf(req)!;
      ex.request.getSession();
      res.end(String(ex.request.getAttribute('org.apache.catalina.filters.RemoteIpFilter.secure')));
    });
    try {
      const r = await request(s, '/x', {
        headers: { 'x-forwarded-for': 'my-remote-addr', 'x-forwarded-proto': 'https' },
      });
      expect(r.headers['set-cookie']![0]).toContain('; Secure');
      expect(r.body).toBe('true');
    } finally {
      await s.close();
    }
  });
});

describe('RemoteIpFilter: request attributes and restoring the request', () => {
  it('sets the AccessLog attributes, org.apache.tomcat.remoteAddr and the forwarded flag', async () => {
    const s = await serve(
      {
        filters: [
          asIf,
          declare(spec, create, {
            protocolHeader: 'x-forwarded-proto',
            remoteIpHeader: 'x-my-forwarded-for',
            httpServerPort: '8080',
          }),
        ],
      },
      reportWith((ex) => {
        const a = (n: string) => ex.request.getAttribute(n) ?? null;
        return [
          a('org.apache.catalina.AccessLog.RemoteAddr'),
          a('org.apache.tomcat.remoteAddr'),
          a('org.apache.catalina.AccessLog.RemoteHost'),
          a('org.apache.catalina.AccessLog.Protocol'),
          a('org.apache.catalina.AccessLog.ServerName'),
          a('org.apache.catalina.AccessLog.ServerPort'),
          a('org.apache.tomcat.request.forwarded'),
        ];
      }),
    );
    try {
      const r = await request(s, '/x', {
        headers: {
          host: 'h.test',
          'x-test-addr': '192.168.0.10',
          'x-my-forwarded-for': '140.211.11.130',
          'x-forwarded-proto': 'http',
        },
      });
      expect(JSON.parse(r.body)).toEqual([
        '140.211.11.130',
        '140.211.11.130',
        '140.211.11.130',
        'HTTP/1.1',
        'h.test',
        8080,
        true,
      ]);
    } finally {
      await s.close();
    }
  });

  it('restores address, host, scheme, port and headers for filters in front once the chain returns, keeping secure as Tomcat does', async () => {
    let after: unknown = null;
    const outer: RuntimeFilter = {
      name: 'Outer',
      doFilter(ex, next) {
        const result = next();
        after = { ...view(ex), attr: ex.request.getAttribute('org.apache.catalina.AccessLog.RemoteAddr') };
        return result;
      },
    };
    const s = await remoteIpServer(TOMCAT_TEST_PARAMS, [outer]);
    try {
      const inner = await seen(s, {
        host: 'h.test',
        'x-test-addr': '192.168.0.10',
        'x-forwarded-for': '140.211.11.130, proxy1',
        'x-forwarded-proto': 'https',
      });
      expect(inner).toMatchObject({ remoteAddr: '140.211.11.130', xfb: 'proxy1', scheme: 'https', serverPort: 443 });
      expect(after).toMatchObject({
        remoteAddr: '192.168.0.10',
        remoteHost: '192.168.0.10',
        xff: '140.211.11.130, proxy1',
        xfb: null,
        nodeXff: '140.211.11.130, proxy1',
        scheme: 'http',
        serverName: 'h.test',
        serverPort: 80,
        secure: true,
        attr: '140.211.11.130',
      });
    } finally {
      await s.close();
    }
  });

  it('keeps the forwarded values for an asynchronous handler and restores them when the response is over', async () => {
    let ex: Exchange | undefined;
    let afterClose: unknown = null;
    let closed!: () => void;
    const done = new Promise<void>((r) => (closed = r));
    const outer: RuntimeFilter = {
      name: 'Outer',
      doFilter(e, next) {
        ex = e;
        const result = next();
        e.res.once('close', () => {
          afterClose = e.request.remoteAddr;
          closed();
        });
        return result;
      },
    };
    const s = await serve({ filters: [outer, declare(spec, create, {})] }, (_req, res) => {
      setTimeout(() => res.end(JSON.stringify(view(ex!))), 20);
    });
    try {
      const r = await request(s, '/x', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(JSON.parse(r.body).remoteAddr).toBe('203.0.113.7');
      await done;
      expect(afterClose).toBe('127.0.0.1');
    } finally {
      await s.close();
    }
  });

  it('restores after an asynchronous filter further down the chain', async () => {
    let after: unknown = null;
    const outer: RuntimeFilter = {
      name: 'Outer',
      async doFilter(ex, next) {
        await next();
        after = ex.request.remoteAddr;
      },
    };
    const slow: RuntimeFilter = {
      name: 'Slow',
      async doFilter(_ex, next) {
        await new Promise((r) => setTimeout(r, 5));
        return next();
      },
    };
    const s = await serve({ filters: [outer, declare(spec, create, {}), slow] }, report);
    try {
      expect((await seen(s, { 'x-forwarded-for': '203.0.113.8' })).remoteAddr).toBe('203.0.113.8');
      expect(after).toBe('127.0.0.1');
    } finally {
      await s.close();
    }
  });
});

describe('RemoteIpFilter: hostile input', () => {
  it('walks a 10,000-entry X-Forwarded-For of internal addresses to its leftmost entry', async () => {
    const mw = createContextRuntime({ filters: [declare(spec, create, {})] });
    const server = http.createServer({ maxHeaderSize: 1 << 20 }, toNodeListener(mw, report));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const entries = Array.from({ length: 10_000 }, (_, i) => `10.0.${(i >> 8) & 255}.${i & 255}`);
      entries[0] = '198.51.100.1';
      const body = await new Promise<string>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, path: '/x', headers: { 'x-forwarded-for': entries.join(', ') }, agent: false },
          (res) => {
            let b = '';
            res.on('data', (c) => (b += c));
            res.on('end', () => resolve(b));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(JSON.parse(body)).toMatchObject({ remoteAddr: '198.51.100.1', xff: null });
    } finally {
      mw.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('passes garbage entries through as the client address without failing (a later RemoteAddr/CIDR filter must refuse them)', async () => {
    const s = await remoteIpServer({});
    try {
      expect(await seen(s, { 'x-forwarded-for': 'unknown' })).toMatchObject({ remoteAddr: 'unknown' });
      expect(await seen(s, { 'x-forwarded-for': '<script>, 10.0.0.1' })).toMatchObject({
        remoteAddr: '<script>',
        xff: null,
      });
    } finally {
      await s.close();
    }
  });

  it('matches proxies by whole address: an internal-looking prefix does not make an address internal', async () => {
    const s = await remoteIpServer({});
    try {
      expect(await seen(s, { 'x-forwarded-for': '1.2.3.4, 10.0.0.1.evil.example' })).toMatchObject({
        remoteAddr: '10.0.0.1.evil.example',
        xff: '1.2.3.4',
      });
    } finally {
      await s.close();
    }
  });
});

describe("hostPortIndex (Tomcat's Host.parse)", () => {
  it('finds the port separator in names, IPv4 and IPv6 literals and refuses what Tomcat refuses', () => {
    expect(hostPortIndex('example.com')).toBe(-1);
    expect(hostPortIndex('example.com:8443')).toBe(11);
    expect(hostPortIndex('example.com.')).toBe(-1);
    expect(hostPortIndex('my-host')).toBe(-1);
    expect(hostPortIndex('1.2.3.4:80')).toBe(7);
    expect(hostPortIndex('[::1]')).toBe(-1);
    expect(hostPortIndex('[::1]:8080')).toBe(5);
    for (const bad of [
      '',
      'bad host',
      '-x',
      'x-',
      '.x',
      'a..b',
      'x:y',
      '[::1',
      '[::1]x',
      '[fe80::1%eth0]',
      'a_b',
      'host:80:90',
    ]) {
      expect(hostPortIndex(bad), bad).toBeNull();
    }
  });
});
