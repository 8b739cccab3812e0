import type { Profile } from '../../src/lint/config.js';
import type { Diagnostic } from '../../src/model/index.js';
import { tree } from './helpers.js';

/**
 * A failing and a passing configuration for each container hardening rule (server.xml, context
 * definitions, the properties files), with the profile it is judged in: test/lint/hardening-server.test.ts
 * runs them, and test/lint/rules.test.ts counts these rules as covered.
 */
/** A base whose server.xml has these connectors and this Engine body, and whose other files are given. */
export function base(opts: BaseOptions = {}): string {
  return tree(baseFiles(opts));
}

export interface BaseOptions {
  connectors?: string;
  engine?: string;
  host?: string;
  hostAttrs?: string;
  server?: string;
  files?: Record<string, string>;
}

/** The files of that base, by path (the observation harness deploys them on Tomcat). */
export function baseFiles(opts: BaseOptions = {}): Record<string, string> {
  const serverXml = `<?xml version="1.0" encoding="UTF-8"?>
<Server ${opts.server ?? 'port="-1" shutdown="SHUTDOWN"'}>
  <Service name="Catalina">
${opts.connectors ?? '    <Connector port="8080" protocol="HTTP/1.1" connectionTimeout="20000"/>'}
    <Engine name="Catalina" defaultHost="localhost">
${opts.engine ?? '      <Realm className="org.apache.catalina.realm.LockOutRealm"><Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/></Realm>'}
      <Host name="localhost" appBase="webapps"${opts.hostAttrs ?? ''}>
        <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" pattern="common"/>
${opts.host ?? ''}
      </Host>
    </Engine>
  </Service>
  <GlobalNamingResources><Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase" factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml"/></GlobalNamingResources>
</Server>
`;
  return {
    'conf/server.xml': serverXml,
    'webapps/app/WEB-INF/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>',
    ...opts.files,
  };
}

export interface Case {
  rule: string;
  profile?: Profile;
  bad: BaseOptions;
  good: BaseOptions;
  severity?: Diagnostic['severity'];
}

export const ajp = (attrs: string): string => `    <Connector protocol="AJP/1.3" port="8009" ${attrs}/>`;
export const http = (attrs: string): string => `    <Connector port="8080" protocol="HTTP/1.1" ${attrs}/>`;
export const tls = (attrs: string, ssl = ''): string =>
  `    <Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true" ${attrs}><SSLHostConfig ${ssl}><Certificate certificateKeystoreFile="conf/k.p12" certificateKeystorePassword="\${kp}"/></SSLHostConfig></Connector>`;
export const props = (text: string): Record<string, string> => ({ 'conf/catalina.properties': text });
export const ctxFile = (text: string): Record<string, string> => ({ 'webapps/app/META-INF/context.xml': text });

export const CASES: Case[] = [
  {
    rule: 'ajp-no-secret',
    severity: 'error',
    bad: { connectors: ajp('address="0.0.0.0" secretRequired="false"') },
    good: { connectors: ajp('address="0.0.0.0" secret="s3cr3t"') },
  },
  {
    rule: 'ajp-no-secret',
    severity: 'warning',
    bad: { connectors: ajp('secretRequired="false"') },
    good: { connectors: ajp('secret="s3cr3t"') },
  },
  {
    rule: 'ajp-no-secret',
    severity: 'error',
    bad: { connectors: ajp('') },
    good: { connectors: ajp('secret="${ajp.secret}"'), files: props('ajp.secret=x') },
  },
  {
    rule: 'connector-all-addresses',
    bad: { connectors: ajp('address="::" secret="s"') },
    good: { connectors: ajp('secret="s"') },
  },
  {
    rule: 'connector-all-addresses',
    profile: 'stig',
    bad: { connectors: http('') },
    good: { connectors: http('address="10.0.0.5"') },
  },
  {
    rule: 'connector-allow-trace',
    bad: { connectors: http('allowTrace="true"') },
    good: { connectors: http('allowTrace="false"') },
  },
  { rule: 'connector-x-powered-by', bad: { connectors: http('xpoweredBy="TRUE"') }, good: { connectors: http('') } },
  {
    rule: 'connector-server-header',
    bad: { connectors: http('server="Apache-Coyote/1.1"') },
    good: { connectors: http('server="webserver"') },
  },
  { rule: 'connector-not-tls', profile: 'stig', bad: { connectors: http('') }, good: { connectors: tls('') } },
  {
    rule: 'connector-not-tls',
    profile: 'stig',
    bad: { connectors: http('secure="true"') },
    good: { connectors: http('secure="true" scheme="https"') },
  },
  {
    rule: 'connector-secure-without-tls',
    profile: 'cis',
    bad: { connectors: http('secure="true" scheme="https"') },
    good: { connectors: tls('secure="false" scheme="http"') },
  },
  {
    rule: 'connector-weak-ciphers',
    bad: { connectors: tls('', 'ciphers="HIGH:RC4-SHA:TLS_RSA_WITH_3DES_EDE_CBC_SHA"') },
    good: { connectors: tls('', 'ciphers="HIGH:!aNULL:!eNULL:!MD5:!3DES:!RC4"') },
  },
  {
    rule: 'connector-legacy-tls',
    bad: { connectors: tls('', 'protocols="TLSv1+TLSv1.2"') },
    good: { connectors: tls('', 'protocols="TLSv1.2+TLSv1.3"') },
  },
  {
    rule: 'connector-limits',
    bad: { connectors: http('connectionTimeout="-1"') },
    good: { connectors: http('connectionTimeout="20000"') },
  },
  {
    rule: 'connector-limits',
    bad: { connectors: http('maxPostSize="-1"') },
    good: { connectors: http('maxPostSize="1048576"') },
  },
  {
    rule: 'connector-limits',
    profile: 'cis',
    bad: { connectors: http('maxHttpHeaderSize="65536"') },
    good: { connectors: http('maxHttpHeaderSize="8192"') },
  },
  {
    rule: 'connector-path-delimiters',
    bad: { connectors: http('allowBackslash="true"') },
    good: { connectors: http('allowBackslash="false"') },
  },
  {
    rule: 'connector-path-delimiters',
    bad: { connectors: http('encodedSolidusHandling="decode"') },
    good: { connectors: http('encodedSolidusHandling="reject"') },
  },
  {
    rule: 'connector-discard-facades-off',
    bad: { connectors: http('discardFacades="false"') },
    good: { connectors: http('discardFacades="true"') },
  },
  {
    rule: 'connector-get-writer-encoding',
    bad: { connectors: http('enforceEncodingInGetWriter="false"') },
    good: { connectors: http('') },
  },
  {
    rule: 'connector-enable-lookups',
    bad: { connectors: http('enableLookups="true"') },
    good: { connectors: http('enableLookups="false"') },
  },
  { rule: 'shutdown-port-enabled', profile: 'cis', bad: { server: 'port="8005" shutdown="k3Hq9xZ"' }, good: {} },
  {
    rule: 'lockout-realm-missing',
    bad: {
      engine: '      <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>',
    },
    good: {},
  },
  { rule: 'lockout-realm-missing', profile: 'stig', bad: { engine: '' }, good: {} },
  {
    rule: 'lockout-realm-weak',
    bad: {
      engine: '      <Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="20" lockOutTime="60"/>',
    },
    good: {
      engine: '      <Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="5" lockOutTime="300"/>',
    },
  },
  {
    rule: 'lockout-realm-weak',
    profile: 'stig',
    bad: {},
    good: { engine: '      <Realm className="org.apache.catalina.realm.LockOutRealm" lockOutTime="600"/>' },
  },
  { rule: 'host-auto-deploy', profile: 'stig', bad: {}, good: { hostAttrs: ' autoDeploy="false"' } },
  { rule: 'host-deploy-on-startup', profile: 'cis', bad: {}, good: { hostAttrs: ' deployOnStartup="false"' } },
  {
    rule: 'host-deploy-xml',
    profile: 'stig',
    bad: { hostAttrs: ' deployXML="true"' },
    good: { hostAttrs: ' deployXML="false"' },
  },
  {
    rule: 'access-log-missing',
    bad: {
      files: {
        'conf/server.xml':
          '<Server port="-1"><Service name="S"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      },
    },
    good: {},
  },
  {
    rule: 'access-log-missing',
    profile: 'stig',
    bad: {},
    good: {
      engine:
        '      <Realm className="org.apache.catalina.realm.LockOutRealm"/><Valve className="org.apache.catalina.valves.AccessLogValve"/>',
      files: {
        'conf/context.xml': '<Context><Valve className="org.apache.catalina.valves.AccessLogValve"/></Context>',
      },
    },
  },
  {
    rule: 'access-log-pattern',
    profile: 'stig',
    bad: { host: '        <Valve className="org.apache.catalina.valves.AccessLogValve" pattern="%r %s"/>' },
    good: { host: '        <Valve className="org.apache.catalina.valves.AccessLogValve" pattern="combined"/>' },
  },
  {
    rule: 'access-log-proxy-address',
    bad: { host: '        <Valve className="org.apache.catalina.valves.RemoteIpValve"/>' },
    good: {
      host: '        <Valve className="org.apache.catalina.valves.RemoteIpValve"/><Valve className="org.apache.catalina.valves.AccessLogValve" requestAttributesEnabled="true"/>',
      files: {
        'conf/server.xml':
          '<Server port="-1"><Service name="S"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"><Valve className="org.apache.catalina.valves.RemoteIpValve"/><Valve className="org.apache.catalina.valves.AccessLogValve" requestAttributesEnabled="true"/></Host></Engine></Service></Server>',
      },
    },
  },
  {
    rule: 'error-report-server-info',
    profile: 'stig',
    bad: { host: '        <Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false"/>' },
    good: {
      host: '        <Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>',
    },
  },
  {
    rule: 'memory-leak-listener-missing',
    profile: 'cis',
    bad: {},
    good: {
      files: {
        'conf/server.xml':
          '<Server port="-1"><Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/><Service name="S"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      },
    },
  },
  {
    rule: 'security-listener-missing',
    profile: 'cis',
    bad: {},
    good: {
      files: {
        'conf/server.xml':
          '<Server port="-1"><Listener className="org.apache.catalina.security.SecurityListener"/><Service name="S"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      },
    },
  },
  {
    rule: 'context-privileged',
    bad: { files: ctxFile('<Context privileged="true"/>') },
    good: { files: ctxFile('<Context privileged="false"/>') },
  },
  {
    rule: 'context-privileged',
    bad: { files: { 'conf/context.xml': '<Context privileged="true"/>' } },
    good: {
      files: {
        'webapps/manager/WEB-INF/web.xml':
          '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><servlet><servlet-name>Manager</servlet-name><servlet-class>org.apache.catalina.manager.ManagerServlet</servlet-class></servlet></web-app>',
        'webapps/manager/META-INF/context.xml':
          '<Context privileged="true"><Valve className="org.apache.catalina.valves.RemoteCIDRValve" allow="127.0.0.0/8"/></Context>',
      },
    },
  },
  {
    rule: 'context-cross-context',
    bad: { files: ctxFile('<Context crossContext="true"/>') },
    good: { files: ctxFile('<Context crossContext="false"/>') },
  },
  {
    rule: 'context-allow-linking',
    bad: { files: ctxFile('<Context><Resources allowLinking="true"/></Context>') },
    good: { files: ctxFile('<Context><Resources allowLinking="false"/></Context>') },
  },
  {
    rule: 'context-reloadable',
    bad: { files: ctxFile('<Context reloadable="true"/>') },
    good: { files: ctxFile('<Context reloadable="false"/>') },
  },
  {
    rule: 'session-cookie-http-only',
    bad: { files: { 'conf/context.xml': '<Context useHttpOnly="false"/>' } },
    good: { files: { 'conf/context.xml': '<Context useHttpOnly="true"/>' } },
  },
  {
    rule: 'session-cookie-http-only',
    bad: {
      files: {
        ...ctxFile('<Context useHttpOnly="false"/>'),
        'webapps/app/WEB-INF/web.xml':
          '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><session-config><cookie-config><http-only>false</http-only></cookie-config></session-config></web-app>',
      },
    },
    good: {
      files: {
        ...ctxFile('<Context useHttpOnly="false"/>'),
        'webapps/app/WEB-INF/web.xml':
          '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><session-config><cookie-config><http-only>true</http-only></cookie-config></session-config></web-app>',
      },
    },
  },
  {
    rule: 'cookie-same-site-none',
    bad: { files: ctxFile('<Context><CookieProcessor sameSiteCookies="None"/></Context>') },
    good: { files: ctxFile('<Context><CookieProcessor sameSiteCookies="strict"/></Context>') },
  },
  {
    rule: 'context-log-effective-web-xml',
    profile: 'cis',
    bad: {},
    good: { files: { 'conf/context.xml': '<Context logEffectiveWebXml="true"/>' } },
  },
  {
    rule: 'manager-unrestricted',
    bad: {
      files: {
        'conf/Catalina/localhost/manager.xml': '<Context docBase="${catalina.base}/admin/manager" privileged="true"/>',
        'admin/manager/WEB-INF/web.xml':
          '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.HTMLManagerServlet</servlet-class></servlet></web-app>',
        'admin/manager/META-INF/context.xml':
          '<Context><Valve className="org.apache.catalina.valves.RemoteCIDRValve" allow="127.0.0.0/8"/></Context>',
      },
    },
    good: {
      files: {
        'conf/Catalina/localhost/manager.xml':
          '<Context docBase="${catalina.base}/admin/manager" privileged="true"><Valve className="org.apache.catalina.valves.RemoteCIDRValve" allow="127.0.0.0/8"/></Context>',
        'admin/manager/WEB-INF/web.xml':
          '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><servlet><servlet-name>m</servlet-name><servlet-class>org.apache.catalina.manager.HTMLManagerServlet</servlet-class></servlet></web-app>',
      },
    },
  },
  {
    rule: 'package-access-weakened',
    profile: 'cis',
    bad: { files: props('package.access=sun.,org.apache.tomcat.') },
    good: {
      files: props(
        'package.access=sun.,org.apache.catalina.,org.apache.coyote.,\\\n  org.apache.jasper.,org.apache.tomcat.',
      ),
    },
  },
  {
    rule: 'logging-no-file-handler',
    bad: { files: { 'conf/logging.properties': 'handlers = java.util.logging.ConsoleHandler\n' } },
    good: {
      files: {
        'conf/logging.properties':
          'handlers = 1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler\n',
      },
    },
  },
  {
    rule: 'logging-no-file-handler',
    bad: { files: { 'conf/logging.properties': 'handlers = 1catalina.org.apache.juli.FileHandler\n.level = OFF\n' } },
    good: { files: { 'conf/logging.properties': 'handlers = 1catalina.org.apache.juli.FileHandler\n.level = INFO\n' } },
  },
  {
    rule: 'strict-servlet-compliance-off',
    profile: 'stig',
    bad: { files: props('org.apache.catalina.STRICT_SERVLET_COMPLIANCE=false') },
    good: { files: props('org.apache.catalina.STRICT_SERVLET_COMPLIANCE=true') },
  },
  {
    rule: 'system-property-removed',
    bad: { files: props('org.apache.catalina.connector.RECYCLE_FACADES=true') },
    good: { files: props('# org.apache.catalina.connector.RECYCLE_FACADES=true') },
  },
  {
    rule: 'remote-ip-valve-trusts-any',
    bad: { host: '        <Valve className="org.apache.catalina.valves.RemoteIpValve" internalProxies=".*"/>' },
    good: {
      host: '        <Valve className="org.apache.catalina.valves.RemoteIpValve" internalProxies="10\\.0\\.0\\.5"/>',
    },
  },
  {
    rule: 'stuck-thread-detection-disabled',
    bad: { host: '        <Valve className="org.apache.catalina.valves.StuckThreadDetectionValve" threshold="0"/>' },
    good: { host: '        <Valve className="org.apache.catalina.valves.StuckThreadDetectionValve" threshold="120"/>' },
  },
];

/** The rules these cases cover. */
export const HARDENING_CASE_IDS: ReadonlySet<string> = new Set(CASES.map((c) => c.rule));
