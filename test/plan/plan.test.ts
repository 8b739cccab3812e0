import { opendirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBase } from '../../src/parser/index.js';
import { planBase, routeOf, type Plan } from '../../src/plan/index.js';
import { app, cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

const webXml = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const plan = (files: Record<string, string>): Plan => planBase(loadBase({ base: tree(files) }));
const stateOf = (p: Plan, path: string) => p.contexts.find((c) => c.contextPath === path)!;

describe('planBase decides what Tomcat starts', () => {
  it('starts a context whose only findings are lint findings Tomcat starts with', () => {
    // CorsFilter with any origin: a warning at most; HttpHeaderSecurityFilter before RemoteIpFilter: a lint error.
    const p = plan({
      ...app(
        filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*' }) +
          filter('h', 'HttpHeaderSecurityFilter') +
          filter('ip', 'RemoteIpFilter'),
      ),
    });
    const c = stateOf(p, '/app');
    expect(c.state).toBe('starts');
    expect(c.reasons).toEqual([]);
    expect(c.run!.filters.map((f) => f.filterName)).toEqual(['cors', 'h', 'ip']);
    expect(p.skipped).toEqual([]);
  });

  it('refuses a context whose filter init fails (a fatal parameter), with file:line:column of the value', () => {
    const p = plan({
      ...app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' })),
      'webapps/ok/WEB-INF/web.xml': webXml(''),
    });
    const c = stateOf(p, '/app');
    expect(c.state).toBe('refused');
    expect(c.run).toBeNull();
    expect(c.reasons.map((d) => [d.ruleId, d.span.line])).toEqual([['filter-param-invalid', 6]]);
    expect(stateOf(p, '/ok').state).toBe('starts');
    expect(p.skipped).toEqual([
      expect.objectContaining({
        contextPath: '/app',
        state: 'refused',
        reason: expect.stringMatching(
          /^Tomcat does not start it: webapps\/app\/WEB-INF\/web\.xml:6:\d+: hstsMaxAgeSeconds/,
        ),
      }),
    ]);
  });

  it('refuses a context whose web.xml names an external DTD Tomcat will not read (observed: "Could not resolve XML resource", startup failed)', () => {
    const p = plan({
      'webapps/ext/WEB-INF/web.xml':
        '<?xml version="1.0"?>\n<!DOCTYPE web-app SYSTEM "file:///etc/hostname">\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n',
      'webapps/pub/WEB-INF/web.xml':
        '<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">\n<web-app/>\n',
    });
    expect([stateOf(p, '/ext').state, stateOf(p, '/pub').state]).toEqual(['refused', 'starts']);
    expect(stateOf(p, '/ext').reasons.map((d) => [d.ruleId, d.span.line])).toEqual([['xml-external-dtd', 2]]);
  });

  it('an unknown parameter refuses a context only where the filter treats it as fatal', () => {
    const p = plan({
      'webapps/fatal/WEB-INF/web.xml': webXml(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAge: '60' })),
      'webapps/logged/WEB-INF/web.xml': webXml(filter('e', 'ExpiresFilter', { ExpiresDefualt: 'access plus 1 day' })),
      'webapps/ignored/WEB-INF/web.xml': webXml(
        filter('c', 'CorsFilter', { 'cors.allowed.origin': 'https://a.example' }),
      ),
    });
    expect([stateOf(p, '/fatal').state, stateOf(p, '/logged').state, stateOf(p, '/ignored').state]).toEqual([
      'refused',
      'starts',
      'starts',
    ]);
  });

  it('a randomClass the common class loader cannot find refuses the context; one under lib/ starts it', () => {
    const csrf = webXml(filter('csrf', 'RestCsrfPreventionFilter', { randomClass: 'com.example.MyRandom' }));
    const missing = plan({ 'webapps/app/WEB-INF/web.xml': csrf });
    expect([stateOf(missing, '/app').state, stateOf(missing, '/app').reasons[0]!.message]).toEqual([
      'refused',
      expect.stringContaining('Tomcat cannot load com.example.MyRandom'),
    ]);
    const present = plan({ 'webapps/app/WEB-INF/web.xml': csrf, 'lib/com/example/MyRandom.class': '' });
    expect(stateOf(present, '/app').state).toBe('starts');
  });

  it('inits every defined filter, mapped or not', () => {
    const p = plan(app(filter('h', 'HttpHeaderSecurityFilter', { antiClickJackingOption: 'NOPE' }, false)));
    expect(stateOf(p, '/app').state).toBe('refused');
  });

  it('refuses a malformed web.xml and a malformed tomcat-web.xml, pointing at the parse error', () => {
    const p = plan({
      'webapps/a/WEB-INF/web.xml': '<web-app>\n  <filter>\n</web-app>\n',
      'webapps/b/WEB-INF/web.xml': webXml(''),
      'webapps/b/WEB-INF/tomcat-web.xml': '<web-app><!-- -- --></web-app>',
    });
    const a = stateOf(p, '/a');
    expect([a.state, a.reasons[0]!.ruleId, a.reasons[0]!.span.file]).toEqual([
      'refused',
      'xml-malformed',
      join(p.base.base, 'webapps', 'a', 'WEB-INF', 'web.xml'),
    ]);
    expect(stateOf(p, '/b').state).toBe('refused');
    expect(stateOf(p, '/b').reasons[0]!.span.file).toMatch(/tomcat-web\.xml$/);
  });

  it('refuses what StandardContext refuses: duplicate filter names, undefined filters, invalid url-patterns, a pattern mapped twice', () => {
    const p = plan({
      'webapps/dup/WEB-INF/web.xml': webXml(
        filter('x', 'SessionInitializerFilter') + filter('x', 'SessionInitializerFilter'),
      ),
      'webapps/undef/WEB-INF/web.xml': webXml(
        '<filter-mapping><filter-name>nope</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
      ),
      'webapps/pattern/WEB-INF/web.xml': webXml(
        '<filter><filter-name>s</filter-name><filter-class>org.apache.catalina.filters.SessionInitializerFilter</filter-class></filter><filter-mapping><filter-name>s</filter-name><url-pattern>/*.do</url-pattern></filter-mapping>',
      ),
      'webapps/twice/WEB-INF/web.xml': webXml(
        '<servlet><servlet-name>a</servlet-name><servlet-class>x.A</servlet-class></servlet><servlet-mapping><servlet-name>a</servlet-name><url-pattern>/x</url-pattern></servlet-mapping><servlet-mapping><servlet-name>a</servlet-name><url-pattern>/x</url-pattern></servlet-mapping>',
      ),
    });
    expect(
      ['/dup', '/undef', '/pattern', '/twice'].map((c) => [c, stateOf(p, c).state, stateOf(p, c).reasons[0]?.ruleId]),
    ).toEqual([
      ['/dup', 'refused', 'duplicate-filter-name'],
      ['/undef', 'refused', 'filter-mapping-undefined-filter'],
      ['/pattern', 'refused', 'invalid-url-pattern'],
      ['/twice', 'refused', 'duplicate-servlet-mapping'],
    ]);
  });

  it("a class in Tomcat's filter package that does not exist refuses the context; an unknown class of the application starts on Tomcat but does not run on Node", () => {
    const custom = '<filter><filter-name>c</filter-name><filter-class>com.example.Custom</filter-class></filter>';
    const p = plan({
      'webapps/typo/WEB-INF/web.xml': webXml(filter('c', 'CorsFiltre')),
      'webapps/custom/WEB-INF/web.xml': webXml(custom),
    });
    expect([stateOf(p, '/typo').state, stateOf(p, '/typo').reasons[0]!.ruleId]).toEqual([
      'refused',
      'unknown-filter-class',
    ]);
    const c = stateOf(p, '/custom');
    expect([c.state, c.run, c.unrunnable]).toEqual([
      'starts',
      null,
      'filter "c" (com.example.Custom) has no Node implementation',
    ]);
    expect(p.skipped.find((s) => s.contextPath === '/custom')!.reason).toMatch(
      /^Tomcat starts it, but tollgate cannot run it/,
    );
  });

  it('a fatal problem in a global filter refuses every context that inits it; an application that replaces the filter starts', () => {
    const global = webXml(filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'x' }));
    const own = webXml(
      '<filter><filter-name>headers</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class><init-param><param-name>hstsMaxAgeSeconds</param-name><param-value>60</param-value></init-param></filter>',
    );
    const p = plan({
      'conf/web.xml': global,
      'webapps/a/WEB-INF/web.xml': webXml(''),
      'webapps/b/index.html': 'b',
      'webapps/fixed/WEB-INF/web.xml': own,
    });
    expect(p.contexts.map((c) => [c.contextPath, c.state])).toEqual([
      ['/a', 'refused'],
      ['/b', 'refused'],
      ['/fixed', 'starts'],
    ]);
    expect(stateOf(p, '/a').reasons[0]!.span.file).toBe(join(p.base.base, 'conf', 'web.xml'));
  });

  it('a lint-only finding in conf/web.xml (RemoteIpFilter after an address filter) blocks nothing', () => {
    const global = webXml(filter('h', 'HttpHeaderSecurityFilter') + filter('ip', 'RemoteIpFilter'));
    const p = plan({ 'conf/web.xml': global, 'webapps/a/WEB-INF/web.xml': webXml(''), 'webapps/b/index.html': 'b' });
    expect(p.contexts.map((c) => c.state)).toEqual(['starts', 'starts']);
    expect(p.plans.map((c) => c.filters.map((f) => f.filterName))).toEqual([
      ['h', 'ip'],
      ['h', 'ip'],
    ]);
  });

  it('a malformed server.xml: the server does not start, nor any context, with the parse error as the reason', () => {
    const p = plan({
      'conf/server.xml':
        '<Server port="-1">\n<Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"></Hots></Engine></Service></Server>',
      'webapps/a/index.html': 'a',
    });
    expect(p.server.state).toBe('refused');
    expect(p.server.reasons[0]!.span.line).toBe(2);
    expect(p.contexts.every((c) => c.state === 'refused' && c.reasons[0] === p.server.reasons[0])).toBe(true);
    expect(p.plans).toEqual([]);
  });

  it('a server.xml class Tomcat cannot load refuses the server and every context, as a parse error does (observed: the digester stops, "Cannot start server")', () => {
    const p = plan({
      'conf/server.xml':
        '<Server port="-1">\n<Listener className="org.apache.catalina.core.JasperListener"/>\n<Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"><Valve className="org.apache.catalina.valves.AccessLogValv"/></Host></Engine></Service></Server>',
      'webapps/a/index.html': 'a',
    });
    expect(p.server.state).toBe('refused');
    expect(p.server.reasons.map((d) => [d.ruleId, d.span.line])).toEqual([['server-class-not-found', 2]]);
    expect(p.contexts.every((c) => c.state === 'refused')).toBe(true);
    expect(p.plans).toEqual([]);
  });

  it('a malformed META-INF/context.xml refuses its context', () => {
    const p = plan({ 'webapps/a/META-INF/context.xml': '<Context>\n<Valve </Context>', 'webapps/b/index.html': 'b' });
    expect(p.contexts.map((c) => [c.contextPath, c.state])).toEqual([
      ['/a', 'refused'],
      ['/b', 'starts'],
    ]);
    expect(stateOf(p, '/a').reasons[0]!.span.file).toMatch(/META-INF\/context\.xml$/);
  });

  it('a malformed conf/context.xml or context.xml.default refuses every context of the host, as Tomcat does ("Parse error in context.xml for [/x]", observed: test/fixtures/tomcat-observed/rules.json)', () => {
    const p = plan({
      'conf/context.xml': '<Context>\n<WatchedResource>WEB-INF/web.xml</WatchedResource>\n',
      'webapps/a/index.html': 'a',
      'webapps/b/index.html': 'b',
    });
    expect(p.server.state).toBe('starts');
    expect(p.contexts.map((c) => [c.contextPath, c.state])).toEqual([
      ['/a', 'refused'],
      ['/b', 'refused'],
    ]);
    expect(stateOf(p, '/a').reasons[0]!.span.file).toMatch(/conf\/context\.xml$/);
    expect(p.plans).toEqual([]);
    const host = plan({
      'conf/Catalina/localhost/context.xml.default': '<Context><Valve</Context>',
      'webapps/a/index.html': 'a',
    });
    expect(stateOf(host, '/a').state).toBe('refused');
    expect(stateOf(host, '/a').reasons[0]!.span.file).toMatch(/context\.xml\.default$/);
  });

  it('a digester stop in conf/web.xml fails the first context the host deploys only (Tomcat caches the defaults per host)', () => {
    const global = webXml(
      filter('x', 'SessionInitializerFilter', {}, false) + filter('x', 'SessionInitializerFilter', {}, false),
    );
    const p = plan({ 'conf/web.xml': global, 'webapps/only/index.html': 'a' });
    expect(stateOf(p, '/only').state).toBe('refused');
    expect(stateOf(p, '/only').reasons[0]!.ruleId).toBe('duplicate-filter-name');
    const two = plan({ 'conf/web.xml': global, 'webapps/a/index.html': 'a', 'webapps/b/index.html': 'b' });
    expect(two.contexts.filter((c) => c.state === 'refused').length).toBe(1);
  });

  it('a descriptor tollgate did not read (over 8 MiB) leaves its context unrun, not run without it', () => {
    const p = plan({
      'webapps/big/WEB-INF/web.xml': webXml(`<!-- ${'x'.repeat(9 * 1024 * 1024)} -->`),
      'webapps/ok/index.html': 'ok',
    });
    const big = stateOf(p, '/big');
    expect([big.state, big.run]).toEqual(['starts', null]);
    expect(big.unrunnable).toMatch(/^tollgate did not read webapps\/big\/WEB-INF\/web\.xml, which Tomcat reads/);
    expect(stateOf(p, '/ok').run).not.toBeNull();
  });

  it('a malformed conf/web.xml fails the first context the host deploys, in the order the file system lists appBase; a context whose own file Tomcat cannot parse never reads it', () => {
    // Observed on Tomcat 10.1.60 with webapps listed as charlie, ROOT, bravo, alpha, delta and a malformed
    // conf/Catalina/localhost/delta.xml: delta failed to deploy, charlie failed on conf/web.xml, the others
    // started with the defaults read up to the error (no servlet mapping yet, so every request got 404).
    const truncated = webXml(
      '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet>',
    ).replace('</web-app>', '<servlet-mapping>');
    const dir = tree({
      'conf/web.xml': truncated,
      'conf/Catalina/localhost/delta.xml': '<Context>\n<Valve </Context>\n',
      'webapps/alpha/index.html': 'a',
      'webapps/bravo/index.html': 'b',
      'webapps/charlie/index.html': 'c',
      'webapps/delta/index.html': 'd',
    });
    const p = planBase(loadBase({ base: dir }));
    const d = opendirSync(join(dir, 'webapps'));
    const order: string[] = [];
    for (let e = d.readSync(); e !== null; e = d.readSync()) order.push(e.name);
    d.closeSync();
    const first = order.find((n) => n !== 'delta')!;
    expect(
      p.contexts
        .filter((c) => c.state === 'refused')
        .map((c) => [c.name, c.reasons[0]!.span.file.slice(dir.length + 1)])
        .sort(),
    ).toEqual(
      [
        [first, join('conf', 'web.xml')],
        ['delta', join('conf', 'Catalina', 'localhost', 'delta.xml')],
      ].sort(),
    );
    expect(p.plans.every((r) => r.table.servletMappings.length === 0)).toBe(true);
  });

  it('routes a request past contexts that did not start, to the longest started one', () => {
    const p = plan({
      'webapps/ROOT/index.html': 'r',
      'webapps/a/WEB-INF/web.xml': '<web-app>',
      'webapps/a#b/index.html': 'ab',
    });
    const host = p.hosts[0]!;
    expect(routeOf(host, '/a/x')!.contextPath).toBe('');
    expect(routeOf(host, '/a/b/x')!.contextPath).toBe('/a/b');
    expect(host).toMatchObject({ name: 'localhost', appBase: 'webapps', appBasePath: join(p.base.base, 'webapps') });
  });

  it('carries what compile and serve run: table, MIME map, welcome files, error pages', () => {
    const p = plan(
      app(
        '<mime-mapping><extension>Foo</extension><mime-type>text/x-foo</mime-type></mime-mapping><welcome-file-list><welcome-file>home.html</welcome-file></welcome-file-list><error-page><error-code>404</error-code><location>/nf.html</location></error-page>',
      ),
    );
    const run = stateOf(p, '/app').run!;
    expect(run.mimeMappings['foo']).toBe('text/x-foo');
    expect(run.welcomeFiles).toEqual(['home.html']);
    expect(run.errorPages.map((e) => [e.errorCode, e.location])).toEqual([[404, '/nf.html']]);
    expect(run.fileName).toBe('localhost/app.mjs');
    expect(run.sources).toEqual([join('webapps', 'app', 'WEB-INF', 'web.xml')]);
  });
});
