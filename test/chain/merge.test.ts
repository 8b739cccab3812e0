import { describe, expect, it } from 'vitest';
import { javaHashMapOrder, mergeWebApp, type MergedWebApp } from '../../src/chain/index.js';
import {
  appXml,
  filter,
  globalXml,
  hostXml,
  mapping,
  mime,
  servlet,
  servletMapping,
  STANDARD_GLOBAL,
  timeout,
  webXml,
  welcome,
} from './helpers.js';

const names = (m: MergedWebApp): string[] => m.filterMappings.map((x) => `${x.filterName}:${x.origin}`);
const params = (m: MergedWebApp, name: string): Record<string, string> =>
  Object.fromEntries(m.filters.get(name)!.initParams.map((p) => [p.name.value, p.value.value]));
const errors = (m: MergedWebApp): string[] => m.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId);

describe('filter mappings', () => {
  const global = globalXml(
    STANDARD_GLOBAL + filter('G1') + filter('G2') + mapping('G2', { servlets: ['default'] }) + mapping('G1'),
  );

  it("puts the app's mappings first, then the global ones", () => {
    const m = mergeWebApp(global, null, appXml(filter('A') + mapping('A')));
    expect(names(m)).toEqual(['A:app', 'G2:global', 'G1:global']);
    expect(m.startup).toBe('starts');
  });

  it('drops a global mapping for a filter name the app maps itself, even without defining it', () => {
    const m = mergeWebApp(global, null, appXml(mapping('G1', { urls: ['/x/*'] })));
    expect(names(m)).toEqual(['G1:app', 'G2:global']);
    expect(m.filters.get('G1')!.origin).toBe('global');
  });

  it('appends the host defaults after conf/web.xml, as one descriptor', () => {
    const host = hostXml(filter('HD') + mapping('HD'));
    expect(names(mergeWebApp(global, host, appXml(filter('A') + mapping('A'))))).toEqual([
      'A:app',
      'G2:global',
      'G1:global',
      'HD:host',
    ]);
  });

  it('reads dispatchers case-insensitively, ignores unknown ones, and defaults to REQUEST', () => {
    const m = mergeWebApp(
      global,
      null,
      appXml(
        filter('A') +
          mapping('A', { urls: ['/*'], dispatchers: ['forward', 'BOGUS'] }) +
          mapping('G1', { urls: ['/*'], dispatchers: ['REQUESTS'] }),
      ),
    );
    expect(m.filterMappings[0]!.dispatchers).toEqual(['FORWARD']);
    expect(m.filterMappings[1]!.dispatchers).toEqual(['REQUEST']);
    expect(m.filterMappings[1]!.dispatcherMask).toBe(1);
  });

  it('decodes url-patterns and keeps the written text as the source', () => {
    const m = mergeWebApp(
      global,
      null,
      appXml(filter('A') + mapping('A', { urls: ['/enc%20dir/*', '*'], servlets: ['*', 'jsp'] })),
    );
    const a = m.filterMappings[0]!;
    expect(a.urlPatterns.map((u) => [u.pattern, u.kind, u.source.value])).toEqual([
      ['/enc dir/*', 'path', '/enc%20dir/*'],
      ['*', 'all', '*'],
    ]);
    expect(a.allServlets).toBe(true);
    expect(a.servletNames).toEqual(['jsp']);
  });
});

describe('filter definitions', () => {
  const global = globalXml(
    STANDARD_GLOBAL + filter('G1', { probe: 'global', extra: 'from-global' }, 'org.example.Global') + mapping('G1'),
  );

  it("keeps the app's class and params and inherits the params it does not set", () => {
    const m = mergeWebApp(global, null, appXml(filter('G1', { probe: 'app' }, 'org.example.App')));
    const f = m.filters.get('G1')!;
    expect(f.origin).toBe('app');
    expect(f.className?.value).toBe('org.example.App');
    expect(params(m, 'G1')).toEqual({ probe: 'app', extra: 'from-global' });
    expect(names(m)).toEqual(['G1:global']);
  });

  it('gives an app filter without a class the class of the same-named global filter', () => {
    const m = mergeWebApp(global, null, appXml(filter('G1', { probe: 'classless' }, null)));
    expect(m.filters.get('G1')!.className?.value).toBe('org.example.Global');
    expect(m.startup).toBe('starts');
  });

  it('refuses a filter that ends up without a class', () => {
    const m = mergeWebApp(global, null, appXml(filter('NC', {}, null) + mapping('NC')));
    expect(m.startup).toBe('fails');
    expect(errors(m)).toContain('webxml-missing-element');
  });

  it('keeps the last value of an init-param written twice', () => {
    const m = mergeWebApp(
      global,
      null,
      appXml(
        filter('A', {}).replace(
          '</filter>',
          '<init-param><param-name>k</param-name><param-value>1</param-value></init-param><init-param><param-name>k</param-name><param-value>2</param-value></init-param></filter>',
        ),
      ),
    );
    expect(params(m, 'A')).toEqual({ k: '2' });
  });

  it('leaves the shared defaults untouched when an app inherits from them', () => {
    mergeWebApp(global, null, appXml(filter('G1', { probe: 'app' })));
    expect(params(mergeWebApp(global, null, null), 'G1')).toEqual({ probe: 'global', extra: 'from-global' });
  });
});

describe('where Tomcat stops reading a descriptor', () => {
  const global = globalXml(STANDARD_GLOBAL + filter('G1') + mapping('G1'));

  it('stops the application for a filter name defined twice in its web.xml', () => {
    const m = mergeWebApp(global, null, appXml(filter('X') + filter('X', { second: 'yes' }) + mapping('X')));
    expect(m.startup).toBe('fails');
    const d = m.diagnostics.find((x) => x.ruleId === 'duplicate-filter-name')!;
    expect(d.message).toMatch(/does not start the application/);
    expect(d.related?.[0]?.span.line).toBe(3);
  });

  it('fails only the first context of the host for a duplicate across conf/web.xml and web.xml.default, and ignores the rest of the file', () => {
    const host = hostXml(filter('HD') + filter('G1') + mapping('HD') + welcome('home.html'));
    const m = mergeWebApp(global, host, null);
    expect(m.startup).toBe('first-on-host-fails');
    expect(m.diagnostics.find((d) => d.ruleId === 'duplicate-filter-name')!.message).toMatch(
      /first application the host deploys fails/,
    );
    expect(m.filters.has('HD')).toBe(true);
    expect(names(m)).toEqual(['G1:global']);
    expect(m.welcomeFiles).toEqual(['index.html']);
  });

  it('has already replaced a servlet mapping when it stops at the duplicate', () => {
    const host = hostXml(servlet('probe') + servletMapping('probe', '/') + filter('HD') + mapping('HD'));
    const m = mergeWebApp(global, host, null);
    expect(m.startup).toBe('first-on-host-fails');
    expect(m.servletMappings.get('/')!.servletName).toBe('probe');
    expect(m.filters.has('HD')).toBe(false);
    expect(errors(m)).toContain('duplicate-servlet-mapping');
  });

  it('stops at a bad %-escape and at a session timeout that is not a Java int', () => {
    expect(errors(mergeWebApp(global, null, appXml(filter('Q') + mapping('Q', { urls: ['/x%zz'] }))))).toContain(
      'invalid-url-pattern',
    );
    for (const t of ['abc', '4.0', '99999999999', '']) {
      const m = mergeWebApp(global, null, appXml(timeout(t)));
      expect(m.startup, t).toBe('fails');
      expect(errors(m)).toContain('webxml-invalid-value');
    }
  });

  it('refuses a url-pattern mapped twice in one web.xml, even to the same servlet', () => {
    expect(mergeWebApp(global, null, appXml(servlet('one') + servletMapping('one', '/x', '/x'))).startup).toBe('fails');
  });
});

describe('what the context refuses after merging', () => {
  const global = globalXml(STANDARD_GLOBAL);
  it.each([
    ['a mapping to an undefined filter', mapping('Nope'), 'filter-mapping-undefined-filter'],
    ['a mapping with no target', filter('T') + mapping('T', {}), 'webxml-missing-element'],
    ['an invalid filter url-pattern', filter('T') + mapping('T', { urls: ['*.do/x'] }), 'invalid-url-pattern'],
    ['a pattern without a slash', filter('T') + mapping('T', { urls: ['foo'] }), 'invalid-url-pattern'],
    [
      'a servlet mapping to an undefined servlet',
      servletMapping('ghost', '/ghost'),
      'servlet-mapping-undefined-servlet',
    ],
    ['"*" as a servlet url-pattern', servlet('s') + servletMapping('s', '*'), 'invalid-url-pattern'],
  ])('%s', (_what, body, rule) => {
    const m = mergeWebApp(global, null, appXml(body));
    expect(m.startup).toBe('fails');
    expect(errors(m)).toContain(rule);
  });

  it('accepts "*" as a filter url-pattern', () => {
    expect(mergeWebApp(global, null, appXml(filter('U') + mapping('U', { urls: ['*'] }))).startup).toBe('starts');
  });

  it('lets an app define a filter a global mapping names', () => {
    const g = globalXml(STANDARD_GLOBAL + mapping('Late'));
    expect(mergeWebApp(g, null, null).startup).toBe('fails');
    expect(mergeWebApp(g, null, appXml(filter('Late'))).startup).toBe('starts');
  });
});

describe('servlets and servlet mappings', () => {
  const global = globalXml(
    STANDARD_GLOBAL + servlet('probe', { a: 'global', b: 'global' }) + servletMapping('probe', '/probe'),
  );

  it("replaces the global mapping of a pattern the app maps, and keeps the servlet's other global patterns", () => {
    const m = mergeWebApp(global, null, appXml(servlet('myjsp') + servletMapping('myjsp', '*.jsp')));
    expect(m.servletMappings.get('*.jsp')!.servletName).toBe('myjsp');
    expect(m.servletMappings.get('*.jspx')!.servletName).toBe('jsp');
  });

  it('drops every global mapping of a servlet the app maps itself', () => {
    const m = mergeWebApp(global, null, appXml(servletMapping('default', '/static/*')));
    expect(m.servletMappings.has('/')).toBe(false);
    expect(m.servletMappings.get('/static/*')!.servletName).toBe('default');
  });

  it('lets web.xml.default replace a global servlet definition whole, not merge it', () => {
    const m = mergeWebApp(global, hostXml(servlet('probe', { a: 'host' })), null);
    expect(m.servlets.get('probe')!.initParams.map((p) => p.name.value)).toEqual(['a']);
    expect(m.servlets.get('probe')!.origin).toBe('host');
  });

  it('lets an app servlet inherit the class and params it leaves out', () => {
    const m = mergeWebApp(global, null, appXml(servlet('probe', { a: 'app' }, null)));
    const s = m.servlets.get('probe')!;
    expect(s.className?.value).toBe('org.example.S');
    expect(s.initParams.map((p) => `${p.name.value}=${p.value.value}`)).toEqual(['a=app', 'b=global']);
  });

  it('adds the missing "/" to servlet url-patterns of a Servlet 2.2 descriptor', () => {
    const old = webXml(
      servlet('svc') + servletMapping('svc', 'svc'),
      '/base/webapps/old/WEB-INF/web.xml',
      '<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.2//EN" "http://java.sun.com/j2ee/dtds/web-app_2_2.dtd">\n<web-app>',
    );
    const m = mergeWebApp(global, null, old);
    expect(m.servletMappings.get('/svc')!.servletName).toBe('svc');
    expect(m.startup).toBe('starts');
    expect(mergeWebApp(global, null, appXml(servlet('svc') + servletMapping('svc', 'svc'))).startup).toBe('fails');
  });
});

describe('welcome files, session timeout, MIME types', () => {
  const global = globalXml(STANDARD_GLOBAL + timeout('30') + mime('xyz', 'text/x-global') + mime('abc', 'text/x-abc'));

  it("replaces the global welcome files with the app's, and the host's replace the global ones", () => {
    expect(mergeWebApp(global, null, appXml(welcome('start.html'))).welcomeFiles).toEqual(['start.html']);
    expect(mergeWebApp(global, hostXml(welcome('home.html')), null).welcomeFiles).toEqual(['home.html']);
    expect(mergeWebApp(global, hostXml(welcome('home.html')), appXml('')).welcomeFiles).toEqual(['home.html']);
  });

  it('joins repeated welcome-file lists, drops duplicates and empty entries', () => {
    expect(
      mergeWebApp(global, null, appXml(welcome('a.html', 'b.html') + welcome('a.html', '') + welcome('c.html')))
        .welcomeFiles,
    ).toEqual(['a.html', 'b.html', 'c.html']);
  });

  it('takes the session timeout from the app, else the host, else conf/web.xml, else 30', () => {
    expect(mergeWebApp(global, hostXml(timeout('7')), appXml(timeout('3'))).sessionTimeoutMinutes).toBe(3);
    expect(mergeWebApp(global, hostXml(timeout('7')), appXml('')).sessionTimeoutMinutes).toBe(7);
    expect(mergeWebApp(globalXml(STANDARD_GLOBAL), null, null).sessionTimeoutMinutes).toBe(30);
    expect(mergeWebApp(global, null, appXml(timeout('+4'))).sessionTimeoutMinutes).toBe(4);
    expect(mergeWebApp(global, null, appXml(timeout('-1'))).sessionTimeoutMinutes).toBe(-1);
    expect(mergeWebApp(global, null, appXml(timeout(' 5 '))).sessionTimeoutMinutes).toBe(5);
    // Integer.valueOf reads any Unicode decimal digit (Java 17: Integer.parseInt("٣٠") is 30).
    expect(mergeWebApp(global, null, appXml(timeout('٣٠'))).sessionTimeoutMinutes).toBe(30);
  });

  it('lets the app and the host override MIME types per extension, lower-cased', () => {
    const m = mergeWebApp(
      global,
      hostXml(mime('abc', 'text/x-host')),
      appXml(mime('xyz', 'text/x-app') + mime('QQ', 'text/x-qq')),
    );
    expect(Object.fromEntries(m.mimeMappings)).toEqual({ xyz: 'text/x-app', abc: 'text/x-host', qq: 'text/x-qq' });
  });

  it('resolves extensions that differ only in case by Java hash order, and warns (observed: an app "XYZ" loses to a global "xyz")', () => {
    const m = mergeWebApp(global, null, appXml(mime('XYZ', 'text/x-app')));
    expect(m.mimeMappings.get('xyz')).toBe('text/x-global');
    expect(m.diagnostics.find((d) => d.ruleId === 'mime-mapping-case-conflict')?.severity).toBe('warning');
  });
});

describe('javaHashMapOrder (java.util.HashMap iteration order, checked against Java 17)', () => {
  it.each([
    [['XYZ', 'xyz'], 2, 'XYZ,xyz'],
    [['xyz', 'XYZ'], 2, 'xyz,XYZ'],
    [['Html', 'html', 'HTML', 'css', 'js'], 5, 'css,Html,js,html,HTML'],
    [['Png', 'png'], 0, 'Png,png'],
  ])('%j with %i direct puts iterates as %s', (keys, direct, expected) => {
    expect(javaHashMapOrder(keys, direct).join(',')).toBe(expected);
  });

  it('follows a resize during direct puts and a putAll after them', () => {
    const keys = [...Array.from({ length: 13 }, (_, i) => `e${i}`), 'PNG', 'png', 'gif'];
    expect(javaHashMapOrder(keys, 14).filter((k) => k.toLowerCase() === 'png')).toEqual(['PNG', 'png']);
  });
});

describe('tomcat-web.xml and missing descriptors', () => {
  const global = globalXml(
    STANDARD_GLOBAL + filter('G1') + filter('G2') + mapping('G2', { servlets: ['default'] }) + mapping('G1'),
  );

  it('merges WEB-INF/tomcat-web.xml after web.xml and before the defaults', () => {
    const tomcatWeb = webXml(
      filter('T') +
        mapping('T') +
        mapping('G1', { urls: ['/nothing/*'] }) +
        filter('G2', { probe: 'tomcat-web', x: 'y' }),
      '/base/webapps/app/WEB-INF/tomcat-web.xml',
    );
    const m = mergeWebApp(global, null, appXml(filter('A') + mapping('A') + filter('G2', { probe: 'app' })), tomcatWeb);
    expect(names(m)).toEqual(['A:app', 'T:tomcat-web', 'G1:tomcat-web', 'G2:global']);
    expect(params(m, 'G2')).toEqual({ probe: 'app', x: 'y' });
  });

  it("assumes Tomcat's stock conf/web.xml when there is none", () => {
    const m = mergeWebApp(null, null, appXml(filter('A') + mapping('A')));
    expect(m.servletMappings.get('/')!.servletName).toBe('default');
    expect(m.servletMappings.get('*.jsp')!.servletName).toBe('jsp');
    expect(m.welcomeFiles).toEqual(['index.html', 'index.htm', 'index.jsp']);
    expect(m.startup).toBe('starts');
  });

  it('shares the defaults between applications that add nothing to them', () => {
    const a = mergeWebApp(global, null, null);
    const b = mergeWebApp(global, null, appXml(''));
    expect(b.filterMappings).toBe(a.filterMappings);
    expect(b.filters).toBe(a.filters);
    expect(b.mimeMappings).toBe(a.mimeMappings);
  });
});
