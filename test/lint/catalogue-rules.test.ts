import { afterAll, describe, expect, it } from 'vitest';
import { app, cleanup, lintFiles } from './helpers.js';

afterAll(cleanup);

const NEW =
  /^(attribute-unknown|attribute-invalid-value|context-class-not-found|connector-protocol-not-found|connector-tls-without-host-config|realm-missing-attribute)$/;
const SERVER = [
  '<Server port="-1">',
  '  <Service name="Catalina">',
  '    <Connector port="8443" SSLEnabled="true" keystoreFile="conf/ks.p12" maxThreads="lots"/>',
  '    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" secret="s"/>',
  '    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps" xmlValidation="false"/></Engine>',
  '  </Service>',
  '</Server>',
].join('\n');
const files = {
  'conf/server.xml': SERVER,
  'conf/Catalina/localhost/app.xml':
    '<Context cachingAllowed="true">\n  <Realm className="org.apache.catalina.realm.DataSourceRealm" userNameCol="u" userCredCol="p"/>\n</Context>',
  ...app(''),
};
const found = (target: '9.0' | '10.1') =>
  lintFiles(files, { target })
    .filter((d) => NEW.test(d.ruleId))
    .map(
      (d) => `${d.span.file.replace(/.*\/(conf\/)/, '$1')}:${d.span.line}:${d.span.column} ${d.severity} ${d.ruleId}`,
    )
    .sort();

describe('the catalogue rules, per targeted version (positions exact)', () => {
  it('Tomcat 10.1: the 9-style TLS connector and the APR one are refused, the realm too; old attributes ignored', () => {
    expect(found('10.1')).toEqual([
      'conf/Catalina/localhost/app.xml:1:10 warning attribute-unknown',
      'conf/Catalina/localhost/app.xml:2:21 error realm-missing-attribute',
      'conf/server.xml:3:40 error connector-tls-without-host-config',
      'conf/server.xml:3:46 warning attribute-unknown',
      'conf/server.xml:3:85 warning attribute-invalid-value',
      'conf/server.xml:4:38 error connector-protocol-not-found',
      'conf/server.xml:5:94 warning attribute-unknown',
    ]);
  });
  it('Tomcat 9.0: the same base starts the TLS connector and the realm; the APR one needs AprLifecycleListener; the Tomcat 7 attributes are still ignored', () => {
    expect(found('9.0')).toEqual([
      'conf/Catalina/localhost/app.xml:1:10 warning attribute-unknown',
      'conf/server.xml:3:85 warning attribute-invalid-value',
      'conf/server.xml:4:38 error connector-protocol-not-found',
      'conf/server.xml:5:94 warning attribute-unknown',
    ]);
  });
});

describe('a version difference says which targeted version starts the construct and which refuses it', () => {
  const BASE = {
    'conf/server.xml': [
      '<Server port="-1">',
      '  <Listener className="org.apache.catalina.security.TLSCertificateReloadListener"/>',
      '  <Listener className="org.apache.catalina.core.ThreadLocalLeakPreventionListener" optional="true"/>',
      '  <Service name="Catalina">',
      '    <Connector port="8443" SSLEnabled="true" keystoreFile="conf/ks.p12" acceptorThreadCount="2"/>',
      '    <Connector port="8009" protocol="org.apache.coyote.ajp.AjpAprProtocol" secret="s"/>',
      '    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine>',
      '  </Service>',
      '</Server>',
    ].join('\n'),
    'conf/Catalina/localhost/app.xml':
      '<Context>\n  <CookieProcessor className="org.apache.tomcat.util.http.LegacyCookieProcessor"/>\n  <Valve className="org.apache.catalina.valves.JsonAccessLogValve"/>\n</Context>',
    ...app(''),
  };
  const messages = (target: '9.0' | '10.1' | '11.0') =>
    lintFiles(BASE, { target })
      .filter((d) =>
        /^(server-class-not-found|context-class-not-found|connector-protocol-not-found|connector-tls-without-host-config|attribute-unknown)$/.test(
          d.ruleId,
        ),
      )
      .map((d) => `${d.span.line}:${d.span.column} ${d.ruleId} ${d.message}`)
      .sort();

  it('9.0: the listener and the valve 10.1 added are refused, and the finding says 10.1 and 11.0 take them', () => {
    const m = messages('9.0');
    expect(m.map((x) => x.split(' ').slice(0, 2).join(' '))).toEqual([
      '2:24 server-class-not-found',
      '3:21 context-class-not-found',
      '6:38 connector-protocol-not-found',
    ]);
    expect(m[2]).toContain('requires the AprLifecycleListener which is not available');
    expect(m[0]).toContain('Tomcat 10.1 and 11.0 start this server; 9.0 refuses it.');
    expect(m[1]).toContain('Tomcat 10.1 and 11.0 start this context; 9.0 refuses it.');
  });

  it.each(['10.1', '11.0'] as const)(
    '%s: the APR connector, the TLS connector and the legacy cookie processor',
    (t) => {
      const m = messages(t);
      expect(m.map((x) => x.split(' ').slice(0, 2).join(' '))).toEqual([
        '2:31 context-class-not-found',
        '5:40 connector-tls-without-host-config',
        '5:46 attribute-unknown',
        '5:73 attribute-unknown',
        '6:38 connector-protocol-not-found',
      ]);
      const [cookies, tls, keystore, acceptors, apr] = m as [string, string, string, string, string];
      expect(cookies).toContain(`Tomcat 9.0 starts this context; ${t} refuses it.`);
      expect(tls).toContain(
        `Tomcat 9.0 built it from the connector's own TLS attributes and started this connector; Tomcat ${t}`,
      );
      expect(keystore).toContain(`on Tomcat ${t} (Tomcat 9.0 takes it)`);
      expect(acceptors).toContain(`on Tomcat ${t} (Tomcat 9.0 takes it)`);
      expect(apr).toContain(`Tomcat 9.0 starts this connector; ${t} refuses it.`);
    },
  );

  it('the optional attribute of a Server listener is read by ListenerCreateRule, not set: no attribute-unknown (observed on 9.0.70 and 10.1.60)', () => {
    for (const t of ['9.0', '10.1', '11.0'] as const)
      expect(messages(t).filter((x) => x.startsWith('3:'))).not.toContainEqual(
        expect.stringContaining('attribute-unknown'),
      );
  });
});
