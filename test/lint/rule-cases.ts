import { app, filter } from './helpers.js';

/**
 * For every rule that is not a hardening rule: a configuration that triggers it and the closest
 * correct one, as files of a base. test/lint/rules.test.ts lints them; the observation harness
 * (test/conformance/rule-observe.ts) deploys the failing ones on real Tomcat 10.1.
 */
export type Files = Record<string, string>;
const server = (body: string, attrs = 'port="-1"') =>
  `<?xml version="1.0"?>\n<Server ${attrs}>\n${body}\n<Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service>\n</Server>\n`;
const users = (body: string) =>
  `<?xml version="1.0"?>\n<tomcat-users xmlns="http://tomcat.apache.org/xml">\n${body}\n</tomcat-users>\n`;
const servlet = (name: string) =>
  `<servlet><servlet-name>${name}</servlet-name><servlet-class>com.example.S</servlet-class></servlet>`;
const servletMapping = (name: string, pattern: string) =>
  `<servlet-mapping><servlet-name>${name}</servlet-name><url-pattern>${pattern}</url-pattern></servlet-mapping>`;
const mimeMapping = (extension: string, type: string) =>
  `<mime-mapping><extension>${extension}</extension><mime-type>${type}</mime-type></mime-mapping>`;
/** Without a servlet for the path Tomcat answers 404 and runs no filter: chains need the default servlet. */
const defaultServlet =
  '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>';
/** An application whose own servlet answers under /api/* and /admin/* (a DefaultServlet, so Tomcat can run it: POST is served as GET). */
const restApi =
  '<servlet><servlet-name>api</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>api</servlet-name><url-pattern>/api/*</url-pattern><url-pattern>/admin/*</url-pattern></servlet-mapping>';
const hostManager: Files = {
  'webapps/host-manager/WEB-INF/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>',
};

/** For every rule: files that trigger it and files that do not (the closest correct version). */
export const RULE_CASES: Record<string, { fail: Files; pass: Files }> = {
  'xml-malformed': { fail: app('<filter>'), pass: app('') },
  'xml-wrong-root': { fail: { 'webapps/app/WEB-INF/web.xml': '<beans/>' }, pass: app('') },
  'xml-unknown-namespace': { fail: { 'webapps/app/WEB-INF/web.xml': '<web-app xmlns="urn:x"/>' }, pass: app('') },
  'xml-external-entity': {
    fail: {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x SYSTEM "file:///etc/passwd">]><web-app/>',
    },
    pass: app(''),
  },
  'xml-external-dtd': {
    fail: {
      'webapps/app/WEB-INF/web.xml': '<?xml version="1.0"?><!DOCTYPE web-app SYSTEM "file:///etc/passwd"><web-app/>',
    },
    pass: {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?><!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd"><web-app/>',
    },
  },
  'xml-entity-expansion': {
    fail: {
      'webapps/app/WEB-INF/web.xml': '<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x "y">]><web-app>&x;</web-app>',
    },
    pass: app(''),
  },
  'xml-encoding': {
    fail: { 'webapps/app/WEB-INF/web.xml': '<?xml version="1.0" encoding="nope"?><web-app/>' },
    pass: app(''),
  },
  'webxml-missing-element': {
    fail: app('<filter><filter-name>a</filter-name></filter>'),
    pass: app(filter('a', 'WebdavFixFilter')),
  },
  'webxml-invalid-value': {
    fail: app('<session-config><session-timeout>soon</session-timeout></session-config>'),
    pass: app('<session-config><session-timeout>20</session-timeout></session-config>'),
  },
  'file-unreadable': { fail: { 'webapps/app/WEB-INF/web.xml/nested': 'x' }, pass: app('') },
  'file-too-large': {
    fail: { 'webapps/app/WEB-INF/web.xml': `<web-app>${' '.repeat(9 * 1024 * 1024)}</web-app>` },
    pass: { 'webapps/app/WEB-INF/web.xml': `<web-app>${' '.repeat(1024 * 1024)}</web-app>` },
  },
  'xml-deep-nesting': {
    fail: { 'webapps/app/WEB-INF/web.xml': `<web-app>${'<a>'.repeat(300)}${'</a>'.repeat(300)}</web-app>` },
    pass: { 'webapps/app/WEB-INF/web.xml': `<web-app>${'<a>'.repeat(250)}${'</a>'.repeat(250)}</web-app>` },
  },
  'server-unresolved-property': {
    fail: { 'conf/server.xml': server('', 'port="${nope}"') },
    pass: { 'conf/server.xml': server('', 'port="-1"') },
  },
  'server-xml-missing': { fail: { 'conf/web.xml': '<web-app/>' }, pass: { 'conf/server.xml': server('') } },
  'server-no-host': {
    fail: { 'conf/server.xml': '<Server port="-1"><Service><Engine name="C" defaultHost="x"/></Service></Server>' },
    pass: { 'conf/server.xml': server('') },
  },
  'server-missing-attribute': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service><Engine name="C" defaultHost="x"><Host appBase="w"/></Engine></Service></Server>',
    },
    pass: { 'conf/server.xml': server('') },
  },
  'users-missing-attribute': {
    fail: { 'conf/tomcat-users.xml': users('<user password="x" roles="a"/>') },
    pass: { 'conf/tomcat-users.xml': users('') },
  },
  'war-not-read': { fail: { 'webapps/app.war': 'PK' }, pass: app('') },
  'filter-mapping-undefined-filter': {
    fail: app('<filter-mapping><filter-name>nope</filter-name><url-pattern>/*</url-pattern></filter-mapping>'),
    pass: app(filter('yes', 'WebdavFixFilter')),
  },
  'duplicate-filter-name': {
    fail: app(filter('a', 'WebdavFixFilter') + filter('a', 'WebdavFixFilter', {}, false)),
    pass: app(filter('a', 'WebdavFixFilter') + filter('b', 'WebdavFixFilter')),
  },
  'invalid-url-pattern': {
    fail: app(
      '<filter><filter-name>a</filter-name><filter-class>x.Y</filter-class></filter><filter-mapping><filter-name>a</filter-name><url-pattern>*.do/x</url-pattern></filter-mapping>',
    ),
    pass: app(filter('a', 'WebdavFixFilter')),
  },
  'regex-redos': {
    fail: app(filter('r', 'RemoteAddrFilter', { allow: '(\\d+|\\d+\\.)+x' })),
    pass: app(filter('r', 'RemoteAddrFilter', { allow: '127\\.\\d+\\.\\d+\\.\\d+' })),
  },
  'filter-param-invalid': {
    fail: app(filter('r', 'RemoteAddrFilter', { allow: '.*', denyStatus: 'abc' })),
    pass: app(filter('r', 'RemoteAddrFilter', { allow: '.*', denyStatus: '404' })),
  },
  'filter-param-unknown': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSecond: '31536000' })),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000' })),
  },
  'filter-param-boolean-spelling': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', hstsIncludeSubDomains: 'yes' })),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', hstsIncludeSubDomains: 'true' })),
  },
  'filter-param-duplicate': {
    fail: app(
      '<filter><filter-name>s</filter-name><filter-class>org.apache.catalina.filters.SetCharacterEncodingFilter</filter-class><init-param><param-name>encoding</param-name><param-value>UTF-8</param-value></init-param><init-param><param-name>encoding</param-name><param-value>ISO-8859-1</param-value></init-param></filter><filter-mapping><filter-name>s</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
    ),
    pass: app(filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' })),
  },
  'filter-param-regex': {
    fail: app(filter('r', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1++' })),
    pass: app(filter('r', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1' })),
  },
  'filter-param-cidr': {
    fail: app(filter('c', 'RemoteCIDRFilter', { allow: '10.0.0.0/255.0.0.0' })),
    pass: app(filter('c', 'RemoteCIDRFilter', { allow: '10.0.0.0/8' })),
  },
  'filter-not-in-target': {
    fail: app(filter('c', 'WebdavFixFilter')),
    pass: app(filter('c', 'SessionInitializerFilter')),
  },
  'cors-credentials-with-any-origin': {
    fail: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' })),
    pass: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.support.credentials': 'true' }),
    ),
  },
  'unused-suppression': {
    fail: app(
      '<!-- tollgate-disable filter-never-mapped :: kept for later -->\n' +
        filter('a', 'WebdavFixFilter') +
        '\n<!-- tollgate-enable filter-never-mapped -->',
    ),
    pass: app(
      '<!-- tollgate-disable filter-never-mapped :: kept for later -->\n' +
        filter('a', 'WebdavFixFilter', {}, false) +
        '\n<!-- tollgate-enable filter-never-mapped -->',
    ),
  },
  'filter-never-mapped': {
    fail: app(filter('a', 'WebdavFixFilter', {}, false)),
    pass: app(filter('a', 'WebdavFixFilter')),
  },
  'invalid-dispatcher': {
    fail: app(
      filter('a', 'WebdavFixFilter', {}, false) +
        '<filter-mapping><filter-name>a</filter-name><url-pattern>/*</url-pattern><dispatcher>REQEST</dispatcher></filter-mapping>',
    ),
    pass: app(
      filter('a', 'WebdavFixFilter', {}, false) +
        '<filter-mapping><filter-name>a</filter-name><url-pattern>/*</url-pattern><dispatcher>REQUEST</dispatcher></filter-mapping>',
    ),
  },
  'unusual-url-pattern': {
    fail: app(
      filter('a', 'WebdavFixFilter', {}, false) +
        '<filter-mapping><filter-name>a</filter-name><url-pattern>*</url-pattern></filter-mapping>',
    ),
    pass: app(filter('a', 'WebdavFixFilter')),
  },
  'cors-no-allowed-origins': {
    fail: app(filter('c', 'CorsFilter')),
    pass: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' })),
  },
  'cors-any-origin': {
    fail: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': '*' })),
    pass: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' })),
  },
  'cors-allowed-headers-wildcard': {
    fail: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.allowed.headers': '*' })),
    pass: app(
      filter('c', 'CorsFilter', {
        'cors.allowed.origins': 'https://a.example',
        'cors.allowed.headers': 'Content-Type',
      }),
    ),
  },
  'cors-exposes-cors-headers': {
    fail: app(
      filter('c', 'CorsFilter', {
        'cors.allowed.origins': 'https://a.example',
        'cors.exposed.headers': 'Access-Control-Allow-Origin',
      }),
    ),
    pass: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.exposed.headers': 'X-Total' }),
    ),
  },
  'cors-http-origin': {
    fail: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'http://localhost:8000' })),
    pass: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' })),
  },
  'hsts-disabled': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter', { hstsEnabled: 'false' })),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000' })),
  },
  'hsts-max-age-zero': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter')),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000' })),
  },
  'security-header-disabled': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', antiClickJackingEnabled: 'false' })),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' })),
  },
  'static-content-type-missing': {
    fail: {
      ...app(`${filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' })}\n${defaultServlet}`),
      'webapps/app/index.html': '<p>page</p>',
      'webapps/app/site.webmanifest': '{}',
    },
    pass: {
      ...app(
        `${filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' })}\n${defaultServlet}\n${mimeMapping('html', 'text/html')}\n${mimeMapping('webmanifest', 'application/manifest+json')}`,
      ),
      'webapps/app/index.html': '<p>page</p>',
      'webapps/app/site.webmanifest': '{}',
    },
  },
  'frame-options-allow-from': {
    fail: app(
      filter('h', 'HttpHeaderSecurityFilter', {
        hstsMaxAgeSeconds: '1',
        antiClickJackingOption: 'ALLOW-FROM',
        antiClickJackingUri: 'https://a.example',
      }),
    ),
    pass: app(
      filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', antiClickJackingOption: 'SAMEORIGIN' }),
    ),
  },
  'webxml-version-unsupported': { fail: app('', '6.1'), pass: app('', '6.0') },
  'doctype-mixed-ids': {
    fail: {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.2//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">\n<web-app/>',
    },
    pass: {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">\n<web-app/>',
    },
  },
  'address-regex-matches-nothing': {
    fail: app(filter('r', 'RemoteAddrFilter', { allow: '127.0.01' })),
    pass: app(filter('r', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1' })),
  },
  'address-regex-bare-dot': {
    fail: app(filter('r', 'RemoteHostFilter', { allow: '.*.example.com' })),
    pass: app(filter('r', 'RemoteHostFilter', { allow: '.*\\.example\\.com' })),
  },
  'cidr-host-bits': {
    fail: app(filter('c', 'RemoteCIDRFilter', { allow: '10.1.2.3/24' })),
    pass: app(filter('c', 'RemoteCIDRFilter', { allow: '10.1.2.0/24, 10.1.2.3/32' })),
  },
  'cors-preflight-maxage-negative': {
    fail: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.preflight.maxage': '-5' }),
    ),
    pass: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.preflight.maxage': '60' }),
    ),
  },
  'expires-negative-duration': {
    fail: app(filter('e', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus -1 hours' })),
    pass: app(filter('e', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus 1 hours' })),
  },
  'global-filter-redefined': {
    fail: {
      'conf/web.xml':
        '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">' +
        filter('g', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus 2 hours' }) +
        '</web-app>',
      ...app(filter('g', 'AddDefaultCharsetFilter', {}, false)),
    },
    pass: {
      'conf/web.xml':
        '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">' +
        filter('g', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus 2 hours' }) +
        '</web-app>',
      ...app(filter('mine', 'AddDefaultCharsetFilter')),
    },
  },
  'server-class-not-found': {
    fail: { 'conf/server.xml': server('<Listener className="org.apache.catalina.core.JasperListener"/>') },
    pass: { 'conf/server.xml': server('<Listener className="org.apache.catalina.startup.VersionLoggerListener"/>') },
  },
  'executor-threads-invalid': {
    fail: {
      'conf/server.xml':
        '<?xml version="1.0"?>\n<Server port="-1">\n  <Service name="Catalina">\n    <Executor name="pool" namePrefix="exec-"\n              maxThreads="20"/>\n    <Connector port="8080" executor="pool"/>\n    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine>\n  </Service>\n</Server>\n',
    },
    pass: {
      'conf/server.xml':
        '<?xml version="1.0"?>\n<Server port="-1">\n  <Service name="Catalina">\n    <Executor name="pool" namePrefix="exec-"\n              maxThreads="20" minSpareThreads="4"/>\n    <Connector port="8080" executor="pool"/>\n    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine>\n  </Service>\n</Server>\n',
    },
  },
  'attribute-unknown': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps" xmlValidation="false"/></Engine></Service></Server>',
      ...app(''),
    },
    pass: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
  },
  'attribute-invalid-value': {
    fail: {
      'conf/Catalina/localhost/app.xml': '<Context sessionTimeout="30m"/>',
      ...app(''),
    },
    pass: {
      'conf/Catalina/localhost/app.xml': '<Context sessionTimeout="30"/>',
      ...app(''),
    },
  },
  'context-class-not-found': {
    fail: {
      'conf/context.xml': '<Context><Manager className="org.redisson.tomcat.RedissonSessionManager"/></Context>',
      ...app(''),
    },
    pass: {
      'conf/context.xml': '<Context><Manager className="org.apache.catalina.session.StandardManager"/></Context>',
      ...app(''),
    },
  },
  'connector-protocol-not-found': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Connector port="8081" protocol="org.apache.coyote.http11.Http11AprProtocol"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
    pass: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Connector port="8081" protocol="org.apache.coyote.http11.Http11NioProtocol"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
  },
  'connector-tls-without-host-config': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Connector port="8443" SSLEnabled="true" scheme="https" secure="true" keystoreFile="conf/tls.p12" keystorePass="changeit"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
    pass: {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Connector port="8443" SSLEnabled="true" scheme="https" secure="true"><SSLHostConfig><Certificate certificateKeystoreFile="conf/tls.p12" certificateKeystorePassword="${tls.password}"/></SSLHostConfig></Connector><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
  },
  'realm-missing-attribute': {
    fail: {
      'conf/Catalina/localhost/app.xml':
        '<Context><Realm className="org.apache.catalina.realm.DataSourceRealm" dataSourceName="jdbc/users" userNameCol="user_name" userCredCol="user_pass"/></Context>',
      ...app(''),
    },
    pass: {
      'conf/Catalina/localhost/app.xml':
        '<Context><Realm className="org.apache.catalina.realm.DataSourceRealm" dataSourceName="jdbc/users" userTable="users" userNameCol="user_name" userCredCol="user_pass"/></Context>',
      ...app(''),
    },
  },
  'shutdown-port-default': {
    fail: { 'conf/server.xml': server('', 'port="8005" shutdown="SHUTDOWN"') },
    pass: { 'conf/server.xml': server('', 'port="-1" shutdown="SHUTDOWN"') },
  },
  'connector-legacy-tls': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service><Connector port="8443" sslEnabledProtocols="TLSv1,TLSv1.2"/><Engine name="C" defaultHost="localhost"><Host name="localhost"/></Engine></Service></Server>',
    },
    pass: {
      'conf/server.xml':
        '<Server port="-1"><Service><Connector port="8443" sslEnabledProtocols="TLSv1.2,TLSv1.3"/><Engine name="C" defaultHost="localhost"><Host name="localhost"/></Engine></Service></Server>',
    },
  },
  'cleartext-keystore-password': {
    fail: {
      'conf/server.xml':
        '<Server port="-1"><Service><Connector port="8443"><SSLHostConfig><Certificate certificateKeystorePassword="s3cret"/></SSLHostConfig></Connector><Engine name="C" defaultHost="localhost"><Host name="localhost"/></Engine></Service></Server>',
    },
    pass: {
      'conf/server.xml':
        '<Server port="-1"><Service><Connector port="8443"><SSLHostConfig><Certificate certificateKeystorePassword="${keystore.password}"/></SSLHostConfig></Connector><Engine name="C" defaultHost="localhost"><Host name="localhost"/></Engine></Service></Server>',
      'conf/catalina.properties': 'keystore.password=x\n',
    },
  },
  'set-character-encoding-no-effect': {
    fail: app(
      '<request-character-encoding>UTF-8</request-character-encoding>\n' +
        filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }),
    ),
    pass: app(
      '<request-character-encoding>UTF-8</request-character-encoding>\n' +
        filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'true' }),
    ),
  },
  'remote-ip-after-address-filter': {
    fail: app(filter('a', 'RemoteAddrFilter', { allow: '10\\..*' }) + filter('ip', 'RemoteIpFilter')),
    pass: app(filter('ip', 'RemoteIpFilter') + filter('a', 'RemoteAddrFilter', { allow: '10\\..*' })),
  },
  'remote-addr-deny-behind-proxy': {
    fail: app(filter('ip', 'RemoteIpFilter') + filter('a', 'RemoteAddrFilter', { deny: '10\\.0\\.0\\.1' })),
    pass: app(
      filter('ip', 'RemoteIpFilter') +
        filter('a', 'RemoteAddrFilter', { allow: '192\\.168\\.\\d+\\.\\d+', deny: '192\\.168\\.0\\.1' }),
    ),
  },
  'rate-limit-spoofable-client': {
    fail: app(filter('ip', 'RemoteIpFilter', { internalProxies: '.*' }) + filter('r', 'RateLimitFilter')),
    pass: app(filter('ip', 'RemoteIpFilter') + filter('r', 'RateLimitFilter')),
  },
  'set-character-encoding-order': {
    fail: app(filter('f', 'FailedRequestFilter') + filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' })),
    pass: app(filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }) + filter('f', 'FailedRequestFilter')),
  },
  'csrf-not-covering-all': {
    fail: app(
      filter('c', 'CsrfPreventionFilter', {}, false) +
        '<filter-mapping><filter-name>c</filter-name><url-pattern>/admin/*</url-pattern></filter-mapping>',
    ),
    pass: app(filter('c', 'CsrfPreventionFilter')),
  },
  'expires-rule-never-applies': {
    fail: app(filter('e', 'ExpiresFilter', { 'ExpiresByType text/html; charset=utf-8': 'access plus 1 day' })),
    pass: app(filter('e', 'ExpiresFilter', { 'ExpiresByType text/html;charset=utf-8': 'access plus 1 day' })),
  },
  'remote-addr-ipv6-form': {
    fail: app(filter('a', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|::1' })),
    pass: app(filter('a', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|::1|0:0:0:0:0:0:0:1' })),
  },
  'csrf-insecure-random': {
    fail: app(filter('c', 'RestCsrfPreventionFilter', { randomClass: 'java.util.Random' })),
    pass: app(filter('c', 'RestCsrfPreventionFilter')),
  },
  'request-dumper-enabled': {
    fail: app(filter('d', 'RequestDumperFilter')),
    pass: app(filter('d', 'WebdavFixFilter')),
  },
  'host-manager-no-script-user': {
    fail: { ...hostManager, 'conf/tomcat-users.xml': users('<user username="a" password="x" roles="admin-gui"/>') },
    pass: {
      ...hostManager,
      'conf/tomcat-users.xml': users(
        '<user username="a" password="0123456789abcdef0123456789abcdef$1$abcd" roles="admin-script"/>',
      ),
    },
  },
  'user-plaintext-password': {
    fail: {
      'conf/tomcat-users.xml': users('<user username="deploy" password="correct horse battery" roles="admin-script"/>'),
    },
    pass: {
      'conf/tomcat-users.xml': users(
        '<user username="deploy" password="e49332de463c645b8eb0314d872b83ff$100000$e1a4f3a4487cfae0af53be5e6aa9fee7b722cbe15b3a10f9af7c104085041604" roles="admin-script"/>',
      ),
    },
  },
  'persist-needs-storeconfig': {
    fail: { ...hostManager, 'conf/server.xml': server('') },
    pass: {
      ...hostManager,
      'conf/server.xml': server('<Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListener"/>'),
    },
  },
  'json-malformed': {
    fail: { 'tollgate.chain.json': '{ "version": 1, "contexts": [ { "path": "/api", } ] }' },
    pass: { 'tollgate.chain.json': '{ "version": 1, "contexts": [ { "path": "/api" } ] }' },
  },
  'json-chain-invalid': {
    fail: {
      'tollgate.chain.json': JSON.stringify({
        version: 1,
        contexts: [
          {
            path: '/api',
            filters: [
              {
                name: 'c',
                class: 'org.apache.catalina.filters.CorsFilter',
                params: { 'cors.support.credentials': ['true'] },
              },
            ],
          },
        ],
      }),
    },
    pass: {
      'tollgate.chain.json': JSON.stringify({
        version: 1,
        contexts: [
          {
            path: '/api',
            filters: [
              {
                name: 'c',
                class: 'org.apache.catalina.filters.CorsFilter',
                params: { 'cors.allowed.origins': 'https://a.example', 'cors.support.credentials': true },
              },
            ],
            mappings: [{ filter: 'c', urlPatterns: ['/*'] }],
          },
        ],
      }),
    },
  },
  'rest-csrf-no-fetch-path': {
    fail: app(
      filter('r', 'RestCsrfPreventionFilter', {}, false) +
        '<filter-mapping><filter-name>r</filter-name><url-pattern>/api/*</url-pattern><dispatcher>FORWARD</dispatcher></filter-mapping>',
    ),
    pass: app(
      filter('r', 'RestCsrfPreventionFilter', {}, false) +
        '<filter-mapping><filter-name>r</filter-name><url-pattern>/api/*</url-pattern></filter-mapping>',
    ),
  },
  'rest-csrf-not-covering': {
    fail: {
      ...app(
        restApi +
          filter('r', 'RestCsrfPreventionFilter', {}, false) +
          '<filter-mapping><filter-name>r</filter-name><url-pattern>/api/*</url-pattern></filter-mapping>',
      ),
      'webapps/app/api/index.html': 'api',
      'webapps/app/admin/index.html': 'admin',
    },
    pass: app(
      restApi +
        filter('r', 'RestCsrfPreventionFilter', {}, false) +
        '<filter-mapping><filter-name>r</filter-name><url-pattern>/api/*</url-pattern><url-pattern>/admin/*</url-pattern></filter-mapping>',
    ),
  },
  'header-filter-overridden': {
    fail: {
      'conf/web.xml': `<web-app>${defaultServlet}${filter('httpHeaderSecurity', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' })}</web-app>`,
      ...app(
        filter('frameOptions', 'HttpHeaderSecurityFilter', {
          hstsMaxAgeSeconds: '1',
          antiClickJackingOption: 'SAMEORIGIN',
        }),
      ),
    },
    pass: {
      'conf/web.xml': `<web-app>${defaultServlet}${filter('httpHeaderSecurity', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1' })}</web-app>`,
      ...app(
        filter('httpHeaderSecurity', 'HttpHeaderSecurityFilter', {
          hstsMaxAgeSeconds: '1',
          antiClickJackingOption: 'SAMEORIGIN',
        }),
      ),
    },
  },
  'remote-host-without-lookups': {
    fail: app(filter('h', 'RemoteHostFilter', { allow: 'localhost' })),
    pass: app(filter('h', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|0:0:0:0:0:0:0:1' })),
  },
  'unknown-filter-class': {
    fail: app(filter('c', 'CorsFiltre')),
    pass: app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' })),
  },
  'duplicate-servlet-mapping': {
    fail: app(servlet('one') + servlet('two') + servletMapping('one', '/x') + servletMapping('two', '/x')),
    pass: app(servlet('one') + servlet('two') + servletMapping('one', '/x') + servletMapping('two', '/y')),
  },
  'servlet-mapping-undefined-servlet': {
    fail: app(servlet('one') + servletMapping('ghost', '/x')),
    pass: app(servlet('one') + servletMapping('one', '/x')),
  },
  'mime-mapping-case-conflict': {
    fail: app(mimeMapping('JSON', 'text/plain') + mimeMapping('json', 'application/json')),
    pass: app(mimeMapping('json', 'application/json')),
  },
  'filter-denies-everything': {
    fail: app(filter('c', 'RemoteCIDRFilter')),
    pass: app(filter('c', 'RemoteCIDRFilter', { allow: '10.0.0.0/8' })),
  },
  'filter-param-no-effect': {
    fail: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.allowed.methods': 'GET,post' }),
    ),
    pass: app(
      filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.allowed.methods': 'GET,POST' }),
    ),
  },
  'filter-param-not-in-target': {
    fail: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000', xssProtectionEnabled: 'true' })),
    pass: app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000' })),
  },
};

/** Rules about what changed between Tomcat versions: checked against 11.0. */
export const ON_TOMCAT_11: ReadonlySet<string> = new Set(['filter-not-in-target', 'filter-param-not-in-target']);

/**
 * More failing configurations of some rules, each observed on Tomcat too (scripts/observe-rules.ts):
 * the variants whose effect differs, and mistakes whose verdict was checked on Tomcat 10.1 first.
 */
export const MORE_FAILS: Record<string, Files[]> = {
  // With executor= the digester itself fails on the missing handler: the whole server does not start (observed on 10.1.60).
  'connector-protocol-not-found': [
    {
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Executor name="pool" namePrefix="exec-"/><Connector port="8080"/><Connector port="8081" executor="pool" protocol="org.apache.coyote.http11.Http11AprProtocol"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      ...app(''),
    },
  ],
  // A context's own file refuses that context only; a Context-level Listener is not skipped for optional="true".
  'context-class-not-found': [
    {
      'conf/Catalina/localhost/app.xml':
        '<Context><Listener className="org.example.NoSuchListener" optional="true"/></Context>',
      ...app(''),
    },
  ],
  // Referenced, the external entity makes Tomcat refuse the descriptor (xmlBlockExternal); declared only, it starts.
  'xml-external-entity': [
    {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY x SYSTEM "file:///etc/hostname">]><web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><display-name>&x;</display-name></web-app>',
    },
  ],
  // conf/context.xml is read for every context: malformed, Tomcat refuses each of them.
  'xml-malformed': [
    {
      'conf/context.xml':
        '<?xml version="1.0" encoding="UTF-8"?>\n<Context>\n  <WatchedResource>WEB-INF/web.xml</WatchedResource>\n',
      ...app(''),
    },
    {
      'conf/Catalina/localhost/context.xml.default':
        '<?xml version="1.0" encoding="UTF-8"?>\n<Context><Valve</Context>\n',
      ...app(''),
    },
  ],
  // A noNonceURLPatterns entry that is none of *.ext, /prefix*, /regex/ after mime: ("Unsupported pattern");
  // a charset SetCharacterEncodingFilter checks only per request (the context starts, requests fail).
  'filter-param-invalid': [
    app(filter('c', 'CsrfPreventionFilter', { noNonceURLPatterns: 'mime:text/x-up' })),
    {
      ...app(filter('s', 'SetCharacterEncodingFilter', { encoding: 'no-such-charset' })),
      'webapps/app/reader.jsp': '<%= request.getReader().readLine() %>',
    },
  ],
  // The variants of rules whose first fixture shows one effect only.
  'filter-never-mapped': [app(filter('c', 'CsrfPreventionFilter', {}, false))],
  'filter-param-unknown': [
    app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.alowed.methods': 'GET' })),
  ],
  'filter-param-boolean-spelling': [
    app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', hstsIncludeSubDomains: 'maybe' })),
    app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', hstsIncludeSubDomains: 'TRUE' })),
  ],
  'xml-entity-expansion': [
    {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY a "&b;"><!ENTITY b "&a;">]><web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><display-name>&a;</display-name></web-app>',
    },
    {
      'webapps/app/WEB-INF/web.xml':
        '<?xml version="1.0"?><!DOCTYPE web-app [<!ENTITY a "&b;"><!ENTITY b "&a;">]><web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>',
    },
  ],
  'filter-param-cidr': [app(filter('c', 'RemoteCIDRFilter', { allow: '10.1.2/24, 127.0.0.1/32' }))],
  'filter-param-no-effect': [
    app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '1', antiClickJackingUri: 'https://a.example' })),
  ],
  'cors-allowed-headers-wildcard': [
    app(filter('c', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.exposed.headers': '*' })),
  ],
  'expires-negative-duration': [
    app(filter('e', 'ExpiresFilter', { 'ExpiresByType text/html': 'access plus 2 hours -1 hours' })),
  ],
  'address-regex-bare-dot': [app(filter('r', 'RemoteAddrFilter', { allow: '127.0.0.1' }))],
  'filter-param-regex': [app(filter('r', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1(' }))],
};
