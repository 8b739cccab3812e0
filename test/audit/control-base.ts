/**
 * A base that passes every automatic control of both benchmarks (as far as a base can: the
 * benchmarks contradict each other on owners, which the accounts of tollgate.config.json settle),
 * for test/audit/controls.test.ts to change one setting at a time.
 */
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { tree } from '../lint/helpers.js';

export const SERVER_INFO = 'lib/org/apache/catalina/util/ServerInfo.properties';

const listeners = `  <Listener className="org.apache.catalina.security.SecurityListener" checkedOsUsers="root" minimumUmask="0007"/>
  <Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/>
  <Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on" FIPSMode="on"/>`;

export const CONNECTOR = `<Connector port="8443" address="10.0.0.5" protocol="HTTP/1.1" SSLEnabled="true" secure="true" scheme="https" server="web" connectionTimeout="20000">
      <SSLHostConfig protocols="TLSv1.2+TLSv1.3" ciphers="ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384">
        <Certificate certificateKeystoreFile="conf/k.p12" certificateKeystorePassword="a-real-secret"/>
      </SSLHostConfig>
    </Connector>`;

export const REALM = `<Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="5" lockOutTime="600">
        <Realm className="org.apache.catalina.realm.JNDIRealm" connectionURL="ldaps://ldap.example:636" userPattern="uid={0},ou=people,dc=example">
          <CredentialHandler className="org.apache.catalina.realm.SecretKeyCredentialHandler" algorithm="PBKDF2WithHmacSHA512"/>
        </Realm>
      </Realm>`;

export const ACCESS_LOG = `<Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" prefix="access" suffix=".log" pattern="%h %l %u %t &quot;%r&quot; %s %b" requestAttributesEnabled="true"/>`;

export const ERROR_VALVE = `<Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>`;

export const HOST_ATTRS =
  'name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false" deployOnStartup="false" deployXML="false"';

/** The contexts server.xml deploys (the Host deploys nothing on its own: deployOnStartup and autoDeploy are off). */
export const APP_CONTEXT = '<Context path="/app" docBase="app"/>';
export const MANAGER_CONTEXT = `<Context path="/mgr-7f3" docBase="mgr-7f3" privileged="true" antiResourceLocking="false">
          <Valve className="org.apache.catalina.valves.RemoteAddrValve" allow="127\\.\\d+\\.\\d+\\.\\d+"/>
          <Manager className="org.apache.catalina.session.StandardManager" maxActiveSessions="10"/>
        </Context>`;
export const CONTEXTS = `${APP_CONTEXT}\n        ${MANAGER_CONTEXT}`;

/** conf/server.xml from its parts (each replaceable by a row). */
export function serverXml(
  p: {
    server?: string;
    listeners?: string;
    connectors?: string;
    realm?: string;
    engineValves?: string;
    host?: string;
    hostValves?: string;
    contexts?: string;
  } = {},
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Server ${p.server ?? 'port="-1" shutdown="c5b0e5f3d1a44a7f9e2b"'}>
${p.listeners ?? listeners}
  <Service name="Catalina">
    ${p.connectors ?? CONNECTOR}
    <Engine name="Catalina" defaultHost="localhost">
      ${p.realm ?? REALM}
      ${p.engineValves ?? ACCESS_LOG}
      <Host ${p.host ?? HOST_ATTRS}>
        ${p.hostValves ?? `${ACCESS_LOG}\n        ${ERROR_VALVE}`}
        ${p.contexts ?? CONTEXTS}
      </Host>
    </Engine>
  </Service>
</Server>
`;
}

export const HSTS_FILTER = `<filter><filter-name>httpHeaderSecurity</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class>
    <init-param><param-name>hstsEnabled</param-name><param-value>true</param-value></init-param>
    <init-param><param-name>hstsMaxAgeSeconds</param-name><param-value>31536000</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>httpHeaderSecurity</filter-name><url-pattern>/*</url-pattern></filter-mapping>`;

export const DEFAULT_SERVLET = `<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class>
    <init-param><param-name>debug</param-name><param-value>0</param-value></init-param>
    <init-param><param-name>listings</param-name><param-value>false</param-value></init-param>
    <init-param><param-name>readonly</param-name><param-value>true</param-value></init-param>
    <load-on-startup>1</load-on-startup>
  </servlet>
  <servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>`;

export const COOKIE_CONFIG = `<session-config><session-timeout>10</session-timeout><cookie-config><http-only>true</http-only><secure>true</secure></cookie-config></session-config>`;

export const CONFIDENTIAL = `<security-constraint><web-resource-collection><web-resource-name>all</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection><user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint></security-constraint>`;

export const ERROR_PAGE = `<error-page><exception-type>java.lang.Throwable</exception-type><location>/error.jsp</location></error-page>`;

/** conf/web.xml from its parts. */
export function webXml(
  p: { filters?: string; servlets?: string; session?: string; constraints?: string; errors?: string } = {},
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  ${p.servlets ?? DEFAULT_SERVLET}
  ${p.filters ?? HSTS_FILTER}
  ${p.session ?? COOKIE_CONFIG}
  ${p.constraints ?? CONFIDENTIAL}
  ${p.errors ?? ERROR_PAGE}
</web-app>
`;
}

export const APP_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
  <display-name>app</display-name>
</web-app>
`;

export const LOGGING = `handlers = 1catalina.org.apache.juli.AsyncFileHandler
1catalina.org.apache.juli.AsyncFileHandler.level = FINE
1catalina.org.apache.juli.AsyncFileHandler.directory = \${catalina.base}/logs
1catalina.org.apache.juli.AsyncFileHandler.prefix = catalina.
`;

export const CATALINA_PROPERTIES = `package.access=sun.,org.apache.catalina.,org.apache.coyote.,org.apache.jasper.,org.apache.tomcat.
package.definition=sun.,java.,org.apache.catalina.,org.apache.coyote.,org.apache.jasper.,org.apache.naming.,org.apache.tomcat.
org.apache.catalina.STRICT_SERVLET_COMPLIANCE=true
`;

export const SETENV = `CATALINA_OPTS="-Djava.security.manager -Djava.security.policy==\${CATALINA_BASE}/conf/catalina.policy"\nUMASK=0027\n`;

/** The manager, deployed under another name (CIS 10.5), as hardened as the benchmarks ask. */
export const MGR = 'webapps/mgr-7f3';
export const MANAGER: Record<string, string> = {
  [`${MGR}/WEB-INF/web.xml`]: `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
  <servlet><servlet-name>Manager</servlet-name><servlet-class>org.apache.catalina.manager.ManagerServlet</servlet-class></servlet>
  <servlet-mapping><servlet-name>Manager</servlet-name><url-pattern>/text/*</url-pattern></servlet-mapping>
  <session-config><session-timeout>10</session-timeout></session-config>
  <security-constraint><web-resource-collection><web-resource-name>m</web-resource-name><url-pattern>/text/*</url-pattern></web-resource-collection><auth-constraint><role-name>manager-script</role-name></auth-constraint><user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint></security-constraint>
  <login-config><auth-method>CLIENT-CERT</auth-method></login-config>
  <security-role><role-name>manager-script</role-name></security-role>
</web-app>
`,
  [`${MGR}/WEB-INF/classes/logging.properties`]: LOGGING,
};

export const CONTEXT_XML = `<Context logEffectiveWebXml="true">\n  ${ACCESS_LOG}\n</Context>\n`;

/** Every file of the clean base, by path relative to it. */
export function cleanFiles(): Record<string, string> {
  return {
    'conf/server.xml': serverXml(),
    'conf/web.xml': webXml(),
    'conf/context.xml': CONTEXT_XML,
    'conf/catalina.properties': CATALINA_PROPERTIES,
    'conf/catalina.policy': 'grant { };\n',
    'conf/logging.properties': LOGGING,
    'conf/tomcat-users.xml': '<tomcat-users/>\n',
    'conf/jaspic-providers.xml': '<jaspic-providers/>\n',
    'conf/k.p12': 'not a real key store',
    'bin/setenv.sh': SETENV,
    'bin/bootstrap.jar': 'jar',
    [SERVER_INFO]: 'server.info=Web\nserver.number=0.0.0.0\nserver.built=a while ago\n',
    'logs/catalina.log': '',
    'temp/.keep': '',
    'work/.keep': '',
    'webapps/app/WEB-INF/web.xml': APP_WEB_XML,
    'webapps/app/WEB-INF/classes/logging.properties': LOGGING,
    ...MANAGER,
  };
}

/** Who owns the files this process writes, by name (the accounts the clean base is judged against). */
export function me(): { user: string; group: string } {
  const gid = process.getgid?.() ?? 0;
  const line = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[2] === String(gid));
  return { user: userInfo().username, group: line?.split(':')[0] ?? String(gid) };
}

/** Modes every benchmark accepts: folders 750, conf files 400 (web.xml too), other files 640. */
export function tighten(root: string): void {
  const walk = (dir: string): void => {
    chmodSync(dir, 0o750);
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else chmodSync(p, dirname(p) === join(root, 'conf') ? 0o400 : 0o640);
    }
  };
  walk(root);
}

/** The site's facts of the clean base (tollgate.config.json `audit`). */
export const FACTS = {
  behindProxy: false,
  approvedConnectors: [{ port: 8443, address: '10.0.0.5' }],
  approvedPrivilegedApps: ['/mgr-7f3'],
  jmxHost: '10.0.0.9',
  managerMaxSessions: 10,
};

/** The clean base with these files changed (a value of null removes the file), modes tightened. */
export function base(changes: Record<string, string | null> = {}, config?: object): string {
  const files: Record<string, string> = cleanFiles();
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete files[k];
    else files[k] = v;
  }
  const { user, group } = me();
  const dir = tree({});
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  tighten(dir);
  writeFileSync(
    join(dir, 'tollgate.config.json'),
    JSON.stringify({ accounts: { admin: user, service: user, group }, audit: FACTS, ...config }),
  );
  return dir;
}
