/**
 * The bases of the catalogue's conformance test (catalogue.conformance.test.ts): each construct the
 * catalogue rules judge (unknown attribute, value Tomcat cannot convert, class not loadable in
 * server.xml and in context files, optional listener, protocol not found, TLS attributes without
 * SSLHostConfig, realm missing an attribute) written as people write it, several per base where they
 * do not interfere: connectors side by side, each context in its own file. A construct that stops the
 * whole server on one version has a base of its own.
 */
import type { MigrateBase } from './migrate-bases.js';

/** Where a case's construct is: a connector, a context, or the server as a whole. */
export type CaseScope = { connector: string } | { context: string } | 'server';

export interface CatalogueCase {
  id: string;
  scope: CaseScope;
  /**
   * Where lint's findings on it land: a file of the base, and within conf/server.xml the lines from
   * `<!-- case:id -->` to the next case marker (or the end of the file).
   */
  file: string;
  /** The attribute names whose "failed to set property" line is this case's (unique within a base). */
  attributes: string[];
}

export interface CatalogueBase extends MigrateBase {
  cases: CatalogueCase[];
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Listener className="org.apache.catalina.startup.VersionLoggerListener"/>`;
const SERVICE = `  <Service name="Catalina">`;
const ENGINE = `    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false"/>
    </Engine>
  </Service>
</Server>
`;
const HTTP = `    <Connector port="{{http}}" address="127.0.0.1" protocol="HTTP/1.1"/>`;
const SERVER_XML = 'conf/server.xml';
const contextFile = (id: string) => `conf/Catalina/localhost/${id}.xml`;
const context = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;

/** A context case: its own context file, deployed from webapps/<id>. */
function ctxCase(
  id: string,
  xml: string,
  attributes: string[] = [],
): { files: Record<string, string>; c: CatalogueCase } {
  return {
    files: { [contextFile(id)]: context(xml) },
    c: { id, scope: { context: `/${id}` }, file: contextFile(id), attributes },
  };
}

const contextCases = [
  ctxCase('plain', '<Context reloadable="false"/>'),
  ctxCase('tomcat7-attributes', '<Context cachingAllowed="true" allowLinking="true"/>', [
    'cachingAllowed',
    'allowLinking',
  ]),
  ctxCase(
    'manager-missing',
    '<Context>\n  <Manager className="org.redisson.tomcat.RedissonSessionManager" configPath="conf/redisson.yaml"/>\n</Context>',
  ),
  ctxCase('listener-missing', '<Context>\n  <Listener className="com.example.AppStartupListener"/>\n</Context>'),
  ctxCase(
    'legacy-cookies',
    '<Context>\n  <CookieProcessor className="org.apache.tomcat.util.http.LegacyCookieProcessor"/>\n</Context>',
  ),
  ctxCase(
    'json-access-log',
    '<Context>\n  <Valve className="org.apache.catalina.valves.JsonAccessLogValve" directory="logs"/>\n</Context>',
  ),
  ctxCase(
    'valve-bad-number',
    '<Context>\n  <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" maxDays="many"/>\n</Context>',
    ['maxDays'],
  ),
  ctxCase(
    'realm-no-table',
    '<Context>\n  <Realm className="org.apache.catalina.realm.DataSourceRealm" dataSourceName="jdbc/users" localDataSource="true" userNameCol="user_name" userCredCol="user_pass" userRoleTable="user_roles" roleNameCol="role_name"/>\n</Context>',
  ),
  ctxCase(
    'loader-tomcat7',
    '<Context>\n  <Loader className="org.apache.catalina.loader.WebappLoader" searchExternalFirst="true"/>\n</Context>',
    ['searchExternalFirst'],
  ),
];

/** A webapp directory whose own META-INF/context.xml names a class Tomcat cannot load. */
const metaInf: { files: Record<string, string>; c: CatalogueCase } = {
  files: {
    'webapps/meta-inf-valve/META-INF/context.xml': context(
      '<Context>\n  <Valve className="de.example.tomcat.AuditValve"/>\n</Context>',
    ),
  },
  c: {
    id: 'meta-inf-valve',
    scope: { context: '/meta-inf-valve' },
    file: 'webapps/meta-inf-valve/META-INF/context.xml',
    attributes: [],
  },
};

export const CATALOGUE_BASES: CatalogueBase[] = [
  {
    name: 'connectors',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'keystore', kind: 'https' },
      { name: 'pem', kind: 'https' },
      { name: 'removed', kind: 'http' },
      { name: 'badnumber', kind: 'http' },
      { name: 'aprnolistener', kind: 'http' },
    ],
    contexts: [],
    serverXml: `${HEAD}
${SERVICE}
    <!-- case:http -->
${HTTP}
    <!-- case:keystore -->
    <Connector port="{{keystore}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11NioProtocol"
               SSLEnabled="true" scheme="https" secure="true" clientAuth="false" sslProtocol="TLS"
               keystoreFile="conf/keystore.jks" keystorePass="changeit" keystoreType="JKS"/>
    <!-- case:pem -->
    <Connector port="{{pem}}" address="127.0.0.1" protocol="HTTP/1.1" SSLEnabled="true" scheme="https" secure="true"
               SSLCertificateFile="conf/cert.pem" SSLCertificateKeyFile="conf/key.pem"/>
    <!-- case:removed -->
    <Connector port="{{removed}}" address="127.0.0.1" protocol="HTTP/1.1" acceptorThreadCount="2" rejectIllegalHeaderName="true"/>
    <!-- case:apr-no-listener -->
    <Connector port="{{aprnolistener}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"/>
    <!-- case:badnumber -->
    <Connector port="{{badnumber}}" address="127.0.0.1" protocol="HTTP/1.1" maxThreads="lots"/>
    <!-- case:end -->
${ENGINE}`,
    cases: [
      { id: 'http', scope: { connector: 'http' }, file: SERVER_XML, attributes: [] },
      {
        id: 'keystore',
        scope: { connector: 'keystore' },
        file: SERVER_XML,
        attributes: ['keystoreFile', 'keystorePass', 'keystoreType', 'clientAuth', 'sslProtocol'],
      },
      {
        id: 'pem',
        scope: { connector: 'pem' },
        file: SERVER_XML,
        attributes: ['SSLCertificateFile', 'SSLCertificateKeyFile'],
      },
      {
        id: 'removed',
        scope: { connector: 'removed' },
        file: SERVER_XML,
        attributes: ['acceptorThreadCount', 'rejectIllegalHeaderName'],
      },
      { id: 'badnumber', scope: { connector: 'badnumber' }, file: SERVER_XML, attributes: ['maxThreads'] },
      { id: 'apr-no-listener', scope: { connector: 'aprnolistener' }, file: SERVER_XML, attributes: [] },
    ],
  },
  {
    name: 'apr',
    connectors: [
      { name: 'aprhttp', kind: 'http' },
      { name: 'aprajp', kind: 'ajp' },
    ],
    contexts: [],
    serverXml: `${HEAD}
  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="off"/>
${SERVICE}
    <!-- case:aprhttp -->
    <Connector port="{{aprhttp}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"/>
    <!-- case:aprajp -->
    <Connector port="{{aprajp}}" address="127.0.0.1" protocol="org.apache.coyote.ajp.AjpAprProtocol" secret="s3cr3t"/>
    <!-- case:end -->
${ENGINE}`,
    cases: [
      { id: 'aprhttp', scope: { connector: 'aprhttp' }, file: SERVER_XML, attributes: [] },
      { id: 'aprajp', scope: { connector: 'aprajp' }, file: SERVER_XML, attributes: [] },
    ],
  },
  {
    name: 'contexts',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [...contextCases.map((c) => `/${c.c.id}`), '/meta-inf-valve'],
    serverXml: `${HEAD}
  <!-- case:listener-removed-attributes -->
  <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener" gcDaemonProtection="false" tokenPollerProtection="false"/>
  <!-- case:listener-optional-present -->
  <Listener className="org.apache.catalina.core.ThreadLocalLeakPreventionListener" optional="true"/>
  <!-- case:end -->
${SERVICE}
${HTTP}
    <Engine name="Catalina" defaultHost="localhost">
      <!-- case:host-tomcat7-attributes -->
      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false" xmlValidation="false" xmlNamespaceAware="false"/>
      <!-- case:end -->
    </Engine>
  </Service>
</Server>
`,
    files: Object.assign({}, ...contextCases.map((c) => c.files), metaInf.files) as Record<string, string>,
    cases: [
      {
        id: 'listener-removed-attributes',
        scope: 'server',
        file: SERVER_XML,
        attributes: ['gcDaemonProtection', 'tokenPollerProtection'],
      },
      { id: 'listener-optional-present', scope: 'server', file: SERVER_XML, attributes: ['optional'] },
      {
        id: 'host-tomcat7-attributes',
        scope: 'server',
        file: SERVER_XML,
        attributes: ['xmlValidation', 'xmlNamespaceAware'],
      },
      ...contextCases.map((c) => c.c),
      metaInf.c,
    ],
  },
  {
    name: 'listener-optional-missing',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [''],
    serverXml: `${HEAD}
  <!-- case:listener-optional-missing -->
  <Listener className="com.example.MonitoringListener" optional="true"/>
  <!-- case:end -->
${SERVICE}
${HTTP}
${ENGINE}`,
    cases: [{ id: 'listener-optional-missing', scope: 'server', file: SERVER_XML, attributes: ['optional'] }],
  },
  {
    name: 'listener-missing',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [''],
    serverXml: `${HEAD}
  <!-- case:listener-missing -->
  <Listener className="com.example.MonitoringListener"/>
  <!-- case:end -->
${SERVICE}
${HTTP}
${ENGINE}`,
    cases: [{ id: 'listener-missing', scope: 'server', file: SERVER_XML, attributes: [] }],
  },
  {
    name: 'listener-added-in-10.1',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [''],
    serverXml: `${HEAD}
  <!-- case:listener-added-in-10.1 -->
  <Listener className="org.apache.catalina.security.TLSCertificateReloadListener" checkPeriod="60" daysBefore="14"/>
  <!-- case:end -->
${SERVICE}
${HTTP}
${ENGINE}`,
    cases: [
      { id: 'listener-added-in-10.1', scope: 'server', file: SERVER_XML, attributes: ['checkPeriod', 'daysBefore'] },
    ],
  },
  {
    // With executor= the digester itself fails on the missing handler on 10.1: the whole server, not the connector.
    name: 'apr-executor',
    connectors: [{ name: 'aprexec', kind: 'http' }],
    contexts: [],
    serverXml: `${HEAD}
  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="off"/>
${SERVICE}
    <Executor name="pool" namePrefix="exec-" maxThreads="200"/>
    <!-- case:apr-executor -->
    <Connector port="{{aprexec}}" address="127.0.0.1" executor="pool" protocol="org.apache.coyote.http11.Http11AprProtocol"/>
    <!-- case:end -->
${ENGINE}`,
    cases: [{ id: 'apr-executor', scope: 'server', file: SERVER_XML, attributes: [] }],
  },
  {
    name: 'host-default-context',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [''],
    serverXml: `${HEAD}
${SERVICE}
${HTTP}
${ENGINE}`,
    files: {
      'conf/Catalina/localhost/context.xml.default': context(
        '<Context>\n  <Manager className="org.redisson.tomcat.RedissonSessionManager" configPath="conf/redisson.yaml"/>\n</Context>',
      ),
    },
    cases: [
      {
        id: 'host-default-context',
        scope: { context: '/' },
        file: 'conf/Catalina/localhost/context.xml.default',
        attributes: [],
      },
    ],
  },
  {
    name: 'global-context-manager',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: [''],
    serverXml: `${HEAD}
${SERVICE}
${HTTP}
${ENGINE}`,
    files: {
      'conf/context.xml': context(
        '<Context>\n  <WatchedResource>WEB-INF/web.xml</WatchedResource>\n  <JarScanner scanClassPath="false" scanManifest="false"/>\n  <Manager className="org.redisson.tomcat.RedissonSessionManager" configPath="conf/redisson.yaml"/>\n</Context>',
      ),
    },
    cases: [{ id: 'global-context-manager', scope: { context: '/' }, file: 'conf/context.xml', attributes: [] }],
  },
];
