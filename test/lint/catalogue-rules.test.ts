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
  it('Tomcat 9.0: the same base starts both connectors and the realm; the Tomcat 7 attributes are still ignored', () => {
    expect(found('9.0')).toEqual([
      'conf/Catalina/localhost/app.xml:1:10 warning attribute-unknown',
      'conf/server.xml:3:85 warning attribute-invalid-value',
      'conf/server.xml:5:94 warning attribute-unknown',
    ]);
  });
});
