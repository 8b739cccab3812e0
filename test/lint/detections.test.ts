/**
 * Mistakes Tomcat 10.1 starts with and then silently gets wrong (or refuses), each observed on a
 * running Tomcat 10.1.60 (the rule's doc page says what was seen), found by the rule named.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/model/index.js';
import { app, cleanup, filter, lintFiles } from './helpers.js';

afterAll(cleanup);

const only = (id: string, files: Record<string, string>): Diagnostic[] =>
  lintFiles(files).filter((d) => d.ruleId === id);
const server = (body: string) =>
  `<?xml version="1.0"?>\n<Server port="-1">\n${body}\n<Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service>\n</Server>\n`;
const descriptor = (body: string) =>
  `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>`;

describe('address-regex-matches-nothing', () => {
  it('reports an allow pattern no address can match (127.0.01 refuses every client, observed 403) as an error', () => {
    const [d, ...rest] = only(
      'address-regex-matches-nothing',
      app(filter('r', 'RemoteAddrFilter', { allow: '127.0.01' })),
    );
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ severity: 'error', message: expect.stringContaining('every request is refused') });
  });
  it('decides on the form Tomcat gives: IPv6 only in full, host names for RemoteHostFilter, condensed IPv6 for the proxies of X-Forwarded-For', () => {
    expect(
      only('address-regex-matches-nothing', app(filter('r', 'RemoteAddrFilter', { allow: '0:0:0:0:0:0:0:01' }))),
    ).toHaveLength(1);
    expect(
      only(
        'address-regex-matches-nothing',
        app(filter('r', 'RemoteAddrFilter', { allow: '0:0:0:0:0:0:0:1|127\\.0\\.0\\.1' })),
      ),
    ).toEqual([]);
    expect(
      only('address-regex-matches-nothing', app(filter('r', 'RemoteHostFilter', { allow: '.*\\.example\\.com' }))),
    ).toEqual([]);
    expect(
      only('address-regex-matches-nothing', app(filter('r', 'RemoteHostFilter', { deny: 'bad host' }))),
    ).toHaveLength(1);
    expect(
      only('address-regex-matches-nothing', app(filter('r', 'RemoteIpFilter', { trustedProxies: '::1' }))),
    ).toEqual([]);
    expect(
      only(
        'address-regex-matches-nothing',
        app(filter('r', 'RemoteIpFilter', { internalProxies: '10\\.0\\.0\\.256' })),
      ),
    ).toHaveLength(1);
  });
  it('leaves a pattern written for the condensed ::1 to remote-addr-ipv6-form, which says how to write it', () => {
    const ds = lintFiles(app(filter('r', 'RemoteAddrFilter', { allow: '::1' })));
    expect(ds.map((d) => d.ruleId)).toContain('remote-addr-ipv6-form');
    expect(ds.map((d) => d.ruleId)).not.toContain('address-regex-matches-nothing');
  });
});

describe('address-regex-bare-dot', () => {
  it('is an error, with an example, when an unescaped dot lets the pattern match host names its escaped form does not (Tomcat starts and allows them)', () => {
    const [d] = only('address-regex-bare-dot', app(filter('r', 'RemoteHostFilter', { allow: '.*.example.com' })));
    expect(d).toMatchObject({ severity: 'error' });
    expect(d!.message).toMatch(/also matches the host name "[^"]*example[^".][^"]*com"/);
  });
  it('notes (info) an unescaped dot that, among addresses as Tomcat gives them, matches only a dot', () => {
    const [d] = only('address-regex-bare-dot', app(filter('r', 'RemoteAddrFilter', { allow: '127.0.0.1' })));
    expect(d).toMatchObject({ severity: 'info' });
  });
  it('is silent on escaped dots, dots in a class, quoted dots and wildcards (.* and .+)', () => {
    for (const allow of ['127\\.0\\.0\\.1', '127[.]0[.]0[.]1', '\\Q127.0.0.1\\E', '10\\..*', '10\\..+']) {
      expect(only('address-regex-bare-dot', app(filter('r', 'RemoteAddrFilter', { allow }))), allow).toEqual([]);
    }
  });
});

describe('cidr-host-bits', () => {
  it('points at the entry with host bits set and names the network Tomcat really uses', () => {
    const [d, ...rest] = only(
      'cidr-host-bits',
      app(filter('c', 'RemoteCIDRFilter', { allow: '192.168.0.0/16, 10.1.2.3/24, 2001:db8::1/64' })),
    );
    expect(rest).toHaveLength(1);
    expect(d!.message).toContain('10.1.2.0/24 (256 addresses)');
    expect(d!.message).toContain('10.1.2.3/32');
    expect(d!.span.endOffset - d!.span.offset).toBe('10.1.2.3/24'.length);
    expect(rest[0]!.message).toContain('2001:db8:0:0:0:0:0:0/64');
  });
});

describe('expires-negative-duration', () => {
  it('is an error when the rule adds up to the past (observed: max-age=-3600), an info when a negative part only subtracts', () => {
    const ds = only(
      'expires-negative-duration',
      app(
        filter('e', 'ExpiresFilter', {
          'ExpiresByType text/html': 'access plus -1 hours',
          'ExpiresByType text/css': 'access plus 1 hours -2 minutes',
          ExpiresDefault: 'access plus 1 day',
        }),
      ),
    );
    expect(ds.map((d) => d.severity).sort()).toEqual(['error', 'info']);
    expect(ds.find((d) => d.severity === 'error')!.message).toContain('max-age=-3600');
    expect(ds.find((d) => d.severity === 'info')!.message).toContain('3480 s');
  });
});

describe('cors-preflight-maxage-negative', () => {
  it('warns that a negative max-age drops the Access-Control-Max-Age header (observed)', () => {
    const [d] = only(
      'cors-preflight-maxage-negative',
      app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.preflight.maxage': '-1' })),
    );
    expect(d).toMatchObject({ severity: 'warning', message: expect.stringContaining('Access-Control-Max-Age') });
  });
});

describe('global-filter-redefined', () => {
  const global = descriptor(
    filter('g', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus 2 hours' }).replace(
      '<url-pattern>/*</url-pattern>',
      '<url-pattern>/index.html</url-pattern>',
    ),
  );
  it('reports, in each application that redefines the name with another class, at its definition, with the global one as related information', () => {
    const files = {
      'conf/web.xml': global,
      'webapps/a/WEB-INF/web.xml': descriptor(filter('g', 'AddDefaultCharsetFilter', {}, false)),
      'webapps/b/WEB-INF/web.xml': descriptor(filter('g', 'AddDefaultCharsetFilter')),
      'webapps/c/WEB-INF/web.xml': descriptor(filter('mine', 'AddDefaultCharsetFilter')),
    };
    const ds = only('global-filter-redefined', files);
    expect(ds.map((d) => d.span.file.split('/').at(-3))).toEqual(['a', 'b']);
    for (const d of ds) expect(d.related?.[0]?.span.file).toMatch(/conf\/web\.xml$/);
    // a: unmapped by the app, so conf/web.xml's mapping runs the app's class (observed: charset added to /index.html).
    expect(ds[0]!.message).toMatch(
      /replaces org\.apache\.catalina\.filters\.ExpiresFilter.*ExpiresByType text\/html.*\(\/index\.html\) now apply this definition/,
    );
    // b: mapped by the app, so conf/web.xml's mapping is dropped (observed: /index.html lost its Expires header).
    expect(ds[1]!.message).toContain('are dropped for this application');
  });
  it('is silent on a redefinition with the same class, the way one application changes the global settings', () => {
    const files = {
      'conf/web.xml': global,
      'webapps/a/WEB-INF/web.xml': descriptor(
        filter('g', 'ExpiresFilter', { 'ExpiresByType text/plain': 'access plus 5 minutes' }),
      ),
    };
    expect(only('global-filter-redefined', files)).toEqual([]);
  });
});

describe('server-class-not-found with the classes of Tomcat 10.1.60', () => {
  it('refuses a misspelt listener (observed: "Cannot start server") and suggests the class', () => {
    const [d] = only('server-class-not-found', {
      'conf/server.xml': server('<Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListenr"/>'),
    });
    expect(d).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('Did you mean org.apache.catalina.storeconfig.StoreConfigLifecycleListener?'),
    });
  });
  it('refuses a class of the wrong kind, and accepts stock classes under either package name', () => {
    const [d] = only('server-class-not-found', {
      'conf/server.xml': server('<Listener className="org.apache.catalina.valves.AccessLogValve"/>'),
    });
    expect(d!.message).toContain('is a Valve class, not a Listener');
    const ok = server(
      '<Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListener"/><Listener className="org.vendor.container.core.AprLifecycleListener"/>',
    );
    expect(only('server-class-not-found', { 'conf/server.xml': ok })).toEqual([]);
  });
});
