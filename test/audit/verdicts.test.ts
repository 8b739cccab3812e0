/**
 * Each control the assessor's review found wrong (issue 31), with a configuration the check text
 * fails and one it passes, run through `tollgate audit` for the benchmark(s) it belongs to.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { cleanup, tree } from '../lint/helpers.js';
import { makeZip } from '../security/zip.js';

interface Entry {
  control: string;
  status: string;
  message: string;
  question?: string;
  reason?: string;
  notes: string[];
  evidence: { subject: string; found: string; at?: { file: string; line: number } }[];
  findings: { file: string; line: number; ruleId: string; message: string }[];
  accepted: { justification: string; by?: string; expires?: string; expired: boolean; source: string }[];
  conflicts: { benchmark: string; control: string }[];
}

interface Report {
  tool: { name: string; version: string };
  date: string;
  target: string;
  release: { release: string; title: string };
  controls: Entry[];
}

afterEach(() => cleanup());

async function audit(dir: string, benchmark: string, ...extra: string[]): Promise<Report> {
  let out = '';
  let err = '';
  await main(['audit', dir, '--benchmark', benchmark, '--format', 'json', ...extra], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: dir,
  });
  expect(err).toBe('');
  return JSON.parse(out) as Report;
}

async function control(dir: string, benchmark: string, id: string, ...extra: string[]): Promise<Entry> {
  return (await audit(dir, benchmark, ...extra)).controls.find((c) => c.control === id)!;
}

const server = (inner: string, attrs = 'port="-1" shutdown="x"', listeners = ''): string =>
  `<Server ${attrs}>${listeners}<Service name="C">${inner}</Service></Server>\n`;
const engine = (
  host = '<Host name="localhost" appBase="webapps" autoDeploy="false" deployXML="false"/>',
  realms = '',
): string => `<Engine name="C" defaultHost="localhost">${realms}${host}</Engine>`;

describe('CAT I controls the check text fails', () => {
  it('V-222968: fails without FIPSMode="on" whatever the ciphers, passes with it on the lifecycle listener', async () => {
    const tls = `<Connector port="8443" SSLEnabled="true"><SSLHostConfig protocols="TLSv1.2" ciphers="HIGH"><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>${engine()}`;
    const without = tree({ 'conf/server.xml': server(tls) });
    const fail = await control(without, 'stig-tomcat', 'V-222968');
    expect(fail.status).toBe('fail');
    expect(fail.findings[0]!.message).toContain('FIPSMode="on"');
    const withFips = tree({
      'conf/server.xml': server(
        tls,
        undefined,
        '<Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" FIPSMode="on"/>',
      ),
    });
    const pass = await control(withFips, 'stig-tomcat', 'V-222968');
    expect(pass.status).toBe('pass');
    expect(pass.evidence).toContainEqual(expect.objectContaining({ found: 'FIPSMode="on"' }));
  });

  it('V-222965: fails a server with no JNDIRealm at all, passes an LDAPS one', async () => {
    const none = tree({ 'conf/server.xml': server(engine()) });
    expect((await control(none, 'stig-tomcat', 'V-222965')).status).toBe('fail');
    const ldaps = tree({
      'conf/server.xml': server(
        engine(
          undefined,
          '<Realm className="org.apache.catalina.realm.JNDIRealm" connectionURL="ldaps://ldap.example:636" userPattern="uid={0}"/>',
        ),
      ),
    });
    const pass = await control(ldaps, 'stig-tomcat', 'V-222965');
    expect(pass.status).toBe('pass');
    expect(pass.evidence[0]!.found).toBe('connectionURL="ldaps://ldap.example:636"');
  });
});

describe('what the files cannot know is not reviewed, with the question, until the site answers', () => {
  const behind = server(
    engine(
      '<Host name="localhost" appBase="webapps" autoDeploy="false"><Valve className="org.apache.catalina.valves.AccessLogValve" pattern="common"/></Host>',
    ),
  );

  it('V-222937: no RemoteIpValve and no audit.behindProxy is not reviewed; false is not applicable; true fails', async () => {
    const dir = tree({ 'conf/server.xml': behind });
    const unknown = await control(dir, 'stig-tomcat', 'V-222937');
    expect(unknown.status).toBe('not-reviewed');
    expect(unknown.question).toContain('audit.behindProxy');
    writeFileSync(join(dir, 'tollgate.config.json'), JSON.stringify({ audit: { behindProxy: false } }));
    expect((await control(dir, 'stig-tomcat', 'V-222937')).status).toBe('not-applicable');
    writeFileSync(join(dir, 'tollgate.config.json'), JSON.stringify({ audit: { behindProxy: true } }));
    const fail = await control(dir, 'stig-tomcat', 'V-222937');
    expect(fail.status).toBe('fail');
    const ok = tree({
      'conf/server.xml': server(
        engine(
          '<Host name="localhost" appBase="webapps"><Valve className="org.apache.catalina.valves.RemoteIpValve"/><Valve className="org.apache.catalina.valves.AccessLogValve" pattern="common" requestAttributesEnabled="true"/></Host>',
        ),
      ),
      'tollgate.config.json': JSON.stringify({ audit: { behindProxy: true } }),
    });
    expect((await control(ok, 'stig-tomcat', 'V-222937')).status).toBe('pass');
  });

  it('V-222961: the manager\'s privileged="true" needs the ISSO\'s approval: not reviewed without the list, fail off it, pass on it', async () => {
    const files = {
      // deployXML is left on: Tomcat reads the manager's META-INF/context.xml.
      'conf/server.xml': server(engine('<Host name="localhost" appBase="webapps" autoDeploy="false"/>')),
      'webapps/manager/META-INF/context.xml': '<Context privileged="true"/>\n',
      'webapps/manager/WEB-INF/web.xml':
        '<web-app><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.ManagerServlet</servlet-class></servlet></web-app>\n',
    };
    const dir = tree(files);
    const unknown = await control(dir, 'stig-tomcat', 'V-222961');
    expect(unknown.status).toBe('not-reviewed');
    expect(unknown.question).toContain('/manager');
    writeFileSync(join(dir, 'tollgate.config.json'), JSON.stringify({ audit: { approvedPrivilegedApps: ['/other'] } }));
    expect((await control(dir, 'stig-tomcat', 'V-222961')).status).toBe('fail');
    writeFileSync(
      join(dir, 'tollgate.config.json'),
      JSON.stringify({ audit: { approvedPrivilegedApps: ['/manager'] } }),
    );
    expect((await control(dir, 'stig-tomcat', 'V-222961')).status).toBe('pass');
  });

  it('V-222969 and V-223008: the JMX host and the approved connectors are asked for, then judged', async () => {
    const dir = tree({
      'conf/server.xml': server(`<Connector port="8080"/>${engine()}`),
      'bin/setenv.sh':
        'CATALINA_OPTS="-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.host=10.0.0.9"\n',
    });
    expect((await control(dir, 'stig-tomcat', 'V-222969')).status).toBe('not-reviewed');
    expect((await control(dir, 'stig-tomcat', 'V-223008')).status).toBe('not-reviewed');
    writeFileSync(
      join(dir, 'tollgate.config.json'),
      JSON.stringify({ audit: { jmxHost: '10.0.0.9', approvedConnectors: [{ port: 8443 }] } }),
    );
    expect((await control(dir, 'stig-tomcat', 'V-222969')).status).toBe('pass');
    expect((await control(dir, 'stig-tomcat', 'V-223008')).status).toBe('fail');
    expect((await control(dir, 'cis-tomcat-10.1', '1.2')).status).toBe('fail');
    writeFileSync(
      join(dir, 'tollgate.config.json'),
      JSON.stringify({ audit: { jmxHost: '10.0.0.1', approvedConnectors: [{ port: 8080 }] } }),
    );
    expect((await control(dir, 'stig-tomcat', 'V-222969')).status).toBe('fail');
    expect((await control(dir, 'stig-tomcat', 'V-223008')).status).toBe('pass');
  });
});

describe("a setting left to Tomcat's default passes with a note, and fails under --letter", () => {
  const cases: [benchmark: string, id: string, absent: Record<string, string>, set: Record<string, string>][] = [
    [
      'stig-tomcat',
      'V-222929',
      {
        'conf/server.xml': server(
          `<Connector port="8443" SSLEnabled="true"><SSLHostConfig><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>${engine()}`,
        ),
      },
      {
        'conf/server.xml': server(
          `<Connector port="8443" SSLEnabled="true"><SSLHostConfig protocols="TLSv1.2+TLSv1.3"><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>${engine()}`,
        ),
      },
    ],
    [
      'stig-tomcat',
      'V-222933',
      { 'conf/server.xml': server(engine()), 'conf/web.xml': '<web-app/>\n' },
      {
        'conf/server.xml': server(engine()),
        'conf/web.xml':
          '<web-app><session-config><cookie-config><http-only>true</http-only></cookie-config></session-config></web-app>\n',
      },
    ],
    [
      'stig-tomcat',
      'V-222934',
      {
        'conf/server.xml': server(engine()),
        'conf/web.xml':
          '<web-app><servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet></web-app>\n',
      },
      {
        'conf/server.xml': server(engine()),
        'conf/web.xml':
          '<web-app><servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class><init-param><param-name>readonly</param-name><param-value>true</param-value></init-param></servlet></web-app>\n',
      },
    ],
    [
      'stig-tomcat',
      'V-222932',
      {
        'conf/server.xml': server(`<Connector port="8443" SSLEnabled="true"/>${engine()}`),
        'conf/web.xml': '<web-app/>\n',
      },
      {
        'conf/server.xml': server(`<Connector port="8443" SSLEnabled="true"/>${engine()}`),
        'conf/web.xml':
          '<web-app><session-config><cookie-config><secure>true</secure></cookie-config></session-config></web-app>\n',
      },
    ],
    [
      'cis-tomcat-10.1',
      '10.11',
      {
        'conf/server.xml': server(`<Connector port="8443" SSLEnabled="true"/>${engine()}`),
        'webapps/app/WEB-INF/web.xml': '<web-app/>\n',
      },
      {
        'conf/server.xml': server(`<Connector port="8443" SSLEnabled="true"/>${engine()}`),
        'webapps/app/WEB-INF/web.xml':
          '<web-app><security-constraint><web-resource-collection><web-resource-name>a</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection><user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint></security-constraint></web-app>\n',
      },
    ],
    [
      'cis-tomcat-10.1',
      '2.7',
      { 'conf/server.xml': server(`<Connector port="8080"/>${engine()}`) },
      { 'conf/server.xml': server(`<Connector port="8080" server="web"/>${engine()}`) },
    ],
  ];
  for (const [benchmark, id, absent, set] of cases)
    it(`${benchmark} ${id}`, async () => {
      const a = tree(absent);
      const lenient = await control(a, benchmark, id);
      expect(lenient.status).toBe('pass');
      expect(lenient.notes[0]).toContain("passes on Tomcat's default; the check text asks for the setting");
      const strict = await control(a, benchmark, id, '--letter');
      expect(strict.status).toBe('fail');
      const s = tree(set);
      const written = await control(s, benchmark, id, '--letter');
      expect(written.status).toBe('pass');
      expect(written.notes).toEqual([]);
    });
});

describe('the plain bugs', () => {
  it('CIS 3.1: <Server shutdown="SHUTDOWN"> without a port listens on 8005 and fails; port="-1" passes', async () => {
    const open = tree({ 'conf/server.xml': server(engine(), 'shutdown="SHUTDOWN"') });
    const fail = await control(open, 'cis-tomcat-10.1', '3.1');
    expect(fail.status).toBe('fail');
    expect(fail.findings[0]!.message).toContain('8005');
    const closed = tree({ 'conf/server.xml': server(engine(), 'port="-1" shutdown="SHUTDOWN"') });
    expect((await control(closed, 'cis-tomcat-10.1', '3.1')).status).toBe('pass');
  });

  it('V-222967: a keystore outside the Tomcat folders fails, one under conf/ passes', async () => {
    const outside = tree({ 'k.p12': 'x' });
    const dir = tree({
      'conf/server.xml': server(
        `<Connector port="8443" SSLEnabled="true"><SSLHostConfig><Certificate certificateKeystoreFile="${join(outside, 'k.p12')}"/></SSLHostConfig></Connector>${engine()}`,
      ),
    });
    const fail = await control(dir, 'stig-tomcat', 'V-222967');
    expect(fail.status).toBe('fail');
    expect(fail.findings.map((f) => f.message).join()).toContain('outside the Tomcat folders');
    const inside = tree({
      'conf/server.xml': server(
        `<Connector port="8443" SSLEnabled="true"><SSLHostConfig><Certificate certificateKeystoreFile="conf/k.p12"/></SSLHostConfig></Connector>${engine()}`,
      ),
      'conf/k.p12': 'x',
    });
    chmodSync(join(inside, 'conf', 'k.p12'), 0o640);
    const ok = await control(inside, 'stig-tomcat', 'V-222967', '--benchmark-version', '3.4');
    expect(ok.findings.filter((f) => f.message.includes('outside'))).toEqual([]);
  });

  it('V-222958, V-222960, CIS 1.1: an examples or docs folder fails by existing, even empty and not deployed', async () => {
    const dir = tree({ 'conf/server.xml': server(engine()) });
    mkdirSync(join(dir, 'webapps', 'examples'), { recursive: true });
    mkdirSync(join(dir, 'webapps', 'docs'), { recursive: true });
    expect((await control(dir, 'stig-tomcat', 'V-222958')).status).toBe('fail');
    expect((await control(dir, 'stig-tomcat', 'V-222960')).status).toBe('fail');
    expect((await control(dir, 'cis-tomcat-10.1', '1.1')).status).toBe('fail');
    const clean = tree({ 'conf/server.xml': server(engine()), 'webapps/app/index.html': 'x' });
    const pass = await control(clean, 'stig-tomcat', 'V-222958');
    expect(pass.status).toBe('pass');
    expect(pass.evidence).toContainEqual({ subject: 'webapps/examples', found: 'absent' });
  });

  it('CIS 10.18: an application without metadata-complete="true" fails even with logEffectiveWebXml', async () => {
    const files = (complete: string): Record<string, string> => ({
      'conf/server.xml': server(engine()),
      'conf/context.xml': '<Context logEffectiveWebXml="true"/>\n',
      'webapps/app/WEB-INF/web.xml': `<web-app${complete}/>\n`,
    });
    expect((await control(tree(files('')), 'cis-tomcat-10.1', '10.18')).status).toBe('fail');
    expect((await control(tree(files(' metadata-complete="true"')), 'cis-tomcat-10.1', '10.18')).status).toBe('pass');
  });

  it('CIS 2.6: allowTrace="true" passes when every application refuses TRACE with a security constraint', async () => {
    const deny =
      '<web-app><security-constraint><web-resource-collection><web-resource-name>t</web-resource-name><url-pattern>/*</url-pattern><http-method>TRACE</http-method></web-resource-collection><auth-constraint/></security-constraint></web-app>\n';
    const base = { 'conf/server.xml': server(`<Connector port="8080" allowTrace="true"/>${engine()}`) };
    expect(
      (await control(tree({ ...base, 'webapps/app/WEB-INF/web.xml': '<web-app/>\n' }), 'cis-tomcat-10.1', '2.6'))
        .status,
    ).toBe('fail');
    const refused = await control(tree({ ...base, 'webapps/app/WEB-INF/web.xml': deny }), 'cis-tomcat-10.1', '2.6');
    expect(refused.status).toBe('pass');
    expect(refused.notes.join()).toContain('refuses TRACE');
  });

  it("CIS 10.19: the manager's realm without a digest CredentialHandler fails; with one it passes", async () => {
    const files = (handler: string): Record<string, string> => ({
      'conf/server.xml': server(
        engine(
          undefined,
          `<Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase">${handler}</Realm>`,
        ),
      ),
      'webapps/manager/WEB-INF/web.xml':
        '<web-app><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.ManagerServlet</servlet-class></servlet></web-app>\n',
    });
    expect((await control(tree(files('')), 'cis-tomcat-10.1', '10.19')).status).toBe('fail');
    const ok = await control(
      tree(
        files(
          '<CredentialHandler className="org.apache.catalina.realm.SecretKeyCredentialHandler" algorithm="PBKDF2WithHmacSHA512"/>',
        ),
      ),
      'cis-tomcat-10.1',
      '10.19',
    );
    expect(ok.status).toBe('pass');
  });

  it('CIS 4.5 and 4.9: an absent temp/ or catalina.policy says so in the evidence', async () => {
    const dir = tree({ 'conf/server.xml': server(engine()) });
    const temp = await control(dir, 'cis-tomcat-10.1', '4.5');
    expect(temp.status).toBe('pass');
    expect(temp.evidence[0]!.found).toMatch(/temp absent: nothing to judge$/);
    const policy = await control(dir, 'cis-tomcat-10.1', '4.9');
    expect(policy.evidence[0]!.found).toMatch(/catalina\.policy absent: nothing to judge$/);
  });

  it('V-222955 / V-222956: an absent deployXML / autoDeploy is not a finding (with a note); a written true is', async () => {
    const absent = tree({ 'conf/server.xml': server(engine('<Host name="localhost" appBase="webapps"/>')) });
    for (const id of ['V-222955', 'V-222956']) {
      const r = await control(absent, 'stig-tomcat', id);
      expect(r.status, id).toBe('pass');
      expect(r.notes.join(), id).toContain("Tomcat's default is true");
    }
    const written = tree({
      'conf/server.xml': server(
        engine('<Host name="localhost" appBase="webapps" autoDeploy="true" deployXML="true"/>'),
      ),
    });
    for (const id of ['V-222955', 'V-222956'])
      expect((await control(written, 'stig-tomcat', id)).status, id).toBe('fail');
    // CIS 9.1 asks autoDeploy="false" written: absent fails there.
    expect((await control(absent, 'cis-tomcat-10.1', '9.1')).status).toBe('fail');
  });
});

describe('verdicts the table of every control proved wrong', () => {
  const info = (built: string): string => `server.info=Web\nserver.number=0.0.0.0\nserver.built=${built}\n`;
  const ENTRY = 'org/apache/catalina/util/ServerInfo.properties';

  it("CIS 2.3: server.built fails when it is catalina.jar's value or a build stamp, passes altered (a year in it or not)", async () => {
    const jar = makeZip([{ name: ENTRY, data: Buffer.from(info('2026-09-20')) }]);
    const files = (built: string): Record<string, string> => ({
      'conf/server.xml': server(engine()),
      [`lib/${ENTRY}`]: info(built),
    });
    const shipped = tree(files('2026-09-20'));
    writeFileSync(join(shipped, 'lib', 'catalina.jar'), jar);
    const same = await control(shipped, 'cis-tomcat-10.1', '2.3');
    expect(same.status).toBe('fail');
    expect(same.findings[0]!.message).toContain('server.built=2026-09-20');
    const altered = tree(files('built in 2026 by ops'));
    writeFileSync(join(altered, 'lib', 'catalina.jar'), jar);
    expect((await control(altered, 'cis-tomcat-10.1', '2.3')).status).toBe('pass');
    // Without a catalina.jar to compare with, the build stamp Tomcat's build writes is the default.
    expect((await control(tree(files('Sep 20 2026 11:06:01 UTC')), 'cis-tomcat-10.1', '2.3')).status).toBe('fail');
    expect((await control(tree(files('2026')), 'cis-tomcat-10.1', '2.3')).status).toBe('pass');
  });

  it('CIS 4.1 and 4.2 both fail when CATALINA_HOME is CATALINA_BASE and its mode is too open', async () => {
    const dir = tree({ 'conf/server.xml': server(engine()) });
    chmodSync(dir, 0o755);
    for (const id of ['4.1', '4.2']) {
      const r = await control(dir, 'cis-tomcat-10.1', id);
      expect(r.status, id).toBe('fail');
      expect(r.findings[0]!.message, id).toContain('mode 755');
    }
  });

  it('CIS 6.3 and 6.4: scheme="https" fails 6.3 only, secure="true" fails 6.4 only', async () => {
    const scheme = tree({ 'conf/server.xml': server(`<Connector port="8080" scheme="https"/>${engine()}`) });
    expect((await control(scheme, 'cis-tomcat-10.1', '6.3')).status).toBe('fail');
    expect((await control(scheme, 'cis-tomcat-10.1', '6.4')).status).toBe('pass');
    const secure = tree({ 'conf/server.xml': server(`<Connector port="8080" secure="true"/>${engine()}`) });
    expect((await control(secure, 'cis-tomcat-10.1', '6.4')).status).toBe('fail');
    expect((await control(secure, 'cis-tomcat-10.1', '6.3')).status).toBe('pass');
  });

  it('a manager renamed as CIS 10.5 asks is still judged by V-222979 and CIS 10.4', async () => {
    const dir = tree({
      'conf/server.xml': server(`<Connector port="8080"/>${engine()}`),
      'webapps/admin-x/WEB-INF/web.xml':
        '<web-app><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.HTMLManagerServlet</servlet-class></servlet><session-config><session-timeout>30</session-timeout></session-config><security-constraint><web-resource-collection><web-resource-name>m</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection><auth-constraint><role-name>manager-gui</role-name></auth-constraint></security-constraint><login-config><auth-method>BASIC</auth-method></login-config><security-role><role-name>manager-gui</role-name></security-role></web-app>\n',
    });
    const timeout = await control(dir, 'stig-tomcat', 'V-222979');
    expect(timeout.status).toBe('fail');
    expect(timeout.findings[0]!.message).toContain('30 minutes');
    expect((await control(dir, 'cis-tomcat-10.1', '10.4')).status).toBe('fail');
  });

  it('V-222932: <secure>false</secure> on TLS-only connectors passes with the note, fails under --letter and beside a plain connector', async () => {
    const web =
      '<web-app><session-config><cookie-config><secure>false</secure></cookie-config></session-config></web-app>\n';
    const tlsOnly = tree({
      'conf/server.xml': server(`<Connector port="8443" SSLEnabled="true"/>${engine()}`),
      'conf/web.xml': web,
    });
    const lenient = await control(tlsOnly, 'stig-tomcat', 'V-222932');
    expect(lenient.status).toBe('pass');
    expect(lenient.notes.join()).toContain("passes on Tomcat's default");
    expect((await control(tlsOnly, 'stig-tomcat', 'V-222932', '--letter')).status).toBe('fail');
    const plain = tree({ 'conf/server.xml': server(`<Connector port="8080"/>${engine()}`), 'conf/web.xml': web });
    expect((await control(plain, 'stig-tomcat', 'V-222932')).status).toBe('fail');
  });

  it('V-222926: a limit is judged against audit.managerMaxSessions, not reviewed without it; no limit fails', async () => {
    const files = (limit: string): Record<string, string> => ({
      'conf/server.xml': server(
        engine(
          `<Host name="localhost" appBase="webapps" autoDeploy="false"><Context path="/manager" docBase="manager">${limit}</Context></Host>`,
        ),
      ),
      'webapps/manager/WEB-INF/web.xml':
        '<web-app><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.ManagerServlet</servlet-class></servlet></web-app>\n',
    });
    const none = tree(files(''));
    expect((await control(none, 'stig-tomcat', 'V-222926')).status).toBe('fail');
    const twenty = tree(files('<Manager maxActiveSessions="20"/>'));
    const unknown = await control(twenty, 'stig-tomcat', 'V-222926');
    expect(unknown.status).toBe('not-reviewed');
    expect(unknown.question).toContain('audit.managerMaxSessions');
    expect(unknown.evidence).toContainEqual(expect.objectContaining({ found: 'maxActiveSessions="20"' }));
    writeFileSync(join(twenty, 'tollgate.config.json'), JSON.stringify({ audit: { managerMaxSessions: 10 } }));
    const over = await control(twenty, 'stig-tomcat', 'V-222926');
    expect(over.status).toBe('fail');
    expect(over.findings[0]!.message).toContain('more than the 10');
    writeFileSync(join(twenty, 'tollgate.config.json'), JSON.stringify({ audit: { managerMaxSessions: 20 } }));
    expect((await control(twenty, 'stig-tomcat', 'V-222926')).status).toBe('pass');
  });
});

describe('start-up options where distributions keep them', () => {
  it('reads the systemd unit, its EnvironmentFile and /etc/default under --etc, pointing at file and line', async () => {
    const etc = tree({
      'systemd/system/tomcat10.service':
        '[Service]\nEnvironment="CATALINA_BASE=/var/lib/tomcat10"\nEnvironment="JAVA_OPTS=-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false"\nEnvironmentFile=-/etc/default/tomcat10\n',
      'default/tomcat10': '# settings\nUMASK=0022\nSECURITY_MANAGER=true\n',
    });
    const base = tree({ 'conf/server.xml': server(engine()) });
    // The unit names another base: it is found by the folder name only when CATALINA_BASE matches.
    const named = join(base, '..', 'tomcat10');
    mkdirSync(join(named, 'conf'), { recursive: true });
    writeFileSync(join(named, 'conf', 'server.xml'), server(engine()));
    const unit = join(etc, 'systemd/system/tomcat10.service');
    writeFileSync(
      unit,
      `[Service]\nEnvironment="CATALINA_BASE=${named}"\nEnvironment="JAVA_OPTS=-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false"\nEnvironmentFile=-/etc/default/tomcat10\n`,
    );
    try {
      const report = await audit(named, 'stig-tomcat', '--etc', etc);
      const jmx = report.controls.find((c) => c.control === 'V-222963')!;
      expect(jmx.status).toBe('fail');
      expect(jmx.findings[0]).toMatchObject({ file: unit, line: 3 });
      const umask = report.controls.find((c) => c.control === 'V-222949')!;
      expect(umask.status).toBe('fail');
      expect(umask.findings[0]).toMatchObject({ file: join(etc, 'default/tomcat10'), line: 2 });
      const jsm = report.controls.find((c) => c.control === 'V-222936')!;
      expect(jsm.status).toBe('pass');
      expect(jsm.evidence).toContainEqual(expect.objectContaining({ found: 'SECURITY_MANAGER=true (-security)' }));
      // Without --etc the same base has none of these files.
      const other = await audit(base, 'stig-tomcat');
      expect(other.controls.find((c) => c.control === 'V-222963')!.status).toBe('pass');
    } finally {
      const { rmSync } = await import('node:fs');
      rmSync(named, { recursive: true, force: true });
    }
  });
});

describe('JAVA_OPTS and CATALINA_OPTS as the last assignment builds them', () => {
  const JMX = '-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false';

  it('in bin/setenv.sh: a reassignment drops the options before it, "$JAVA_OPTS ..." keeps them', async () => {
    const files = (setenv: string): Record<string, string> => ({
      'conf/server.xml': server(engine()),
      'bin/setenv.sh': setenv,
    });
    const reset = tree(
      files(
        `JAVA_OPTS="${JMX}"\nJAVA_OPTS="-Djava.awt.headless=true"\nJAVA_OPTS="$JAVA_OPTS -Djava.security.manager"\n`,
      ),
    );
    expect((await control(reset, 'stig-tomcat', 'V-222963')).status).toBe('pass');
    const jsm = await control(reset, 'stig-tomcat', 'V-222936');
    expect(jsm.status).toBe('pass');
    expect(jsm.evidence).toContainEqual(expect.objectContaining({ found: 'JAVA_OPTS: -Djava.security.manager' }));
    const appended = tree(files(`JAVA_OPTS="${JMX}"\nJAVA_OPTS="\${JAVA_OPTS} -Djava.awt.headless=true"\n`));
    const fail = await control(appended, 'stig-tomcat', 'V-222963');
    expect(fail.status).toBe('fail');
    expect(fail.findings[0]).toMatchObject({ line: 1 });
    // Another variable is not a reassignment of this one.
    const other = tree(files(`CATALINA_OPTS="${JMX}"\nJAVA_OPTS="-Djava.awt.headless=true"\n`));
    expect((await control(other, 'stig-tomcat', 'V-222963')).status).toBe('fail');
  });

  it("across files: setenv.sh replacing JAVA_OPTS drops /etc/default's, appending keeps them", async () => {
    const etc = tree({ 'default/tomcat10': `JAVA_OPTS="-Djava.awt.headless=true ${JMX}"\n` });
    const dir = (setenv: string): string => {
      const parent = tree({});
      const base = join(parent, 'tomcat10');
      mkdirSync(join(base, 'conf'), { recursive: true });
      mkdirSync(join(base, 'bin'), { recursive: true });
      writeFileSync(join(base, 'conf', 'server.xml'), server(engine()));
      writeFileSync(join(base, 'bin', 'setenv.sh'), setenv);
      return base;
    };
    const replaced = dir('JAVA_OPTS="-Djava.awt.headless=true"\n');
    expect((await control(replaced, 'stig-tomcat', 'V-222963', '--etc', etc)).status).toBe('pass');
    const appended = dir('JAVA_OPTS="$JAVA_OPTS -Xmx512m"\n');
    const fail = await control(appended, 'stig-tomcat', 'V-222963', '--etc', etc);
    expect(fail.status).toBe('fail');
    expect(fail.findings[0]!.file).toBe(join(etc, 'default', 'tomcat10'));
  });
});

describe('accepted deviations, releases, conflicts and the report header', () => {
  it('a config waiver is accepted with its justification and who; expired, the control fails and says so', async () => {
    const dir = tree({ 'conf/server.xml': server(engine(), 'port="8005" shutdown="SHUTDOWN"') });
    const waiver = (expires: string) =>
      JSON.stringify({
        audit: {
          waivers: [
            { control: 'cis-tomcat-10.1:3.1', justification: 'SEC-123 firewalled', by: 'ISSO J. Doe', expires },
          ],
        },
      });
    writeFileSync(join(dir, 'tollgate.config.json'), waiver('2999-12-31'));
    const ok = await control(dir, 'cis-tomcat-10.1', '3.1');
    expect(ok.status).toBe('accepted');
    expect(ok.accepted[0]).toMatchObject({
      justification: 'SEC-123 firewalled',
      by: 'ISSO J. Doe',
      expired: false,
      source: 'waiver',
    });
    expect(ok.message).toContain('SEC-123');
    writeFileSync(join(dir, 'tollgate.config.json'), waiver('2000-01-01'));
    const expired = await control(dir, 'cis-tomcat-10.1', '3.1');
    expect(expired.status).toBe('fail');
    expect(expired.accepted[0]!.expired).toBe(true);
  });

  it('a suppression comment before a two-line <Host> reaches its attribute on the second line, and shows as accepted', async () => {
    const dir = tree({
      'conf/server.xml': `<Server port="-1" shutdown="x"><Service name="C"><Engine name="C" defaultHost="localhost">
<!-- tollgate-disable-next-line host-auto-deploy :: CHG-9 deployments by pipeline -->
<Host name="localhost" appBase="webapps"
      autoDeploy="true" deployXML="false"/>
</Engine></Service></Server>
`,
    });
    const r = await control(dir, 'stig-tomcat', 'V-222956');
    expect(r.status).toBe('accepted');
    expect(r.accepted[0]).toMatchObject({ source: 'comment', justification: 'CHG-9 deployments by pipeline' });
  });

  it('says the release, date, target and tool version; --benchmark-version keeps the older release', async () => {
    const dir = tree({ 'conf/server.xml': server(engine()) });
    const now = await audit(dir, 'stig-tomcat');
    expect(now.release.release).toBe('V3R4');
    expect(now.tool.name).toBe('tollgate');
    expect(now.tool.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(now.date)).not.toBeNaN();
    expect(now.target).toBe(dir);
    expect((await audit(dir, 'stig-tomcat', '--benchmark-version', '2.1')).release.release).toBe('V2R1');
    expect((await audit(dir, 'cis-tomcat-10.1')).release.release).toBe('v1.1.0');
    expect((await audit(dir, 'cis-tomcat-10.1', '--benchmark-version', '1.0.0')).release.release).toBe('v1.0.0');
    let err = '';
    const code = await main(['audit', dir, '--benchmark', 'stig-tomcat', '--benchmark-version', '9.9'], {
      stdout: () => {},
      stderr: (t) => (err += t),
      cwd: dir,
    });
    expect(code).toBe(2);
    expect(err).toContain('3.4 (V3R4), 2.1 (V2R1)');
  });

  it("names the other benchmark's contradicting control on both sides", async () => {
    const dir = tree({ 'conf/server.xml': server(engine()) });
    const stig = await control(dir, 'stig-tomcat', 'V-222935');
    expect(stig.conflicts.map((c) => `${c.benchmark}:${c.control}`)).toContain('cis-tomcat-10.1:6.4');
    const cis = await control(dir, 'cis-tomcat-10.1', '6.4');
    expect(cis.conflicts.map((c) => `${c.benchmark}:${c.control}`)).toContain('stig-tomcat:V-222935');
    expect(cis.notes.join()).toContain('V-222935');
  });
});
