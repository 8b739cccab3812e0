import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { migrateBase, migrationDiff, writeMigration } from '../../src/migrate/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A base with these files (path: text, or bytes). */
function base(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-migrate-'));
  dirs.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

const server = (services: string, listeners = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Server port="-1" shutdown="SHUTDOWN">\n${listeners}  <Service name="Catalina">\n${services}    <Engine name="Catalina" defaultHost="localhost">\n      <Host name="localhost" appBase="webapps"/>\n    </Engine>\n  </Service>\n</Server>\n`;

/** Migrates the base in place and returns the file's new text; a second migration must change nothing. */
function migrated(dir: string, rel: string): string {
  writeMigration(migrateBase(dir, { to: '10.1' }));
  const after = readFileSync(join(dir, rel), 'latin1');
  const again = migrateBase(dir, { to: '10.1' });
  expect(again.files.filter((f) => f.before !== f.after)).toEqual([]);
  return after;
}

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd });
  return { code, out, err };
}

describe('connector TLS attributes', () => {
  it('moves JSSE keystore attributes of a self-closing Connector into SSLHostConfig/Certificate, keeping the rest byte for byte', () => {
    const dir = base({
      'conf/server.xml': server(
        `    <!-- HTTPS -->\n    <Connector port="8443" protocol="org.apache.coyote.http11.Http11NioProtocol"\n               maxThreads="150" SSLEnabled="true" scheme="https" secure="true"\n               keystoreFile="conf/ks.p12" keystorePass="changeit" keystoreType="PKCS12"\n               clientAuth="false" sslProtocol="TLS" />\n`,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(
        `    <!-- HTTPS -->\n    <Connector port="8443" protocol="org.apache.coyote.http11.Http11NioProtocol"\n               maxThreads="150" SSLEnabled="true" scheme="https" secure="true">\n      <SSLHostConfig certificateVerification="false" sslProtocol="TLS">\n        <Certificate certificateKeystoreFile="conf/ks.p12"\n                     certificateKeystorePassword="changeit"\n                     certificateKeystoreType="PKCS12" />\n      </SSLHostConfig>\n    </Connector>\n`,
      ),
    );
  });

  it('turns an APR connector with PEM files into NIO, its SSLHostConfig after its existing children', () => {
    const listener = `  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" />\n`;
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8444" protocol="org.apache.coyote.http11.Http11AprProtocol"\n               SSLEnabled="true" SSLCertificateFile="conf/cert.pem"\n               SSLCertificateKeyFile="conf/key.pem" SSLProtocol="TLSv1.2" pollTime="2000">\n      <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol" />\n    </Connector>\n`,
        listener,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(
        `    <Connector port="8444" protocol="org.apache.coyote.http11.Http11NioProtocol"\n               SSLEnabled="true">\n      <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol" />\n      <SSLHostConfig protocols="TLSv1.2">\n        <Certificate certificateFile="conf/cert.pem" certificateKeyFile="conf/key.pem" />\n      </SSLHostConfig>\n    </Connector>\n`,
        listener,
      ),
    );
  });

  it('leaves the TLS implementation to Tomcat (OpenSSL with a tomcat-native 10.1 accepts, else JSSE) and says so', () => {
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8444" protocol="org.apache.coyote.http11.Http11AprProtocol" SSLEnabled="true" SSLCertificateFile="c.pem" SSLCertificateKeyFile="k.pem"/>\n`,
      ),
    });
    const m = migrateBase(dir, { to: '10.1' });
    expect(m.files[0]!.after).toContain(
      `<Connector port="8444" protocol="org.apache.coyote.http11.Http11NioProtocol" SSLEnabled="true">\n      <SSLHostConfig>\n        <Certificate certificateFile="c.pem" certificateKeyFile="k.pem" />\n      </SSLHostConfig>\n    </Connector>\n`,
    );
    expect(m.files[0]!.steps.filter((s) => s.note)).toMatchObject([{ span: { line: 4, column: 5 } }]);
    expect(m.files[0]!.steps.find((s) => s.note)!.message).toMatch(/1\.3\.9 or later, or 2\.x\), and JSSE otherwise/);
  });

  it("names the SSLHostConfig after defaultSSLHostConfigName, keeps quotes and references as written, and lets a kept attribute take a removed one's place", () => {
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8443" SSLEnabled="true" defaultSSLHostConfigName="example.org"\n               keystoreFile='\${catalina.base}/conf/a&amp;b.jks' maxThreads="10"\n               truststoreFile="conf/trust.jks"></Connector>\n`,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(
        `    <Connector port="8443" SSLEnabled="true" defaultSSLHostConfigName="example.org"\n               maxThreads="10">\n      <SSLHostConfig hostName="example.org" truststoreFile="conf/trust.jks">\n        <Certificate certificateKeystoreFile='\${catalina.base}/conf/a&amp;b.jks' />\n      </SSLHostConfig>\n    </Connector>\n`,
      ),
    );
  });

  it('leaves TLS attributes beside an SSLHostConfig of the same name to the user (Tomcat 9 refuses that pair as well)', () => {
    const text = server(
      `    <Connector port="8443" SSLEnabled="true" keystoreFile="a.jks">\n      <SSLHostConfig><Certificate certificateKeystoreFile="b.jks"/></SSLHostConfig>\n    </Connector>\n`,
    );
    const dir = base({ 'conf/server.xml': text });
    const m = migrateBase(dir, { to: '10.1' });
    expect(m.files[0]!.after).toBe(text);
    expect(m.files[0]!.steps).toMatchObject([{ manual: true, span: { line: 5, column: 7 } }]);
  });

  it('of two attributes that set one property moves the later one, as Tomcat 9 kept it', () => {
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8443" SSLEnabled="true" SSLCertificateFile="c.pem"\n               SSLProtocol="TLSv1.2" SSLVerifyClient="optional"\n               sslEnabledProtocols="TLSv1.3" clientAuth="false"/>\n`,
      ),
    });
    const m = migrateBase(dir, { to: '10.1' });
    expect(m.files[0]!.after).toBe(
      server(
        `    <Connector port="8443" SSLEnabled="true">\n      <SSLHostConfig protocols="TLSv1.3" certificateVerification="false">\n        <Certificate certificateFile="c.pem" />\n      </SSLHostConfig>\n    </Connector>\n`,
      ),
    );
    expect(m.files[0]!.steps.filter((s) => /Tomcat 9 kept the later one/.test(s.message))).toMatchObject([
      { span: { line: 5, column: 16 } },
      { span: { line: 5, column: 38 } },
    ]);
  });

  it('moves Tomcat 9 certificate attributes of an SSLHostConfig into a Certificate', () => {
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8443" SSLEnabled="true">\n      <SSLHostConfig protocols="TLSv1.2"\n                     certificateKeystoreFile="conf/ks.p12"\n                     certificateKeystorePassword="changeit" />\n    </Connector>\n`,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(
        `    <Connector port="8443" SSLEnabled="true">\n      <SSLHostConfig protocols="TLSv1.2">\n        <Certificate certificateKeystoreFile="conf/ks.p12" certificateKeystorePassword="changeit" />\n      </SSLHostConfig>\n    </Connector>\n`,
      ),
    );
  });
});

describe('protocols, listeners and removed attributes', () => {
  it('moves the AJP APR connector to NIO and drops what only APR had', () => {
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" secretRequired="false" deferAccept="true"/>\n`,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(`    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpNioProtocol" secretRequired="false"/>\n`),
    );
  });

  it('removes a listener class 10.1 cannot load with its line, and the attributes 10.1 dropped', () => {
    const listeners =
      `  <!-- listeners -->\n  <Listener className="org.apache.catalina.core.JasperListener" />\n` +
      `  <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"\n            gcDaemonProtection="false"\n            classesToInitialize="a.B" />\n` +
      `  <Listener className="org.apache.catalina.core.AprLifecycleListener" useAprConnector="false" SSLEngine="on"/>\n`;
    const dir = base({
      'conf/server.xml': server(
        `    <Connector port="8080" acceptorThreadCount="2" pollerThreadCount="2"/>\n`,
        listeners,
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      server(
        `    <Connector port="8080"/>\n`,
        `  <!-- listeners -->\n  <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"\n            classesToInitialize="a.B" />\n  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on"/>\n`,
      ),
    );
  });

  it('reports a JDBCRealm for the user to replace, changing nothing', () => {
    const text = `<?xml version="1.0"?>\n<Context>\n  <Realm className="org.apache.catalina.realm.JDBCRealm" driverName="x"/>\n</Context>\n`;
    const dir = base({ 'conf/context.xml': text, 'conf/server.xml': server('') });
    const m = migrateBase(dir, { to: '10.1' });
    const f = m.files.find((x) => x.path.endsWith('context.xml'))!;
    expect(f.after).toBe(text);
    expect(f.steps).toMatchObject([{ manual: true, span: { line: 3, column: 3 } }]);
  });
});

describe('Tomcat 7 Context attributes', () => {
  it('moves the cache attributes into a new Resources element (cacheTTL as cacheTtl) and drops the removed ones', () => {
    const dir = base({
      'conf/server.xml': server(''),
      'webapps/app/META-INF/context.xml': `<?xml version="1.0"?>\n<Context cachingAllowed="true" cacheMaxSize="20480" cacheTTL="10000" antiJARLocking="true">\n  <!-- keep me -->\n  <WatchedResource>WEB-INF/web.xml</WatchedResource>\n</Context>\n`,
    });
    expect(migrated(dir, 'webapps/app/META-INF/context.xml')).toBe(
      `<?xml version="1.0"?>\n<Context>\n  <!-- keep me -->\n  <WatchedResource>WEB-INF/web.xml</WatchedResource>\n  <Resources cachingAllowed="true" cacheMaxSize="20480" cacheTtl="10000" />\n</Context>\n`,
    );
  });

  it('adds them to an existing Resources element, where one already set there wins', () => {
    const dir = base({
      'conf/server.xml': server(''),
      'conf/context.xml': `<Context allowLinking="true" cacheTTL="100" cacheMaxSize="512"><Resources cacheTtl="5"/></Context>\n`,
    });
    expect(migrated(dir, 'conf/context.xml')).toBe(
      `<Context><Resources cacheTtl="5" allowLinking="true" cacheMaxSize="512"/></Context>\n`,
    );
  });

  it('opens a self-closing Context on one line', () => {
    const dir = base({
      'conf/server.xml': server('').replace(
        '<Host name="localhost" appBase="webapps"/>',
        '<Host name="localhost" appBase="webapps" xmlValidation="false">\n        <Context path="/x" docBase="x" cachingAllowed="false"/>\n      </Host>',
      ),
    });
    expect(migrated(dir, 'conf/server.xml')).toContain(
      '<Host name="localhost" appBase="webapps">\n        <Context path="/x" docBase="x">\n          <Resources cachingAllowed="false" />\n        </Context>\n      </Host>',
    );
  });
});

describe('web.xml', () => {
  const webXml = (ns: string, schema: string, version: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<!-- app -->\n<web-app xmlns="${ns}"\n  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n  xsi:schemaLocation="${ns}\n                      ${schema}"\n  version="${version}">\n  <servlet><servlet-name>s</servlet-name><servlet-class>org.example.S</servlet-class></servlet>\n</web-app>\n`;

  it('moves a javaee 4.0 descriptor to jakartaee 6.0, keeping the schemaLocation layout', () => {
    const dir = base({
      'conf/server.xml': server(''),
      'webapps/app/WEB-INF/web.xml': webXml(
        'http://xmlns.jcp.org/xml/ns/javaee',
        'http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd',
        '4.0',
      ),
    });
    expect(migrated(dir, 'webapps/app/WEB-INF/web.xml')).toBe(
      webXml('https://jakarta.ee/xml/ns/jakartaee', 'https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd', '6.0'),
    );
  });

  it('moves a J2EE 2.4 descriptor and a web-fragment too', () => {
    const dir = base({
      'conf/server.xml': server(''),
      'conf/web.xml': webXml(
        'http://java.sun.com/xml/ns/j2ee',
        'http://java.sun.com/xml/ns/j2ee/web-app_2_4.xsd',
        '2.4',
      ),
    });
    expect(migrated(dir, 'conf/web.xml')).toBe(
      webXml('https://jakarta.ee/xml/ns/jakartaee', 'https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd', '6.0'),
    );
  });

  it('leaves a DTD descriptor alone and reports javax classes instead of rewriting them', () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">\n<web-app>\n  <servlet>\n    <servlet-name>f</servlet-name>\n    <servlet-class>javax.faces.webapp.FacesServlet</servlet-class>\n  </servlet>\n</web-app>\n`;
    const dir = base({ 'conf/server.xml': server(''), 'webapps/app/WEB-INF/web.xml': text });
    const m = migrateBase(dir, { to: '10.1' });
    const f = m.files.find((x) => x.path.endsWith('web.xml'))!;
    expect(f.after).toBe(text);
    expect(f.steps).toMatchObject([{ manual: true, span: { line: 6, column: 5 } }]);
  });
});

describe('bytes, encodings and layout', () => {
  it('keeps CRLF line ends, an ISO-8859-1 comment and a BOM byte for byte', () => {
    const crlf = (s: string): string => s.replace(/\n/g, '\r\n');
    const text = crlf(
      `<?xml version="1.0" encoding="ISO-8859-1"?>\n<!-- Größe -->\n<Server port="-1">\n  <Service name="S">\n    <Connector port="1" SSLEnabled="true" keystoreFile="k.jks"/>\n  </Service>\n</Server>\n`,
    );
    const dir = base({ 'conf/server.xml': Buffer.from(text, 'latin1') });
    expect(migrated(dir, 'conf/server.xml')).toBe(
      crlf(
        `<?xml version="1.0" encoding="ISO-8859-1"?>\n<!-- Größe -->\n<Server port="-1">\n  <Service name="S">\n    <Connector port="1" SSLEnabled="true">\n      <SSLHostConfig>\n        <Certificate certificateKeystoreFile="k.jks" />\n      </SSLHostConfig>\n    </Connector>\n  </Service>\n</Server>\n`,
      ),
    );
  });

  it('keeps a UTF-8 byte order mark', () => {
    const dir = base({
      'conf/server.xml': Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(server('    <Connector port="1" acceptorThreadCount="1"/>\n')),
      ]),
    });
    migrated(dir, 'conf/server.xml');
    const bytes = readFileSync(join(dir, 'conf/server.xml'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe(server('    <Connector port="1"/>\n'));
  });

  it('changes nothing in a base already in the 10.1 form', () => {
    const dir = base({
      'conf/server.xml': server('    <Connector port="8080" protocol="HTTP/1.1"/>\n'),
      'conf/web.xml': `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n`,
    });
    const m = migrateBase(dir, { to: '10.1' });
    expect(m.files).toEqual([]);
    expect(migrationDiff(m)).toBe('');
  });
});

describe('tollgate migrate (CLI)', () => {
  it('prints a unified diff and writes nothing; --write applies it', async () => {
    const text = server(
      '    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" secretRequired="false"/>\n',
    );
    const dir = base({ 'conf/server.xml': text });
    const r = await cli(['migrate', dir, '--to', '10.1'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      '--- a/conf/server.xml\n+++ b/conf/server.xml\n@@ -1,7 +1,7 @@\n <?xml version="1.0" encoding="UTF-8"?>\n <Server port="-1" shutdown="SHUTDOWN">\n   <Service name="Catalina">\n-    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" secretRequired="false"/>\n+    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpNioProtocol" secretRequired="false"/>\n     <Engine name="Catalina" defaultHost="localhost">\n       <Host name="localhost" appBase="webapps"/>\n     </Engine>\n',
    );
    expect(r.err).toBe(
      'conf/server.xml:4:28: migrated: Changed protocol org.apache.coyote.ajp.AjpAprProtocol to org.apache.coyote.ajp.AjpNioProtocol: Tomcat 10.1 has no such connector and does not start the server.\n',
    );
    expect(readFileSync(join(dir, 'conf/server.xml'), 'utf8')).toBe(text);
    const w = await cli(['migrate', '--write'], dir);
    expect(w.code).toBe(0);
    expect(w.out).toBe('');
    expect(readFileSync(join(dir, 'conf/server.xml'), 'utf8')).toBe(text.replace('AjpAprProtocol', 'AjpNioProtocol'));
  });

  it('refuses a malformed file with file:line:column, no stack trace, and writes nothing anywhere', async () => {
    const good = base({}); // keeps the cwd outside the base below
    const web = `<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0"/>\n`;
    const dir = base({
      'conf/server.xml': `<Server>\n  <Service>\n    <Connector port="1" protocol="org.apache.coyote.ajp.AjpAprProtocol">\n  </Service>\n</Server>\n`,
      'conf/web.xml': web,
    });
    const r = await cli(['migrate', dir, '--write'], good);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(
        `^${join(dir, 'conf/server.xml').replace(/[/.]/g, '\\$&')}:4:12: error: Malformed XML: </Service> closes no open element`,
      ),
    );
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, 'conf/web.xml'), 'utf8')).toBe(web);
  });

  it('rejects unknown options and versions it cannot migrate to', async () => {
    const dir = base({ 'conf/server.xml': server('') });
    const a = await cli(['migrate', dir, '--bogus'], dir);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/unknown option --bogus/);
    const b = await cli(['migrate', dir, '--to', '9.0'], dir);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/Choices: "10\.1"/);
  });

  it('exits 1 when something is left to do by hand', async () => {
    const dir = base({
      'conf/server.xml': server(''),
      'conf/context.xml': `<Context><Loader className="org.apache.catalina.loader.VirtualWebappLoader"/></Context>\n`,
    });
    const r = await cli(['migrate', dir], dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^conf\/context\.xml:1:10: by hand: VirtualWebappLoader was removed/);
  });
});
