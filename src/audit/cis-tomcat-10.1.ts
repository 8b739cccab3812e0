import type { Benchmark, Control } from './catalogue.js';

const L1 = 'Level 1';
const L2 = 'Level 2';

/** Access to a file or folder: CIS 4.x all ask the same owner and mode. */
const access = (what: string, mode: string): string => `ls -ld ${what}: owner tomcat_admin, group tomcat, ${mode}`;

/**
 * The CIS Apache Tomcat 10.1 Benchmark v1.0.0: every recommendation, numbered and titled as the
 * benchmark has them (titles keep the benchmark's wording, its "Sever" typo included, so they
 * match the PDF an auditor holds).
 */
const controls: Omit<Control, 'severity'>[] = [
  {
    id: '1.1',
    title: 'Remove extraneous files and directories',
    level: L2,
    check:
      'webapps/ holds no docs, examples or Tomcat ROOT sample application, and no manager or host-manager unless they are used.',
  },
  {
    id: '1.2',
    title: 'Disable Unused Connectors',
    level: L2,
    check:
      'Every <Connector> in conf/server.xml is one the deployment needs (the stock AJP and plain HTTP connectors removed when unused).',
  },
  {
    id: '2.1',
    title: 'Alter the Advertised server.info String',
    level: L2,
    check:
      'server.info in org/apache/catalina/util/ServerInfo.properties (inside lib/catalina.jar, or an override under $CATALINA_BASE/lib) no longer says "Apache Tomcat/<version>".',
  },
  {
    id: '2.2',
    title: 'Alter the Advertised server.number String',
    level: L2,
    check:
      'server.number in ServerInfo.properties (lib/catalina.jar or a $CATALINA_BASE/lib override) is not the real version number.',
  },
  {
    id: '2.3',
    title: 'Alter the Advertised server.built Date',
    level: L2,
    check:
      'server.built in ServerInfo.properties (lib/catalina.jar or a $CATALINA_BASE/lib override) is not the real build date.',
  },
  {
    id: '2.4',
    title: 'Disable X-Powered-By HTTP Header and Rename the Server Value for all Connectors',
    level: L2,
    check: 'No <Connector> in conf/server.xml has xpoweredBy="true".',
  },
  {
    id: '2.5',
    title: 'Disable client facing Stack Traces',
    level: L1,
    check: 'conf/web.xml has an <error-page> whose <exception-type> is java.lang.Throwable.',
  },
  { id: '2.6', title: 'Turn off TRACE', level: L1, check: 'No <Connector> in conf/server.xml has allowTrace="true".' },
  {
    id: '2.7',
    title: 'Ensure Sever Header is Modified To Prevent Information Disclosure',
    level: L2,
    check: 'Every HTTP <Connector> sets a server="..." value that names no product or version.',
  },
  {
    id: '3.1',
    title: 'Set a nondeterministic Shutdown command value',
    level: L1,
    check: 'The <Server shutdown="..."> command in conf/server.xml is not SHUTDOWN.',
  },
  { id: '3.2', title: 'Disable the Shutdown port', level: L2, check: '<Server port="-1"> in conf/server.xml.' },
  {
    id: '4.1',
    title: 'Restrict access to $CATALINA_HOME',
    level: L1,
    check: access('$CATALINA_HOME', 'no group write, nothing for others'),
  },
  {
    id: '4.2',
    title: 'Restrict access to $CATALINA_BASE',
    level: L1,
    check: access('$CATALINA_BASE', 'no group write, nothing for others'),
  },
  {
    id: '4.3',
    title: 'Restrict access to Tomcat configuration directory',
    level: L1,
    check: access('$CATALINA_BASE/conf', 'no group write, nothing for others'),
  },
  {
    id: '4.4',
    title: 'Restrict access to Tomcat logs directory',
    level: L1,
    check: access('$CATALINA_BASE/logs', 'nothing for others'),
  },
  {
    id: '4.5',
    title: 'Restrict access to Tomcat temp directory',
    level: L1,
    check: access('$CATALINA_BASE/temp', 'nothing for others'),
  },
  {
    id: '4.6',
    title: 'Restrict access to Tomcat binaries directory',
    level: L1,
    check: access('$CATALINA_HOME/bin', 'no group write, nothing for others'),
  },
  {
    id: '4.7',
    title: 'Restrict access to Tomcat web application directory',
    level: L1,
    check: access('$CATALINA_BASE/webapps', 'no group write, nothing for others'),
  },
  {
    id: '4.8',
    title: 'Restrict access to Tomcat catalina.properties',
    level: L1,
    check: access('conf/catalina.properties', 'mode 600 or stricter'),
  },
  {
    id: '4.9',
    title: 'Restrict access to Tomcat catalina.policy',
    level: L1,
    check: access('conf/catalina.policy', 'mode 600 or stricter'),
  },
  {
    id: '4.10',
    title: 'Restrict access to Tomcat context.xml',
    level: L1,
    check: access('conf/context.xml', 'mode 600 or stricter'),
  },
  {
    id: '4.11',
    title: 'Restrict access to Tomcat logging.properties',
    level: L1,
    check: access('conf/logging.properties', 'mode 600 or stricter'),
  },
  {
    id: '4.12',
    title: 'Restrict access to Tomcat server.xml',
    level: L1,
    check: access('conf/server.xml', 'mode 600 or stricter'),
  },
  {
    id: '4.13',
    title: 'Restrict access to Tomcat tomcat-users.xml',
    level: L1,
    check: access('conf/tomcat-users.xml', 'mode 600 or stricter'),
  },
  {
    id: '4.14',
    title: 'Restrict access to Tomcat web.xml',
    level: L1,
    check: access('conf/web.xml', 'mode 400 or stricter'),
  },
  {
    id: '4.15',
    title: 'Restrict access to jaspic-providers.xml',
    level: L1,
    check: access('conf/jaspic-providers.xml', 'mode 600 or stricter'),
  },
  {
    id: '5.1',
    title: 'Use secure Realms',
    level: L2,
    check:
      'No MemoryRealm, JDBCRealm, UserDatabaseRealm or JAASRealm authenticates users in production (conf/server.xml and context files).',
  },
  {
    id: '5.2',
    title: 'Use LockOut Realms',
    level: L2,
    check: 'Every Realm that authenticates users is nested in a LockOutRealm (conf/server.xml).',
  },
  {
    id: '6.1',
    title: 'Setup Client-cert Authentication',
    level: L2,
    check: 'TLS connectors that need client certificates set certificateVerification="required" (clientAuth="true").',
  },
  {
    id: '6.2',
    title: 'Ensure SSLEnabled is set to True for Sensitive Connectors',
    level: L1,
    check:
      'Every connector that carries sensitive data has SSLEnabled="true" (or sits behind a TLS-terminating proxy on a trusted network).',
  },
  {
    id: '6.3',
    title: 'Ensure scheme is set accurately',
    level: L1,
    check: 'scheme="https" on TLS connectors (or ones behind a TLS proxy), scheme="http" elsewhere.',
  },
  {
    id: '6.4',
    title: 'Ensure secure is set to true only for SSL-enabled Connectors',
    level: L1,
    check: 'secure="true" only on TLS connectors (or ones behind a TLS proxy), never on plain HTTP ones.',
  },
  {
    id: '6.5',
    title: "Ensure 'sslProtocol' is Configured Correctly for Secure Connectors",
    level: L1,
    check:
      'TLS connectors allow only TLSv1.2 and TLSv1.3 (protocols / sslProtocol on <SSLHostConfig> or the connector).',
  },
  {
    id: '7.1',
    title: 'Application specific logging',
    level: L2,
    check: 'Each application has WEB-INF/classes/logging.properties.',
  },
  {
    id: '7.2',
    title: 'Specify file handler in logging.properties files',
    level: L1,
    check: 'conf/logging.properties and each application\'s logging.properties declare a file handler in "handlers".',
  },
  {
    id: '7.3',
    title: 'Ensure className is set correctly in context.xml',
    level: L2,
    check:
      "Each application's context (META-INF/context.xml or conf/<Engine>/<Host>/<app>.xml) has an org.apache.catalina.valves.AccessLogValve.",
  },
  {
    id: '7.4',
    title: 'Ensure directory in context.xml is a secure location',
    level: L1,
    check:
      'ls -ld on the AccessLogValve directory of each context: owner tomcat_admin, group tomcat, nothing for others.',
  },
  {
    id: '7.5',
    title: 'Ensure pattern in context.xml is correct',
    level: L1,
    check: "Each context's AccessLogValve pattern holds the fields the installation's log policy asks for.",
  },
  {
    id: '7.6',
    title: 'Ensure directory in logging.properties is a secure location',
    level: L1,
    check:
      "ls -ld on every handler directory of conf/logging.properties and the applications' logging.properties: owner tomcat_admin, group tomcat, nothing for others.",
  },
  {
    id: '8.1',
    title: 'Restrict runtime access to sensitive packages',
    level: L1,
    check:
      'package.access in conf/catalina.properties still lists sun., org.apache.catalina., org.apache.coyote., org.apache.jasper. and org.apache.tomcat.',
  },
  {
    id: '9.1',
    title: 'Disabling auto deployment of applications',
    level: L2,
    check: 'Every <Host> in conf/server.xml has autoDeploy="false".',
  },
  {
    id: '9.2',
    title: 'Disable deploy on startup of applications',
    level: L2,
    check: 'Every <Host> in conf/server.xml has deployOnStartup="false".',
  },
  {
    id: '10.1',
    title: 'Ensure Web content directory is on a separate partition from the Tomcat system files',
    level: L1,
    check: "df $CATALINA_HOME and df on each Host's appBase: different file systems.",
  },
  {
    id: '10.2',
    title: 'Restrict access to the web administration application',
    level: L1,
    check:
      'The manager and host-manager contexts have a RemoteAddrValve or RemoteCIDRValve allowing only the management addresses.',
    appliesWhen: 'manager',
  },
  {
    id: '10.3',
    title: 'Restrict manager application',
    level: L2,
    check:
      'The manager context (conf/<Engine>/<Host>/manager.xml or its META-INF/context.xml) has a RemoteAddrValve or RemoteCIDRValve allowing only the management addresses.',
    appliesWhen: 'manager',
  },
  {
    id: '10.4',
    title: 'Force SSL when accessing the manager application via HTTP',
    level: L1,
    check:
      "The manager's WEB-INF/web.xml security constraints have <transport-guarantee>CONFIDENTIAL</transport-guarantee>.",
    appliesWhen: 'manager',
  },
  {
    id: '10.5',
    title: 'Rename the manager application',
    level: L2,
    check: 'The manager is not deployed at /manager (no conf/<Engine>/<Host>/manager.xml, no webapps/manager).',
    appliesWhen: 'manager',
  },
  {
    id: '10.6',
    title: 'Enable strict servlet Compliance',
    level: L2,
    check:
      'org.apache.catalina.STRICT_SERVLET_COMPLIANCE=true in the start-up options (CATALINA_OPTS, setenv.sh) or conf/catalina.properties.',
  },
  {
    id: '10.7',
    title: 'Turn off session facade recycling',
    level: L1,
    check:
      'Tomcat 10.1 replaced RECYCLE_FACADES by the Connector attribute discardFacades (default true): no <Connector> sets discardFacades="false".',
  },
  {
    id: '10.8',
    title: 'Do not allow additional path delimiters',
    level: L2,
    check:
      'Tomcat 10.1 replaced ALLOW_BACKSLASH and ALLOW_ENCODED_SLASH by Connector attributes: no <Connector> sets allowBackslash="true" or encodedSolidusHandling="decode".',
  },
  {
    id: '10.9',
    title: 'Configure connectionTimeout',
    level: L2,
    check:
      "Each <Connector> has a connectionTimeout suited to its load (Tomcat's default is 60000 ms; the stock server.xml sets 20000).",
  },
  {
    id: '10.10',
    title: 'Configure maxHttpHeaderSize',
    level: L2,
    check: "Each <Connector> keeps maxHttpHeaderSize at 8192 bytes (Tomcat's default) or below.",
  },
  {
    id: '10.11',
    title: 'Force SSL for all applications',
    level: L2,
    check:
      'conf/web.xml has a security constraint over /* with <transport-guarantee>CONFIDENTIAL</transport-guarantee>.',
  },
  {
    id: '10.12',
    title: 'Do not allow symbolic linking',
    level: L1,
    check: 'No context file sets allowLinking="true" (on <Context> or its <Resources>).',
  },
  {
    id: '10.13',
    title: 'Do not run applications as privileged',
    level: L1,
    check: 'No context file sets privileged="true" except the manager and host-manager.',
  },
  {
    id: '10.14',
    title: 'Do not allow cross context requests',
    level: L1,
    check: 'No context file sets crossContext="true".',
  },
  {
    id: '10.15',
    title: 'Do not resolve hosts on logging valves',
    level: L2,
    check: 'No <Connector> sets enableLookups="true" (and no AccessLogValve resolves host names).',
  },
  {
    id: '10.16',
    title: 'Enable memory leak listener',
    level: L1,
    check: 'conf/server.xml has <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/>.',
  },
  {
    id: '10.17',
    title: 'Setting Security Lifecycle Listener',
    level: L1,
    check:
      'conf/server.xml has <Listener className="org.apache.catalina.security.SecurityListener"/> with checkedOsUsers and minimumUmask set.',
  },
  {
    id: '10.18',
    title: 'Use the logEffectiveWebXml and metadata-complete settings for deploying applications in production',
    level: L1,
    check: 'Each application\'s web.xml has metadata-complete="true" and its context has logEffectiveWebXml="true".',
  },
  {
    id: '10.19',
    title: 'Ensure Manager Application Passwords are Encrypted',
    level: L1,
    check:
      'The realm behind the manager has a CredentialHandler with a digest algorithm, and tomcat-users.xml stores digests, not plaintext passwords.',
    appliesWhen: 'manager',
  },
];

const SOURCE =
  "CIS Apache Tomcat 10.1 Benchmark (recommendation numbers, titles and profile levels, as the benchmark and the audit files built on it list them; checks in tollgate's words)";

/** CIS states no severity: Level 1 is reported as medium, Level 2 as low (HDF and XCCDF need one). */
const withSeverity = (c: Omit<Control, 'severity'>): Control => ({ ...c, severity: c.level === L1 ? 'medium' : 'low' });

/** v1.1.0, which supersedes v1.0.0 with the same recommendation numbers and titles. */
export const CIS_TOMCAT_10_1: Benchmark = {
  id: 'cis-tomcat-10.1',
  title: 'CIS Apache Tomcat 10.1 Benchmark v1.1.0',
  release: 'v1.1.0',
  version: '1.1.0',
  source: SOURCE,
  controls: controls.map(withSeverity),
};

/** v1.0.0, for a site bound to it (`--benchmark-version 1.0.0`). */
export const CIS_TOMCAT_10_1_V1_0_0: Benchmark = {
  id: 'cis-tomcat-10.1',
  title: 'CIS Apache Tomcat 10.1 Benchmark v1.0.0',
  release: 'v1.0.0',
  version: '1.0.0',
  source: SOURCE,
  controls: controls.map(withSeverity),
};
