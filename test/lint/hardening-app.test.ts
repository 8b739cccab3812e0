import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { profileLevel, PROFILE_BENCHMARK } from '../../src/lint/profiles.js';
import { ruleById } from '../../src/lint/rules/index.js';
import type { Profile } from '../../src/lint/types.js';
import type { Diagnostic } from '../../src/model/index.js';
import { fixtureFiles, HARDENING_APP_CASE_IDS } from './hardening-app-cases.js';
import { hardenedCopy, ownAccounts } from './hardened-copy.js';
import { needPackages } from '../system-packages.js';
import { cleanup, lintFiles, tree } from './helpers.js';

afterAll(cleanup);

/** The profile a rule is judged in: recommended, unless only a benchmark asks for it. */
function profileOf(rule: string): Profile {
  const meta = ruleById(rule)!.meta;
  if (profileLevel(meta, 'recommended') !== 'off') return 'recommended';
  return (Object.keys(PROFILE_BENCHMARK) as (keyof typeof PROFILE_BENCHMARK)[]).find(
    (p) => profileLevel(meta, p) !== 'off',
  )!;
}

const of = (rule: string, files: Record<string, string>, profile: Profile = profileOf(rule)): Diagnostic[] =>
  lintFiles(files, { profile }).filter((d) => d.ruleId === rule);

describe('each web.xml / tomcat-users.xml hardening rule on its fixtures (test/fixtures/hardening/rules)', () => {
  // The findings of the others on their failing fixture (at their places, with their messages) and their
  // silence on the passing one are pinned in rule-positions.test.ts, which lints each fixture once; these two
  // judge the copier's modes and owners, which rule-positions leaves out.
  const ON_DISK = new Set(['file-mode-too-open', 'file-owner-unexpected']);
  for (const rule of HARDENING_APP_CASE_IDS) {
    if (ON_DISK.has(rule)) {
      it(`${rule}: reported on the failing configuration, in the ${profileOf(rule)} profile`, () => {
        expect(of(rule, fixtureFiles(rule, 'fail')).length).toBeGreaterThan(0);
      });
      it(`${rule}: silent on the passing one`, () => {
        expect(of(rule, fixtureFiles(rule, 'pass'))).toEqual([]);
      });
    }
    if (profileOf(rule) !== 'recommended') {
      it(`${rule}: quiet in the recommended profile (Tomcat ships without what the benchmark asks)`, () => {
        expect(of(rule, fixtureFiles(rule, 'fail'), 'recommended')).toEqual([]);
      });
    }
  }

  it('errors only where Tomcat exposes the server to a remote attacker (a writable DefaultServlet, default credentials, remote JMX without a password) or certainly does not do what is written (a clear-text password the digesting realm never matches)', () => {
    const errors = [...HARDENING_APP_CASE_IDS].filter((r) =>
      of(r, fixtureFiles(r, 'fail')).some((d) => d.severity === 'error'),
    );
    expect(errors.sort()).toEqual([
      'default-servlet-writable',
      'jmx-remote-unprotected',
      'user-default-credentials',
      'user-plaintext-password',
    ]);
  });
});

const WEB = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const SERVER = (connectors: string) =>
  `<Server port="-1"><Service name="Catalina">${connectors}<Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n`;
const HTTP = '<Connector port="8080" protocol="HTTP/1.1"/>';
const TLS =
  '<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true"><SSLHostConfig><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>';
const DEFAULT = (params = '') =>
  `<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class>${params}</servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>`;
const param = (name: string, value: string) =>
  `<init-param><param-name>${name}</param-name><param-value>${value}</param-value></init-param>`;
const headers = (name: string, params = '') =>
  `<filter><filter-name>${name}</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class>${params}</filter><filter-mapping><filter-name>${name}</filter-name><url-pattern>/*</url-pattern></filter-mapping>`;
const constraint = (pattern: string, inner: string, extra = '') =>
  `<security-constraint><web-resource-collection><web-resource-name>r</web-resource-name><url-pattern>${pattern}</url-pattern>${inner}</web-resource-collection><auth-constraint><role-name>u</role-name></auth-constraint>${extra}</security-constraint>`;
const LOGIN = '<login-config><auth-method>BASIC</auth-method></login-config>';

describe('DefaultServlet flags are read as Tomcat reads them', () => {
  it('takes readonly="no" as writable (Boolean.parseBoolean) and readonly="TRUE" as read-only', () => {
    expect(of('default-servlet-writable', { 'conf/web.xml': WEB(DEFAULT(param('readonly', 'no'))) })).toHaveLength(1);
    expect(of('default-servlet-writable', { 'conf/web.xml': WEB(DEFAULT(param('readonly', 'TRUE'))) })).toEqual([]);
  });

  it('judges a WebdavServlet like the DefaultServlet it extends, and leaves an unmapped one alone', () => {
    const webdav = `<servlet><servlet-name>dav</servlet-name><servlet-class>org.apache.catalina.servlets.WebdavServlet</servlet-class>${param('readonly', 'false')}</servlet>`;
    expect(
      of('default-servlet-writable', {
        'webapps/app/WEB-INF/web.xml': WEB(
          `${webdav}<servlet-mapping><servlet-name>dav</servlet-name><url-pattern>/dav/*</url-pattern></servlet-mapping>`,
        ),
      }),
    ).toHaveLength(1);
    expect(of('default-servlet-writable', { 'webapps/app/WEB-INF/web.xml': WEB(webdav) })).toEqual([]);
  });

  it("reports conf/web.xml's servlet once however many applications inherit it", () => {
    const apps = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`webapps/a${i}/index.html`, 'x']));
    expect(
      of('default-servlet-listings', { 'conf/web.xml': WEB(DEFAULT(param('listings', 'true'))), ...apps }),
    ).toHaveLength(1);
  });

  it('resolves ${...} before judging', () => {
    const files = {
      'conf/catalina.properties': 'listing.flag=true\n',
      'conf/web.xml': WEB(DEFAULT(param('listings', '${listing.flag}'))),
    };
    expect(of('default-servlet-listings', files)).toHaveLength(1);
  });
});

describe('http-method-uncovered follows SecurityConstraint.findUncoveredHttpMethods', () => {
  const app = (body: string) => ({ 'webapps/app/WEB-INF/web.xml': WEB(body + LOGIN) });

  it('says which methods stay open for a method list and for an omission list', () => {
    expect(
      of('http-method-uncovered', app(constraint('/a/*', '<http-method>GET</http-method>')))[0]!.message,
    ).toContain('every method but GET');
    expect(
      of('http-method-uncovered', app(constraint('/a/*', '<http-method-omission>TRACE</http-method-omission>')))[0]!
        .message,
    ).toContain('TRACE reach');
  });

  it('is silent when a method-less constraint covers the same pattern, or an omitted method is listed elsewhere', () => {
    expect(
      of('http-method-uncovered', app(constraint('/a/*', '<http-method>GET</http-method>') + constraint('/a/*', ''))),
    ).toEqual([]);
    expect(
      of(
        'http-method-uncovered',
        app(
          constraint('/a/*', '<http-method-omission>GET</http-method-omission>') +
            constraint('/a/*', '<http-method>GET</http-method>'),
        ),
      ),
    ).toEqual([]);
  });

  it('is silent when the application denies uncovered methods', () => {
    expect(
      of(
        'http-method-uncovered',
        app('<deny-uncovered-http-methods/>' + constraint('/a/*', '<http-method>GET</http-method>')),
      ),
    ).toEqual([]);
  });
});

describe('logins over clear text judge the effective transport', () => {
  const app = (body: string, connectors = HTTP) => ({
    'conf/server.xml': SERVER(connectors),
    'webapps/app/WEB-INF/web.xml': WEB(body + LOGIN),
  });
  const confidential =
    '<user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint>';

  it('is silent when every connector is TLS', () => {
    expect(of('login-without-confidential-transport', app(constraint('/a/*', ''), TLS))).toEqual([]);
    expect(of('login-without-confidential-transport', app(constraint('/a/*', ''), `${HTTP}${TLS}`))).toHaveLength(1);
  });

  it('counts a pattern as protected only when every constraint naming it asks for TLS (RealmBase.hasUserDataPermission)', () => {
    expect(of('login-without-confidential-transport', app(constraint('/a/*', '', confidential)))).toEqual([]);
    const unguarded = `<security-constraint><web-resource-collection><web-resource-name>r</web-resource-name><url-pattern>/a/*</url-pattern></web-resource-collection></security-constraint>`;
    expect(
      of('login-without-confidential-transport', app(constraint('/a/*', '', confidential) + unguarded)),
    ).toHaveLength(1);
  });

  it('takes the login-config from conf/web.xml when the application has none', () => {
    const files = {
      'conf/server.xml': SERVER(HTTP),
      'conf/web.xml': WEB(LOGIN),
      'webapps/app/WEB-INF/web.xml': WEB(constraint('/a/*', '')),
    };
    expect(of('login-without-confidential-transport', files)).toHaveLength(1);
  });
});

describe('hsts-disabled and security-header-disabled judge the chain, not one filter', () => {
  const manager = WEB(
    `${headers('HTTP header security filter', param('hstsEnabled', 'false') + param('antiClickJackingEnabled', 'false'))}`,
  );
  const global = (params = param('hstsMaxAgeSeconds', '31536000')) =>
    WEB(DEFAULT() + headers('httpHeaderSecurity', params));

  it("is silent on the manager's hstsEnabled=false when conf/web.xml's header filter sends HSTS for the same requests", () => {
    const files = {
      'conf/server.xml': SERVER(HTTP + TLS),
      'conf/web.xml': global(),
      'webapps/manager/WEB-INF/web.xml': manager,
    };
    expect(of('hsts-disabled', files)).toEqual([]);
    expect(of('security-header-disabled', files)).toEqual([]);
  });

  it('reports it when the global filter is missing, or has HSTS off too', () => {
    const base = { 'conf/server.xml': SERVER(HTTP + TLS), 'webapps/manager/WEB-INF/web.xml': manager };
    expect(of('hsts-disabled', { ...base, 'conf/web.xml': WEB(DEFAULT()) })).toHaveLength(1);
    expect(of('hsts-disabled', { ...base, 'conf/web.xml': global(param('hstsEnabled', 'false')) })).toHaveLength(2);
    expect(of('security-header-disabled', { ...base, 'conf/web.xml': WEB(DEFAULT()) })).toHaveLength(1);
  });

  it('is silent on hstsEnabled=false when no connector makes a request secure (HSTS is only sent on those)', () => {
    expect(
      of('hsts-disabled', {
        'conf/server.xml': SERVER(HTTP),
        'conf/web.xml': WEB(DEFAULT()),
        'webapps/manager/WEB-INF/web.xml': manager,
      }),
    ).toEqual([]);
  });
});

describe('tomcat-users.xml', () => {
  const users = (body: string) => `<?xml version="1.0"?>\n<tomcat-users>\n${body}\n</tomcat-users>\n`;
  const realm = (handler: string) =>
    `<Server port="-1"><Service name="C">${HTTP}<Engine name="C" defaultHost="localhost"><Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase">${handler}</Realm><Host name="localhost" appBase="webapps"/></Engine></Service></Server>`;
  const digest =
    'e49332de463c645b8eb0314d872b83ff$100000$e1a4f3a4487cfae0af53be5e6aa9fee7b722cbe15b3a10f9af7c104085041604';

  it("reports the examples' users of old Tomcat versions and the manager pages' tomcat/s3cret: errors where the login opens something, warnings where no deployed application uses the roles", () => {
    const found = of('user-default-credentials', {
      'conf/tomcat-users.xml': users(
        '<user username="both" password="tomcat" roles="tomcat,role1"/><user username="tomcat" password="s3cret" roles="manager-gui"/>',
      ),
    });
    // tomcat and role1 are named by no deployed application (issue 30: the error was a false alarm); manager-gui always counts.
    expect(found.map((d) => d.severity)).toEqual(['warning', 'error']);
  });

  it('user-plaintext-password: a digest where the realm compares plain text is the password itself', () => {
    const files = {
      'conf/server.xml': realm(''),
      'conf/tomcat-users.xml': users(`<user username="ops" password="${digest}" roles="manager-script"/>`),
    };
    expect(of('user-plaintext-password', files)[0]!.message).toContain('the digest itself is the password');
    expect(
      of('user-plaintext-password', {
        ...files,
        'conf/server.xml': realm(
          '<CredentialHandler className="org.apache.catalina.realm.SecretKeyCredentialHandler" algorithm="PBKDF2WithHmacSHA512"/>',
        ),
      }),
    ).toEqual([]);
  });

  it('does not report a default-credential user twice', () => {
    const files = { 'conf/tomcat-users.xml': users('<user username="admin" password="admin" roles="manager-gui"/>') };
    expect(of('user-plaintext-password', files)).toEqual([]);
    expect(of('user-default-credentials', files)).toHaveLength(1);
  });

  it('user-role-unused counts the roles of conf/web.xml and every application, and says nothing while a WAR is unread', () => {
    const files = {
      'conf/tomcat-users.xml': users('<user username="a" password="x" roles="app,other"/>'),
      'webapps/app/WEB-INF/web.xml': WEB('<security-role><role-name>app</role-name></security-role>'),
    };
    expect(of('user-role-unused', files).map((d) => d.message)).toEqual([expect.stringContaining('"other"')]);
    expect(of('user-role-unused', { ...files, 'webapps/packed.war': 'PK' })).toEqual([]);
  });
});

/** What the STIG finds in Debian's manager and host manager (tomcat10-admin 10.1.60) besides their transport and timeout. */
const DEBIAN_MANAGER_STIG = [
  'manager-max-sessions conf/Catalina/localhost/host-manager.xml:18',
  'manager-max-sessions conf/Catalina/localhost/manager.xml:18',
  'manager-not-client-cert tomcat10-admin/host-manager/WEB-INF/web.xml:115',
  'manager-not-client-cert tomcat10-admin/manager/WEB-INF/web.xml:176',
  'manager-realm-not-ldap conf/server.xml:139',
  'manager-sample-error-pages tomcat10-admin/host-manager/WEB-INF/jsp/401.jsp:47',
  'manager-sample-error-pages tomcat10-admin/host-manager/WEB-INF/jsp/403.jsp:66',
  'manager-sample-error-pages tomcat10-admin/manager/WEB-INF/jsp/401.jsp:47',
  'manager-sample-error-pages tomcat10-admin/manager/WEB-INF/jsp/403.jsp:67',
];

/** The rules that judge modes and owners: a copy made by a test has the copier's, so Debian's own are judged on the installed base (hardening-files.test.ts). */
const ON_DISK = new Set(['file-mode-too-open', 'file-owner-unexpected']);

/** This file's rules' findings in a base, as "rule file:line" with the file from conf/ or webapps/ on. */
function ours(
  dir: string,
  profile: Profile,
  opts: { accounts?: ReturnType<typeof ownAccounts>; onDisk?: boolean } = {},
): string[] {
  // Debian's context files name /usr/share/tomcat10-admin: a trusted installation, read with --follow-symlinks.
  return lintBase(loadInput(dir, { followSymlinks: true }), {
    profile,
    ...(opts.accounts ? { accounts: opts.accounts } : {}),
  })
    .diagnostics.filter(
      (d) => HARDENING_APP_CASE_IDS.has(d.ruleId) && (opts.onDisk !== false || !ON_DISK.has(d.ruleId)),
    )
    .map((d) => `${d.ruleId} ${d.span.file.replace(/^.*\/(conf|webapps|tomcat10-admin)\//, '$1/')}:${d.span.line}`)
    .sort();
}

describe('the hardened fixture (test/fixtures/hardening/hardened, laid out on disk by hardened-copy.ts)', () => {
  const { dir, accounts } = hardenedCopy();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const profile of ['recommended', 'cis', 'stig'] as const) {
    it(`has no finding of the rules with fixtures here with --profile ${profile} (its comments name insecure values)`, () => {
      expect(ours(dir, profile, { accounts })).toEqual([]);
    });
  }
});

describe("Debian's stock configuration (/etc/tomcat10 with tomcat10-admin's manager and host-manager)", () => {
  // .ci/run installs them; without one this fails with a line naming it rather than passing on nothing.
  // tomcat10-docs: conf/Catalina/localhost/docs.xml deploys /usr/share/tomcat10-docs/docs, which the cis
  // and stig profiles judge.
  const stock = (): string => {
    needPackages('tomcat10', 'tomcat10-admin', 'tomcat10-docs');
    const dir = tree({});
    cpSync('/etc/tomcat10', join(dir, 'conf'), { recursive: true });
    mkdirSync(join(dir, 'webapps'));
    for (const app of ['manager', 'host-manager'])
      cpSync(join('/usr/share/tomcat10-admin', app), join(dir, 'webapps', app), { recursive: true });
    return dir;
  };
  const manager = [
    'manager-without-confidential-transport tomcat10-admin/host-manager/WEB-INF/web.xml:115',
    'manager-without-confidential-transport tomcat10-admin/manager/WEB-INF/web.xml:176',
  ];

  it('gets, in the recommended profile, only the manager and host manager asking for BASIC logins over plain HTTP (observed: 401 Basic on port 8080)', () => {
    expect(ours(stock(), 'recommended', { onDisk: false })).toEqual(manager);
  });

  it('gets, in the cis profile, CIS 2.5 (no Throwable error page), 10.11 (no TLS for all applications) 7.1 (no logging.properties in the docs, manager and host-manager applications), 10.5 (the manager at /manager), 5.1 (the UserDatabaseRealm) and 1.1 (tomcat10-docs deployed by docs.xml) besides', () => {
    const ownLog = ['/usr/share/tomcat10-docs/docs', 'tomcat10-admin/host-manager', 'tomcat10-admin/manager'].map(
      (a) => `app-logging-missing ${a}/WEB-INF/web.xml:1`,
    );
    expect(ours(stock(), 'cis', { onDisk: false })).toEqual(
      [
        ...ownLog,
        'error-page-throwable-missing conf/web.xml:18',
        ...manager,
        'transport-not-confidential conf/web.xml:18',
        'manager-default-path conf/Catalina/localhost/manager.xml:18',
        'realm-insecure conf/server.xml:139',
        'sample-apps-deployed conf/Catalina/localhost/docs.xml:18',
        'server-info-default conf/server.xml:1',
      ].sort(),
    );
  });

  it('gets, in the stig profile, V-222928 (no HSTS filter), V-222932 (no Secure cookie-config), V-222979 (30-minute manager sessions) V-222936 (no Security Manager: Debian starts without -security unless SECURITY_MANAGER=true), and for the manager and host manager V-222926 (no session limit), V-222962 (no LDAP realm), V-222976 (the 401/403 pages print the sample s3cret user) and V-222993 (BASIC, not CLIENT-CERT), and V-222960 (the documentation, deployed by docs.xml) besides', () => {
    expect(ours(stock(), 'stig', { onDisk: false })).toEqual(
      [
        'hsts-missing conf/web.xml:18',
        'security-manager-off conf/server.xml:1',
        'sample-apps-deployed conf/Catalina/localhost/docs.xml:18',
        'server-info-default conf/server.xml:1',
        ...DEBIAN_MANAGER_STIG,
        'session-cookie-not-secure conf/web.xml:18',
        'manager-session-timeout tomcat10-admin/host-manager/WEB-INF/web.xml:18',
        'manager-session-timeout tomcat10-admin/manager/WEB-INF/web.xml:18',
        ...manager,
      ].sort(),
    );
  });
});
