/**
 * The Tomcat 9-style bases of the migration's conformance test (migrate.conformance.test.ts): each as
 * people wrote them for Tomcat 7, 8.5 and 9 (TLS attributes on the Connector, APR connectors, Tomcat 7
 * Context attributes, javaee web.xml), with its ports chosen at test time and its keys made by keytool
 * and openssl (never committed).
 */

/** How a connector is checked: an HTTP request, an HTTPS request, or an AJP CPing. */
export type ConnectorKind = 'http' | 'https' | 'ajp';

export interface BaseConnector {
  /** The placeholder its port takes in the server.xml template: `{{name}}`. */
  name: string;
  kind: ConnectorKind;
}

export interface MigrateBase {
  name: string;
  connectors: BaseConnector[];
  /** Context paths served by every HTTP(S) connector, each with an index.html that says its name. */
  contexts: string[];
  /** conf/server.xml with `{{connector}}` port placeholders. */
  serverXml: string;
  /** Other files (path relative to the base: text). */
  files?: Record<string, string>;
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<!-- A Tomcat 9 server.xml, as found in the wild -->
<Server port="-1" shutdown="SHUTDOWN">
  <Listener className="org.apache.catalina.startup.VersionLoggerListener" />`;

const ENGINE = `    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost"  appBase="webapps"
            unpackWARs="true" autoDeploy="false">
      </Host>
    </Engine>
  </Service>
</Server>
`;

const HTTP = `    <Connector port="{{http}}" address="127.0.0.1" protocol="HTTP/1.1"
               connectionTimeout="20000" />`;

const WEB_XML_JAVAEE_4 = `<?xml version="1.0" encoding="UTF-8"?>
<!-- the application's descriptor, Servlet 4.0 -->
<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://xmlns.jcp.org/xml/ns/javaee
                             http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd"
         version="4.0">
  <display-name>app</display-name>
  <welcome-file-list>
    <welcome-file>index.html</welcome-file>
  </welcome-file-list>
</web-app>
`;

const WEB_XML_J2EE_24 = `<?xml version="1.0" encoding="ISO-8859-1"?>
<web-app xmlns="http://java.sun.com/xml/ns/j2ee"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://java.sun.com/xml/ns/j2ee http://java.sun.com/xml/ns/j2ee/web-app_2_4.xsd"
    version="2.4">
  <!-- Servlet 2.4, Tomcat 5.5 era -->
  <session-config>
    <session-timeout>30</session-timeout>
  </session-config>
</web-app>
`;

const WEB_XML_JAVAEE_3 = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="http://java.sun.com/xml/ns/javaee" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://java.sun.com/xml/ns/javaee http://java.sun.com/xml/ns/javaee/web-app_3_0.xsd" version="3.0" metadata-complete="true">
  <mime-mapping>
    <extension>txt</extension>
    <mime-type>text/plain</mime-type>
  </mime-mapping>
</web-app>
`;

const APR_LISTENER = `  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" />`;
const JRE_LISTENER = `  <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"
            gcDaemonProtection="false" tokenPollerProtection="true" />`;

export const MIGRATE_BASES: MigrateBase[] = [
  {
    name: 'jsse-pkcs12-keystore',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: ['', '/app'],
    serverXml: `${HEAD}
  <Service name="Catalina">
${HTTP}
    <!-- HTTPS with the keystore on the Connector, the Tomcat 8.0 way -->
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11NioProtocol"
               maxThreads="150" SSLEnabled="true" scheme="https" secure="true"
               keystoreFile="conf/keystore.p12" keystorePass="changeit" keystoreType="PKCS12"
               keyAlias="tomcat" clientAuth="false" sslProtocol="TLS" />
${ENGINE}`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_JAVAEE_4 },
  },
  {
    name: 'jsse-jks-http11-protocols',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: [''],
    serverXml: `${HEAD}
  <Service name="Catalina">
${HTTP}
    <Connector
        port="{{https}}" address="127.0.0.1"
        protocol="HTTP/1.1"
        SSLEnabled="true"
        keystoreFile="\${catalina.base}/conf/keystore.jks"
        keystorePass="changeit"
        keyPass="changeit"
        sslEnabledProtocols="TLSv1.2,TLSv1.3"
        ciphers="HIGH:!aNULL:!MD5"
        useServerCipherSuitesOrder="true"
        scheme="https" secure="true"/>
${ENGINE}`,
  },
  {
    name: 'jsse-pem-nio',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: ['', '/app'],
    serverXml: `${HEAD}
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11NioProtocol"
               SSLEnabled="true" scheme="https" secure="true"
               SSLCertificateFile="conf/cert.pem" SSLCertificateKeyFile="conf/key.pem"
               SSLProtocol="TLSv1.2" SSLHonorCipherOrder="true">
      <!-- HTTP/2 over TLS -->
      <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol" />
    </Connector>
${ENGINE}`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_JAVAEE_3 },
  },
  {
    name: 'apr-http',
    connectors: [{ name: 'http', kind: 'http' }],
    contexts: ['', '/app'],
    serverXml: `${HEAD}
${APR_LISTENER}
  <Service name="Catalina">
    <Connector port="{{http}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"
               connectionTimeout="20000" pollTime="2000" deferAccept="true" />
${ENGINE}`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_JAVAEE_4 },
  },
  {
    name: 'apr-https-pem',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: [''],
    serverXml: `${HEAD}
${APR_LISTENER}
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"
               maxThreads="150" SSLEnabled="true" scheme="https" secure="true"
               SSLCertificateFile="\${catalina.base}/conf/cert.pem"
               SSLCertificateKeyFile="\${catalina.base}/conf/key.pem"
               SSLVerifyClient="optional" SSLProtocol="TLSv1.2+TLSv1.3" />
${ENGINE}`,
  },
  {
    name: 'apr-ajp',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'ajp', kind: 'ajp' },
    ],
    contexts: ['', '/app'],
    serverXml: `${HEAD}
${APR_LISTENER}
  <Service name="Catalina">
${HTTP}
    <!-- AJP for the Apache httpd in front -->
    <Connector port="{{ajp}}" address="127.0.0.1" protocol="org.apache.coyote.ajp.AjpAprProtocol"
               secret="s3cret" redirectPort="8443" />
${ENGINE}`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_J2EE_24 },
  },
  {
    name: 'tomcat7-context-and-keystore',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: ['', '/app', '/legacy'],
    serverXml: `${HEAD}
${JRE_LISTENER}
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" SSLEnabled="true" scheme="https" secure="true"
               keystoreFile="conf/keystore.jks" keystorePass="changeit" clientAuth="want" />
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" xmlValidation="false" xmlNamespaceAware="false">
        <!-- Tomcat 7: the cache settings on the Context -->
        <Context path="/legacy" docBase="\${catalina.base}/legacy"
                 cachingAllowed="true" cacheMaxSize="20480" cacheTTL="10000"
                 allowLinking="false" antiJARLocking="true"/>
      </Host>
    </Engine>
  </Service>
</Server>
`,
    files: {
      'webapps/app/META-INF/context.xml': `<?xml version="1.0" encoding="UTF-8"?>
<Context cachingAllowed="false" antiJARLocking="true">
  <!-- resources from the application's own directory -->
  <WatchedResource>WEB-INF/web.xml</WatchedResource>
</Context>
`,
      'webapps/app/WEB-INF/web.xml': WEB_XML_JAVAEE_4,
    },
  },
  {
    name: 'sslhostconfig-certificate-attributes',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: [''],
    serverXml: `${HEAD}
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11NioProtocol"
               SSLEnabled="true" scheme="https" secure="true">
      <SSLHostConfig protocols="TLSv1.2"
                     certificateKeystoreFile="conf/keystore.p12"
                     certificateKeystorePassword="changeit"
                     certificateKeystoreType="PKCS12" />
    </Connector>
${ENGINE}`,
  },
  {
    name: 'named-default-sslhostconfig',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: ['', '/app'],
    serverXml: `${HEAD}
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11Nio2Protocol"
               SSLEnabled="true" defaultSSLHostConfigName="localhost"
               keystoreFile="conf/keystore.p12" keystorePass="changeit" keystoreType="PKCS12"
               truststoreFile="conf/truststore.p12" truststorePass="changeit" truststoreType="PKCS12"
               clientAuth="optional" sessionTimeout="3600"></Connector>
${ENGINE}`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_J2EE_24 },
  },
  {
    name: 'apr-default-http11',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
    ],
    contexts: [''],
    serverXml: `${HEAD}
  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" useAprConnector="true" />
  <Service name="Catalina">
${HTTP}
    <Connector port="{{https}}" address="127.0.0.1" protocol="HTTP/1.1" SSLEnabled="true"
               SSLCertificateFile="conf/cert.pem" SSLCertificateKeyFile="conf/key.pem"
               SSLCipherSuite="HIGH:!aNULL" sendfileSize="512" />
${ENGINE}`,
  },
  {
    name: 'everything-at-once',
    connectors: [
      { name: 'http', kind: 'http' },
      { name: 'https', kind: 'https' },
      { name: 'apr', kind: 'https' },
      { name: 'ajp', kind: 'ajp' },
    ],
    contexts: ['', '/app', '/legacy'],
    serverXml: `${HEAD}
${APR_LISTENER}
${JRE_LISTENER}
  <Listener className="org.apache.catalina.mbeans.GlobalResourcesLifecycleListener" />
  <Service name="Catalina">
    <Connector port="{{http}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"
               connectionTimeout="20000" />
    <Connector port="{{https}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11NioProtocol"
               SSLEnabled="true" keystoreFile="conf/keystore.p12" keystorePass="changeit"
               keystoreType="PKCS12" acceptorThreadCount="2" pollerThreadCount="2" />
    <Connector port="{{apr}}" address="127.0.0.1" protocol="org.apache.coyote.http11.Http11AprProtocol"
               SSLEnabled="true" SSLCertificateFile="conf/cert.pem" SSLCertificateKeyFile="conf/key.pem"
               SSLCertificateChainFile="conf/cert.pem" SSLPassword="" />
    <Connector port="{{ajp}}" address="127.0.0.1" protocol="org.apache.coyote.ajp.AjpAprProtocol"
               secretRequired="false" />
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" xmlValidation="false">
        <Context path="/legacy" docBase="\${catalina.base}/legacy" cachingAllowed="true" cacheObjectMaxSize="256">
          <Resources cacheMaxSize="40960" />
        </Context>
      </Host>
    </Engine>
  </Service>
</Server>
`,
    files: { 'webapps/app/WEB-INF/web.xml': WEB_XML_JAVAEE_4, 'webapps/ROOT/WEB-INF/web.xml': WEB_XML_J2EE_24 },
  },
];
