import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { effectOf } from '../../src/lint/severity.js';
import { decodeXml, loadBase } from '../../src/parser/index.js';
import { planBase } from '../../src/plan/index.js';
import { app, cleanup, filter, lintFiles, tree } from './helpers.js';

afterAll(cleanup);

const server = (connectors: string, valves = ''): string =>
  `<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina">${connectors}<Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps">${valves}</Host></Engine></Service></Server>\n`;
const HTTP = '<Connector port="8080" protocol="HTTP/1.1"/>';
const HTTPS =
  '<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true"><SSLHostConfig><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>';
// Tomcat's own conf/web.xml ships this block (commented out): HSTS on by default, max-age unset.
const SHIPPED_HEADERS = filter('httpHeaderSecurity', 'HttpHeaderSecurityFilter');

const found = (files: Record<string, string>, ruleId: string) =>
  lintFiles(files)
    .filter((d) => d.ruleId === ruleId)
    .map((d) => ({ line: d.span.line, severity: d.severity, effect: effectOf(d) }));

describe('hsts-max-age-zero: HSTS is sent on secure requests only', () => {
  it('is quiet on the shipped header block when no connector is secure and nothing takes the scheme from a proxy', () => {
    expect(found({ 'conf/server.xml': server(HTTP), ...app(SHIPPED_HEADERS) }, 'hsts-max-age-zero')).toEqual([]);
  });

  it('is an error when a TLS connector sends the header with max-age=0', () => {
    expect(found({ 'conf/server.xml': server(HTTP + HTTPS), ...app(SHIPPED_HEADERS) }, 'hsts-max-age-zero')).toEqual([
      { line: 5, severity: 'error', effect: 'misbehaves' },
    ]);
  });

  it('is an error behind a TLS proxy: a secure="true" connector, a RemoteIpValve or a RemoteIpFilter makes requests secure', () => {
    const behindProxy = [
      { 'conf/server.xml': server('<Connector port="8080" secure="true" scheme="https"/>'), ...app(SHIPPED_HEADERS) },
      {
        'conf/server.xml': server(HTTP, '<Valve className="org.apache.catalina.valves.RemoteIpValve"/>'),
        ...app(SHIPPED_HEADERS),
      },
      { 'conf/server.xml': server(HTTP), ...app(filter('ip', 'RemoteIpFilter') + SHIPPED_HEADERS) },
    ];
    for (const files of behindProxy) expect(found(files, 'hsts-max-age-zero')).toHaveLength(1);
  });

  it("is quiet when the RemoteIpFilter is another application's: it makes only its own application's requests secure", () => {
    const files = {
      'conf/server.xml': server(HTTP),
      ...app(SHIPPED_HEADERS),
      'webapps/other/WEB-INF/web.xml': app(filter('ip', 'RemoteIpFilter'))['webapps/app/WEB-INF/web.xml']!,
    };
    expect(found(files, 'hsts-max-age-zero')).toEqual([]);
  });

  it('is an error when the base has no server.xml (whether requests are secure is unknown)', () => {
    expect(found(app(SHIPPED_HEADERS), 'hsts-max-age-zero')).toHaveLength(1);
  });
});

const users = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">\n${body}\n</tomcat-users>\n`;
const constrained = (role: string) =>
  `<security-constraint><web-resource-collection><web-resource-name>all</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection><auth-constraint><role-name>${role}</role-name></auth-constraint></security-constraint><security-role><role-name>${role}</role-name></security-role>`;

describe('user-default-credentials: an error where the login opens something', () => {
  it('warns (weakens) for the example users whose roles no deployed application names', () => {
    const files = {
      'conf/tomcat-users.xml': users(
        '  <user username="tomcat" password="tomcat" roles="tomcat"/>\n  <user username="role1" password="tomcat" roles="role1"/>',
      ),
      ...app(''),
    };
    expect(found(files, 'user-default-credentials')).toEqual([
      { line: 3, severity: 'warning', effect: 'weakens' },
      { line: 4, severity: 'warning', effect: 'weakens' },
    ]);
  });

  it('is an error for a manager or admin role, deployed or not, and for a role an application uses', () => {
    const files = {
      'conf/tomcat-users.xml': users(
        '  <user username="admin" password="admin" roles="manager-gui"/>\n  <user username="tomcat" password="tomcat" roles="tomcat"/>',
      ),
      ...app(constrained('tomcat')),
    };
    expect(found(files, 'user-default-credentials')).toEqual([
      { line: 3, severity: 'error', effect: 'misbehaves' },
      { line: 4, severity: 'error', effect: 'misbehaves' },
    ]);
  });
});

describe('a UTF-16 file that declares another encoding (Tomcat: "Content is not allowed in prolog")', () => {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n</web-app>\n';
  const utf16 = (text: string, le = true) =>
    le
      ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
      : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

  it('is an xml-encoding error at the declared name, for either byte order', () => {
    for (const le of [true, false]) {
      const { diagnostics } = decodeXml(utf16(xml, le), 'web.xml');
      expect(diagnostics.map((d) => [d.ruleId, d.severity, d.span.line, d.span.column, d.span.endColumn])).toEqual([
        ['xml-encoding', 'error', 1, 31, 36],
      ]);
      expect(diagnostics[0]!.message).toContain(`saved as UTF-16${le ? 'LE' : 'BE'}`);
    }
  });

  it('is quiet when a UTF-16 file declares UTF-16 or nothing', () => {
    expect(decodeXml(utf16(xml.replace('UTF-8', 'UTF-16')), 'w').diagnostics).toEqual([]);
    expect(decodeXml(utf16(xml.replace(' encoding="UTF-8"', '')), 'w').diagnostics).toEqual([]);
  });

  it('refuses the context in the plan, so compile and serve do not run it', () => {
    const root = tree({ 'webapps/app/index.html': 'hi' });
    mkdirSync(`${root}/webapps/app/WEB-INF`, { recursive: true });
    writeFileSync(`${root}/webapps/app/WEB-INF/web.xml`, utf16(xml));
    const c = planBase(loadBase({ base: root })).contexts.find((x) => x.contextPath === '/app')!;
    expect(c.state).toBe('refused');
    expect(c.reasons.map((d) => d.ruleId)).toEqual(['xml-encoding']);
  });
});

describe('judgements on what a filter was meant to cover (hand-made cases recorded on Tomcat 10.1.60)', () => {
  const hostFilter = filter('hosts', 'RemoteHostFilter', { allow: '.*\\.example\\.com' });

  it('RemoteHostFilter: a host-name pattern no address can match is an error when no connector looks names up', () => {
    expect(found({ 'conf/server.xml': server(HTTP), ...app(hostFilter) }, 'address-regex-matches-nothing')).toEqual([
      { line: 6, severity: 'error', effect: 'misbehaves' },
    ]);
    const message = lintFiles({ 'conf/server.xml': server(HTTP), ...app(hostFilter) }).find(
      (d) => d.ruleId === 'address-regex-matches-nothing',
    )!.message;
    expect(message).toContain('enableLookups');
  });

  it('RemoteHostFilter: quiet with enableLookups="true", with a pattern that also matches addresses, or without server.xml', () => {
    const lookups = server('<Connector port="8080" protocol="HTTP/1.1" enableLookups="true"/>');
    expect(found({ 'conf/server.xml': lookups, ...app(hostFilter) }, 'address-regex-matches-nothing')).toEqual([]);
    const both = filter('hosts', 'RemoteHostFilter', { allow: '.*\\.example\\.com|127\\.0\\.0\\.1' });
    expect(found({ 'conf/server.xml': server(HTTP), ...app(both) }, 'address-regex-matches-nothing')).toEqual([]);
    expect(found(app(hostFilter), 'address-regex-matches-nothing')).toEqual([]);
  });

  it('a filter mapped to "/admin*" is an error: it matches that literal path only, never /admin/...', () => {
    const mapped = `  <filter><filter-name>guard</filter-name><filter-class>org.apache.catalina.filters.RemoteAddrFilter</filter-class><init-param><param-name>allow</param-name><param-value>127\\.0\\.0\\.1</param-value></init-param></filter>\n  <filter-mapping><filter-name>guard</filter-name><url-pattern>/admin*</url-pattern></filter-mapping>`;
    expect(found(app(mapped), 'unusual-url-pattern')).toEqual([{ line: 4, severity: 'error', effect: 'misbehaves' }]);
  });

  it('a filter mapped to "*" (Tomcat alone reads it as every URL) stays a warning', () => {
    const star = `  <filter><filter-name>h</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class><init-param><param-name>hstsMaxAgeSeconds</param-name><param-value>1</param-value></init-param></filter>\n  <filter-mapping><filter-name>h</filter-name><url-pattern>*</url-pattern></filter-mapping>`;
    expect(found(app(star), 'unusual-url-pattern')).toEqual([{ line: 4, severity: 'warning', effect: 'ignores' }]);
  });
});
