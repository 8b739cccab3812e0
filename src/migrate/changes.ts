/**
 * What changed between Tomcat 7, 8.5 and 9.0 configuration and Tomcat 10.1, as data: every rewrite of
 * `tollgate migrate` reads its facts from here. The connector and listener lists were read from the
 * setters of Tomcat 9.0.70's and 10.1's classes (javap on Debian's libtomcat9-java and libtomcat10-java
 * jars: the bean properties Tomcat's digester sets), the TLS mapping from which SSLHostConfig or
 * certificate setter each of Tomcat 9's legacy Connector setters calls.
 */

/** Where a legacy TLS attribute of a Tomcat 8.5/9 `<Connector>` lives in 10.1. */
export interface TlsMove {
  to: 'SSLHostConfig' | 'Certificate';
  name: string;
}

/**
 * Tomcat 9's AbstractHttp11Protocol set each of these on the connector's default SSLHostConfig (named by
 * defaultSSLHostConfigName, `_default_` unless set) or on that host's one certificate; Tomcat 10.1 has
 * none of them on the connector, logs each as a property it failed to set, and without an SSLHostConfig
 * the TLS connector does not start. Names are case-sensitive, as Tomcat's setters are (`sslProtocol` and
 * `SSLProtocol` are different properties).
 */
export const CONNECTOR_TLS: Readonly<Record<string, TlsMove>> = {
  // JSSE names
  algorithm: { to: 'SSLHostConfig', name: 'keyManagerAlgorithm' },
  ciphers: { to: 'SSLHostConfig', name: 'ciphers' },
  clientAuth: { to: 'SSLHostConfig', name: 'certificateVerification' },
  crlFile: { to: 'SSLHostConfig', name: 'certificateRevocationListFile' },
  keyAlias: { to: 'Certificate', name: 'certificateKeyAlias' },
  keyPass: { to: 'Certificate', name: 'certificateKeyPassword' },
  keystoreFile: { to: 'Certificate', name: 'certificateKeystoreFile' },
  keystorePass: { to: 'Certificate', name: 'certificateKeystorePassword' },
  keystoreProvider: { to: 'Certificate', name: 'certificateKeystoreProvider' },
  keystoreType: { to: 'Certificate', name: 'certificateKeystoreType' },
  sessionCacheSize: { to: 'SSLHostConfig', name: 'sessionCacheSize' },
  sessionTimeout: { to: 'SSLHostConfig', name: 'sessionTimeout' },
  sslEnabledProtocols: { to: 'SSLHostConfig', name: 'protocols' },
  sslProtocol: { to: 'SSLHostConfig', name: 'sslProtocol' },
  trustManagerClassName: { to: 'SSLHostConfig', name: 'trustManagerClassName' },
  trustMaxCertLength: { to: 'SSLHostConfig', name: 'certificateVerificationDepth' },
  truststoreAlgorithm: { to: 'SSLHostConfig', name: 'truststoreAlgorithm' },
  truststoreFile: { to: 'SSLHostConfig', name: 'truststoreFile' },
  truststorePass: { to: 'SSLHostConfig', name: 'truststorePassword' },
  truststoreProvider: { to: 'SSLHostConfig', name: 'truststoreProvider' },
  truststoreType: { to: 'SSLHostConfig', name: 'truststoreType' },
  useServerCipherSuitesOrder: { to: 'SSLHostConfig', name: 'honorCipherOrder' },
  // OpenSSL (APR) names
  SSLCACertificateFile: { to: 'SSLHostConfig', name: 'caCertificateFile' },
  SSLCACertificatePath: { to: 'SSLHostConfig', name: 'caCertificatePath' },
  SSLCARevocationFile: { to: 'SSLHostConfig', name: 'certificateRevocationListFile' },
  SSLCARevocationPath: { to: 'SSLHostConfig', name: 'certificateRevocationListPath' },
  SSLCertificateChainFile: { to: 'Certificate', name: 'certificateChainFile' },
  SSLCertificateFile: { to: 'Certificate', name: 'certificateFile' },
  SSLCertificateKeyFile: { to: 'Certificate', name: 'certificateKeyFile' },
  SSLCipherSuite: { to: 'SSLHostConfig', name: 'ciphers' },
  SSLDisableCompression: { to: 'SSLHostConfig', name: 'disableCompression' },
  SSLDisableSessionTickets: { to: 'SSLHostConfig', name: 'disableSessionTickets' },
  SSLHonorCipherOrder: { to: 'SSLHostConfig', name: 'honorCipherOrder' },
  SSLPassword: { to: 'Certificate', name: 'certificateKeyPassword' },
  SSLProtocol: { to: 'SSLHostConfig', name: 'protocols' },
  SSLVerifyClient: { to: 'SSLHostConfig', name: 'certificateVerification' },
  SSLVerifyDepth: { to: 'SSLHostConfig', name: 'certificateVerificationDepth' },
};

/**
 * The certificate properties Tomcat 9's `<SSLHostConfig>` also took (passed on to its one default
 * certificate) and 10.1's does not: they belong on a `<Certificate>` child. Same names there.
 */
export const SSLHOSTCONFIG_CERTIFICATE: ReadonlySet<string> = new Set([
  'certificateChainFile',
  'certificateFile',
  'certificateKeyAlias',
  'certificateKeyFile',
  'certificateKeyPassword',
  'certificateKeystoreFile',
  'certificateKeystorePassword',
  'certificateKeystoreProvider',
  'certificateKeystoreType',
]);

/** The PEM attributes: a certificate given as these was read by OpenSSL on an APR connector. */
export const PEM_CERTIFICATE: ReadonlySet<string> = new Set([
  'SSLCertificateFile',
  'SSLCertificateKeyFile',
  'SSLCertificateChainFile',
  'certificateFile',
  'certificateKeyFile',
]);

/**
 * Connector protocol classes Tomcat 10.1 does not have, and the one that takes their place. The APR/native
 * connectors were removed in 10.1 (the server does not start: "Server instance is not configured"), the
 * blocking (BIO) ones in 8.5.
 */
export const PROTOCOL_REPLACEMENTS: Readonly<Record<string, string>> = {
  'org.apache.coyote.http11.Http11AprProtocol': 'org.apache.coyote.http11.Http11NioProtocol',
  'org.apache.coyote.ajp.AjpAprProtocol': 'org.apache.coyote.ajp.AjpNioProtocol',
  'org.apache.coyote.http11.Http11Protocol': 'org.apache.coyote.http11.Http11NioProtocol',
  'org.apache.coyote.ajp.AjpProtocol': 'org.apache.coyote.ajp.AjpNioProtocol',
};

/** Properties only the APR endpoint had (AprEndpoint and Http11AprProtocol of 9.0.70), dropped with it. */
export const APR_ONLY_CONNECTOR: ReadonlySet<string> = new Set([
  'pollTime',
  'sendfileSize',
  'deferAccept',
  'ipv6v6only',
]);

/** An attribute Tomcat 10.1 no longer has on an element, and why it can go. */
export interface RemovedAttribute {
  name: string;
  why: string;
}

/**
 * Attributes of Tomcat 7 and 8.0 that 9.0 no longer had either, per element (`Context`, `Host`) or per
 * Listener class: 10.1 logs each as a property it failed to set and ignores it, so they are dropped.
 * What 9.0 set and 10.1 does not is read from src/catalogue instead (the jars of both versions).
 */
export const REMOVED_ATTRIBUTES: Readonly<Record<string, readonly RemovedAttribute[]>> = {
  Context: [
    { name: 'antiJARLocking', why: 'removed in Tomcat 8.0 (antiResourceLocking covers it)' },
    { name: 'caseSensitive', why: 'removed in Tomcat 8.0 (resources are always case sensitive)' },
    { name: 'processTlds', why: 'removed in Tomcat 8.0 (TLDs are scanned by Jasper)' },
  ],
  Host: [
    { name: 'xmlValidation', why: 'removed from Host in Tomcat 8.0 (set it on each Context)' },
    { name: 'xmlNamespaceAware', why: 'removed from Host in Tomcat 8.0 (set it on each Context)' },
  ],
  'org.apache.catalina.core.JreMemoryLeakPreventionListener': [
    { name: 'securityPolicyProtection', why: 'removed in Tomcat 8.5' },
    { name: 'securityLoginConfigurationProtection', why: 'removed in Tomcat 8.5' },
    { name: 'java2DDisposerProtection', why: 'removed in Tomcat 8.5' },
    { name: 'keepAliveProtection', why: 'removed in Tomcat 8.5' },
  ],
};

/** Listener classes Tomcat 10.1 cannot load (the server does not start), dropped whole. */
export const REMOVED_LISTENERS: Readonly<Record<string, string>> = {
  'org.apache.catalina.core.JasperListener': 'removed in Tomcat 8.0 (Jasper initialises itself)',
  'org.apache.catalina.mbeans.ServerLifecycleListener': 'removed in Tomcat 7.0 (the MBeans are always registered)',
};

/**
 * Tomcat 7's Context attributes for its static resources: Tomcat 8.0 moved them to the context's
 * `<Resources>` element (StandardRoot's setters, in the same units), and since then sets none of them
 * on a Context. `cacheTTL` became `cacheTtl` on the way.
 */
export const CONTEXT_TO_RESOURCES: Readonly<Record<string, string>> = {
  allowLinking: 'allowLinking',
  cacheMaxSize: 'cacheMaxSize',
  cacheObjectMaxSize: 'cacheObjectMaxSize',
  cacheTTL: 'cacheTtl',
  cachingAllowed: 'cachingAllowed',
};

/**
 * Classes that no configuration rewrite can replace: the migration says what to do instead and leaves
 * the element as it is.
 */
export const MANUAL_CLASSES: Readonly<Record<string, string>> = {
  'org.apache.catalina.realm.JDBCRealm':
    'JDBCRealm was removed in Tomcat 10.1: use a DataSourceRealm over a JNDI DataSource (a <Resource> with the same driver and URL)',
  'org.apache.naming.resources.VirtualDirContext':
    'VirtualDirContext was removed in Tomcat 8.0: add each extra path as a <PreResources> or <PostResources> DirResourceSet inside <Resources>',
  'org.apache.catalina.loader.VirtualWebappLoader':
    'VirtualWebappLoader was removed in Tomcat 8.0: add each extra class path entry as a <PostResources> DirResourceSet or JarResourceSet mounted at /WEB-INF/classes or /WEB-INF/lib',
  'org.apache.catalina.valves.CometConnectionManagerValve':
    'Comet was removed in Tomcat 8.5: the valve has no replacement',
};

/** The Jakarta EE 10 deployment descriptor that Tomcat 10.1 implements (Servlet 6.0). */
export const JAKARTAEE_NAMESPACE = 'https://jakarta.ee/xml/ns/jakartaee';
export const WEB_APP_VERSION = '6.0';
export const WEB_APP_SCHEMA = 'https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd';
export const WEB_FRAGMENT_SCHEMA = 'https://jakarta.ee/xml/ns/jakartaee/web-fragment_6_0.xsd';

/** The namespaces of the web.xml schemas before Jakarta EE 9 (J2EE 1.4, Java EE 5-7 at Sun, Java EE 8 at the JCP). */
export const OLD_WEB_NAMESPACES: ReadonlySet<string> = new Set([
  'http://java.sun.com/xml/ns/j2ee',
  'http://java.sun.com/xml/ns/javaee',
  'http://xmlns.jcp.org/xml/ns/javaee',
]);
