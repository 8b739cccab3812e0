/**
 * Every automatic control of both benchmarks, each with a configuration its check text fails and
 * one it passes, run through `tollgate audit` (issue 31): one row per control, changing one thing
 * of a base that passes everything (test/audit/control-base.ts). A row asserts the status and a
 * piece of the evidence (the value found, or the finding's message). The last test fails when a
 * control becomes automatic (a rule or an examiner decides it) without a row here.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS, RELEASES, type BenchmarkId } from '../../src/audit/catalogue.js';
import { EXAMINERS } from '../../src/audit/checks.js';
import { rulesByControl } from '../../src/audit/report.js';
import { main } from '../../src/cli/index.js';
import { cleanup } from '../lint/helpers.js';
import {
  ACCESS_LOG,
  APP_CONTEXT,
  CATALINA_PROPERTIES,
  CONNECTOR,
  CONTEXT_XML,
  COOKIE_CONFIG,
  DEFAULT_SERVLET,
  ERROR_VALVE,
  FACTS,
  HOST_ATTRS,
  HSTS_FILTER,
  LOGGING,
  MANAGER,
  MANAGER_CONTEXT,
  MGR,
  REALM,
  SERVER_INFO,
  SETENV,
  base,
  me,
  serverXml as s,
  webXml as w,
} from './control-base.js';

afterAll(() => cleanup());

/** A change of the clean base: files (null removes one), tollgate.config.json keys, modes, CLI options. */
interface Variant {
  files?: Record<string, string | null>;
  config?: Record<string, unknown>;
  modes?: Record<string, number>;
  args?: string[];
}

interface Row {
  benchmark: BenchmarkId;
  control: string;
  /** What the check text calls a finding. */
  fail: Variant;
  /** Found in the failing control's findings or evidence. */
  failSays: string;
  /** What the check text passes (often the clean base itself: `{}`). */
  pass: Variant;
  /** Found in the passing control's evidence or notes. */
  passSays?: string;
  /** The status the failing variant has when it is not `fail` (a site fact that makes it not reviewed). */
  failStatus?: string;
}

const STIG: BenchmarkId = 'stig-tomcat';
const CIS: BenchmarkId = 'cis-tomcat-10.1';

/** conf/server.xml with one connector replaced. */
const PLAIN = `${CONNECTOR}\n<Connector port="8080" address="10.0.0.5" connectionTimeout="20000"/>`;
const connector = (c: string): Record<string, string> => ({ 'conf/server.xml': s({ connectors: c }) });
/** The clean base's TLS connector with attributes added to the <Connector>. */
const tlsWith = (attrs: string): string => CONNECTOR.replace('<Connector ', `<Connector ${attrs} `);
/** The clean base's TLS connector with its <SSLHostConfig> attributes replaced. */
const sslWith = (attrs: string): string => CONNECTOR.replace(/<SSLHostConfig [^>]*>/, `<SSLHostConfig ${attrs}>`);
const host = (attrs: string): Record<string, string> => ({
  'conf/server.xml': s({ host: `${HOST_ATTRS} ${attrs}`.replace(/ (\w+)="[^"]*"(?=.* \1=)/g, '') }),
});
const logPattern = (pattern: string): Record<string, string> => {
  const valve = ACCESS_LOG.replace(/pattern="[^"]*"/, `pattern="${pattern}"`);
  return {
    'conf/server.xml': s({ engineValves: valve, hostValves: `${valve}\n${ERROR_VALVE}` }),
    'conf/context.xml': CONTEXT_XML.replace(ACCESS_LOG, valve),
  };
};
const noAccessLog = { engineValves: '', hostValves: ERROR_VALVE };
const managerContext = (inner: string, attrs = 'privileged="true"'): Record<string, string> => ({
  'conf/server.xml': s({
    contexts: `${APP_CONTEXT}\n<Context path="/mgr-7f3" docBase="mgr-7f3" ${attrs}>${inner}</Context>`,
  }),
});
const RESTRICT = '<Valve className="org.apache.catalina.valves.RemoteAddrValve" allow="127\\.\\d+\\.\\d+\\.\\d+"/>';
const SESSIONS = '<Manager className="org.apache.catalina.session.StandardManager" maxActiveSessions="10"/>';
const managerWeb = (body: string): Record<string, string> => ({
  [`${MGR}/WEB-INF/web.xml`]: MANAGER[`${MGR}/WEB-INF/web.xml`]!.replace(
    /<session-config>[\s\S]*<\/web-app>/,
    `${body}\n</web-app>`,
  ),
});
const MANAGER_SERVLET_ONLY =
  '<session-config><session-timeout>10</session-timeout></session-config><security-constraint><web-resource-collection><web-resource-name>m</web-resource-name><url-pattern>/text/*</url-pattern></web-resource-collection><auth-constraint><role-name>manager-script</role-name></auth-constraint><user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint></security-constraint><security-role><role-name>manager-script</role-name></security-role>';
const setenv = (text: string): Record<string, string> => ({ 'bin/setenv.sh': text });
const JMX = 'com.sun.management.jmxremote';
const info = (key: string, value: string): Record<string, string> => ({
  [SERVER_INFO]: `server.info=Web\nserver.number=0.0.0.0\nserver.built=a while ago\n`.replace(
    new RegExp(`${key}=.*`),
    `${key}=${value}`,
  ),
});
const owners = { accounts: { admin: 'tomcat_admin', service: 'tomcat', group: 'tomcat' } };
const open = (path: string, mode = 0o777): Variant => ({ modes: { [path]: mode } });
const facts = (f: Record<string, unknown>): Record<string, unknown> => ({ audit: { ...FACTS, ...f } });

const rows: Row[] = [
  // ----------------------------------------------------------------------------------------- STIG
  {
    benchmark: STIG,
    control: 'V-222926',
    fail: { files: managerContext(RESTRICT) },
    failSays: 'maxActiveSessions',
    pass: {},
    passSays: 'maxActiveSessions="10"',
  },
  {
    benchmark: STIG,
    control: 'V-222927',
    fail: { files: connector(sslWith('protocols="TLSv1.2" ciphers="RC4-SHA:AES128-SHA"')) },
    failSays: 'RC4',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222928',
    fail: {
      files: {
        'conf/web.xml': w({
          filters: HSTS_FILTER.replace(
            '<param-name>hstsEnabled</param-name><param-value>true',
            '<param-name>hstsEnabled</param-name><param-value>false',
          ),
        }),
      },
    },
    failSays: 'hstsEnabled',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222929',
    fail: { files: connector(sslWith('protocols="TLSv1.1+TLSv1.2"')) },
    failSays: 'TLSv1.1',
    pass: {},
    passSays: 'protocols="TLSv1.2+TLSv1.3"',
  },
  {
    benchmark: STIG,
    control: 'V-222930',
    fail: { files: { 'conf/context.xml': '<Context logEffectiveWebXml="true"/>\n' } },
    failSays: 'no AccessLogValve',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222931',
    fail: { files: connector(CONNECTOR.replace('a-real-secret', 'changeit')) },
    failSays: 'changeit',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222932',
    // A plain-HTTP connector: on TLS-only connectors Tomcat marks the cookie Secure whatever web.xml says.
    fail: {
      files: {
        'conf/web.xml': w({ session: COOKIE_CONFIG.replace('<secure>true</secure>', '<secure>false</secure>') }),
        ...connector(PLAIN),
      },
    },
    failSays: 'secure',
    pass: {},
    passSays: '<secure>true</secure>',
  },
  {
    benchmark: STIG,
    control: 'V-222933',
    // Context useHttpOnly="false" too: Tomcat's default (true) marks the cookie HttpOnly whatever web.xml says.
    fail: {
      files: {
        'conf/web.xml': w({
          session: COOKIE_CONFIG.replace('<http-only>true</http-only>', '<http-only>false</http-only>'),
        }),
        'conf/context.xml': CONTEXT_XML.replace('<Context ', '<Context useHttpOnly="false" '),
      },
    },
    failSays: 'http-only',
    pass: {},
    passSays: '<http-only>true</http-only>',
  },
  {
    benchmark: STIG,
    control: 'V-222934',
    fail: {
      files: {
        'conf/web.xml': w({
          servlets: DEFAULT_SERVLET.replace(
            '<param-name>readonly</param-name><param-value>true',
            '<param-name>readonly</param-name><param-value>false',
          ),
        }),
      },
    },
    failSays: 'readonly',
    pass: {},
    passSays: 'readonly=true',
  },
  {
    benchmark: STIG,
    control: 'V-222935',
    fail: { files: connector(`${CONNECTOR}\n<Connector port="8080" address="10.0.0.5" connectionTimeout="20000"/>`) },
    failSays: '8080',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222936',
    fail: { files: setenv('UMASK=0027\n') },
    failSays: 'java.security.manager',
    pass: {},
    passSays: '-Djava.security.manager',
  },
  {
    benchmark: STIG,
    control: 'V-222937',
    fail: {
      config: facts({ behindProxy: true }),
      files: {
        'conf/server.xml': s({
          engineValves: '',
          hostValves: `${ACCESS_LOG.replace(' requestAttributesEnabled="true"', '')}${ERROR_VALVE}`,
        }),
      },
    },
    failSays: 'RemoteIpValve',
    pass: {
      config: facts({ behindProxy: true }),
      files: {
        'conf/server.xml': s({
          engineValves:
            '<Valve className="org.apache.catalina.valves.RemoteIpValve" internalProxies="10\\.0\\.0\\.1"/>',
        }),
      },
    },
    passSays: 'requestAttributesEnabled="true"',
  },
  {
    benchmark: STIG,
    control: 'V-222938',
    fail: { files: { 'conf/server.xml': s(noAccessLog) } },
    failSays: 'AccessLogValve',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222939',
    fail: { files: logPattern('%h %l %u &quot;%r&quot; %s %b') },
    failSays: '%t',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222940',
    fail: { files: logPattern('%l %u %t &quot;%r&quot; %s %b') },
    failSays: '%h',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222941',
    fail: { files: logPattern('%h %l %u %t &quot;%r&quot; %b') },
    failSays: '%s',
    pass: {},
  },
  { benchmark: STIG, control: 'V-222942', fail: { files: logPattern('%h %l %u %t %s %b') }, failSays: '%r', pass: {} },
  { benchmark: STIG, control: 'V-222943', fail: open('logs'), failSays: 'logs', pass: {}, passSays: 'mode 750' },
  {
    benchmark: STIG,
    control: 'V-222944',
    fail: open('logs/catalina.log', 0o644),
    failSays: 'catalina.log',
    pass: {},
    passSays: 'mode 640',
  },
  {
    benchmark: STIG,
    control: 'V-222945',
    fail: open('conf/server.xml', 0o644),
    failSays: 'server.xml',
    pass: {},
    passSays: 'mode 400',
  },
  { benchmark: STIG, control: 'V-222946', fail: open('conf', 0o755), failSays: 'conf', pass: {}, passSays: 'mode 750' },
  {
    benchmark: STIG,
    control: 'V-222947',
    fail: open('bin/bootstrap.jar', 0o644),
    failSays: 'bootstrap.jar',
    pass: {},
    passSays: 'mode 640',
  },
  { benchmark: STIG, control: 'V-222948', fail: open('bin', 0o755), failSays: 'bin', pass: {}, passSays: 'mode 750' },
  {
    benchmark: STIG,
    control: 'V-222949',
    fail: { files: setenv(SETENV.replace('UMASK=0027', 'UMASK=0022')) },
    failSays: '0022',
    pass: {},
    passSays: '0027',
  },
  {
    benchmark: STIG,
    control: 'V-222950',
    fail: { files: connector(tlsWith('allowTrace="true"')) },
    failSays: 'allowTrace',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222951',
    fail: { files: { 'conf/server.xml': s({ server: 'port="8005" shutdown="c5b0e5f3d1a44a7f9e2b"' }) } },
    failSays: '8005',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222952',
    fail: { config: facts({ approvedConnectors: [{ port: 443 }] }) },
    failSays: 'approvedConnectors',
    pass: {},
    passSays: 'Connector[port=8443]',
  },
  {
    benchmark: STIG,
    control: 'V-222953',
    fail: {
      files: {
        'conf/web.xml': w({
          servlets: DEFAULT_SERVLET.replace('<param-value>0</param-value>', '<param-value>1</param-value>'),
        }),
      },
    },
    failSays: 'debug',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222954',
    fail: {
      files: {
        'conf/web.xml': w({
          servlets: DEFAULT_SERVLET.replace('<param-value>false</param-value>', '<param-value>true</param-value>'),
        }),
      },
    },
    failSays: 'listings',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222955',
    fail: { files: host('deployXML="true"') },
    failSays: 'deployXML',
    pass: {},
    passSays: 'deployXML="false"',
  },
  {
    benchmark: STIG,
    control: 'V-222956',
    fail: { files: host('autoDeploy="true"') },
    failSays: 'autoDeploy',
    pass: {},
    passSays: 'autoDeploy="false"',
  },
  {
    benchmark: STIG,
    control: 'V-222957',
    fail: { files: connector(tlsWith('xpoweredBy="true"')) },
    failSays: 'xpoweredBy',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222958',
    fail: { files: { 'webapps/examples/index.html': 'x' } },
    failSays: 'examples',
    pass: {},
    passSays: 'webapps/examples',
  },
  {
    benchmark: STIG,
    control: 'V-222959',
    fail: {
      files: {
        'conf/server.xml': s({ contexts: `${APP_CONTEXT}\n${MANAGER_CONTEXT}\n<Context path="" docBase="ROOT"/>` }),
        'webapps/ROOT/index.html': '<p>This is the default Tomcat home page.</p>',
      },
    },
    failSays: 'ROOT',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222960',
    fail: { files: { 'webapps/docs/index.html': 'x' } },
    failSays: 'docs',
    pass: {},
    passSays: 'webapps/docs',
  },
  {
    benchmark: STIG,
    control: 'V-222961',
    fail: { config: facts({ approvedPrivilegedApps: ['/other'] }) },
    failSays: 'approvedPrivilegedApps',
    pass: {},
    passSays: 'privileged="true"',
  },
  {
    benchmark: STIG,
    control: 'V-222962',
    fail: {
      files: {
        'conf/server.xml': s({
          realm: REALM.replace(
            'JNDIRealm" connectionURL="ldaps://ldap.example:636" userPattern="uid={0},ou=people,dc=example"',
            'UserDatabaseRealm" resourceName="UserDatabase"',
          ),
        }),
      },
    },
    failSays: 'UserDatabaseRealm',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222963',
    fail: {
      files: setenv(
        `${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.authenticate=false -D${JMX}.ssl=true -D${JMX}.host=10.0.0.9"\n`,
      ),
    },
    failSays: 'authenticate=false',
    pass: {
      files: setenv(
        `${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.authenticate=true -D${JMX}.ssl=true -D${JMX}.host=10.0.0.9"\n`,
      ),
    },
    passSays: 'authenticate=true',
  },
  {
    benchmark: STIG,
    control: 'V-222964',
    fail: {
      files: setenv(
        `${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.authenticate=true -D${JMX}.ssl=false -D${JMX}.host=10.0.0.9"\n`,
      ),
    },
    failSays: 'ssl=false',
    pass: {
      files: setenv(
        `${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.authenticate=true -D${JMX}.ssl=true -D${JMX}.host=10.0.0.9"\n`,
      ),
    },
    passSays: 'ssl=true',
  },
  {
    benchmark: STIG,
    control: 'V-222965',
    fail: {
      files: { 'conf/server.xml': s({ realm: REALM.replace('ldaps://ldap.example:636', 'ldap://ldap.example:389') }) },
    },
    failSays: 'ldap://',
    pass: {},
    passSays: 'connectionURL="ldaps://ldap.example:636"',
  },
  {
    benchmark: STIG,
    control: 'V-222967',
    fail: open('conf/k.p12', 0o644),
    failSays: 'k.p12',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: STIG,
    control: 'V-222968',
    fail: {
      files: {
        'conf/server.xml': s({
          listeners: '<Listener className="org.apache.catalina.core.AprLifecycleListener" SSLEngine="on"/>',
        }),
      },
    },
    failSays: 'FIPSMode',
    pass: {},
    passSays: 'FIPSMode="on"',
  },
  {
    benchmark: STIG,
    control: 'V-222969',
    fail: { files: setenv(`${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.host=0.0.0.0"\n`) },
    failSays: '0.0.0.0',
    pass: { files: setenv(`${SETENV}CATALINA_OPTS="$CATALINA_OPTS -D${JMX}.port=9010 -D${JMX}.host=10.0.0.9"\n`) },
    passSays: '10.0.0.9',
  },
  {
    benchmark: STIG,
    control: 'V-222970',
    fail: { files: managerContext(SESSIONS) },
    failSays: 'answers every address',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222973',
    fail: { files: connector(tlsWith('discardFacades="false"')) },
    failSays: 'discardFacades',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222975',
    fail: {
      files: {
        'conf/server.xml': s({
          hostValves: `${ACCESS_LOG}${ERROR_VALVE.replace('showServerInfo="false"', 'showServerInfo="true"')}`,
        }),
      },
    },
    failSays: 'showServerInfo',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222976',
    fail: {
      files: {
        [`${MGR}/WEB-INF/jsp/401.jsp`]:
          '<pre>&lt;user username="tomcat" password="s3cret" roles="manager-gui"/&gt;</pre>\n',
      },
    },
    failSays: '401.jsp',
    pass: { files: { [`${MGR}/WEB-INF/jsp/401.jsp`]: '<p>Not authorised.</p>\n' } },
  },
  {
    benchmark: STIG,
    control: 'V-222977',
    fail: {
      files: {
        'conf/server.xml': s({
          hostValves: `${ACCESS_LOG}${ERROR_VALVE.replace('showReport="false"', 'showReport="true"')}`,
        }),
      },
    },
    failSays: 'showReport',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222978',
    fail: { files: info('server.info', 'Apache Tomcat/10.1.60') },
    failSays: 'Apache Tomcat/10.1.60',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222979',
    fail: {
      files: managerWeb(
        MANAGER_SERVLET_ONLY.replace('<session-timeout>10<', '<session-timeout>30<') +
          '<login-config><auth-method>CLIENT-CERT</auth-method></login-config>',
      ),
    },
    failSays: '30',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222980',
    fail: {
      files: {
        'conf/server.xml': s({
          realm: REALM.replace(/^<Realm className="org.apache.catalina.realm.LockOutRealm"[^>]*>/, '').replace(
            /<\/Realm>\s*$/,
            '',
          ),
        }),
      },
    },
    failSays: 'LockOutRealm',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222981',
    fail: { files: { 'conf/server.xml': s({ realm: REALM.replace('failureCount="5"', 'failureCount="10"') }) } },
    failSays: 'failureCount',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222982',
    fail: { files: { 'conf/server.xml': s({ realm: REALM.replace('lockOutTime="600"', 'lockOutTime="300"') }) } },
    failSays: 'lockOutTime',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222985',
    fail: { files: logPattern('%h %l %t &quot;%r&quot; %s %b') },
    failSays: '%u',
    pass: {},
  },
  { benchmark: STIG, control: 'V-222986', fail: { config: owners }, failSays: 'root', pass: {}, passSays: 'owner' },
  { benchmark: STIG, control: 'V-222987', fail: { config: owners }, failSays: 'root', pass: {}, passSays: 'owner' },
  { benchmark: STIG, control: 'V-222988', fail: { config: owners }, failSays: 'tomcat', pass: {}, passSays: 'owner' },
  { benchmark: STIG, control: 'V-222989', fail: { config: owners }, failSays: 'tomcat', pass: {}, passSays: 'owner' },
  { benchmark: STIG, control: 'V-222990', fail: open('temp', 0o777), failSays: 'temp', pass: {}, passSays: 'mode 750' },
  { benchmark: STIG, control: 'V-222991', fail: { config: owners }, failSays: 'work', pass: {}, passSays: 'owner' },
  {
    benchmark: STIG,
    control: 'V-222993',
    fail: { files: managerWeb(`${MANAGER_SERVLET_ONLY}<login-config><auth-method>BASIC</auth-method></login-config>`) },
    failSays: 'BASIC',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-222997',
    fail: { files: { 'conf/server.xml': s({ engineValves: '' }) } },
    failSays: 'Engine',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-223002',
    fail: {
      files: {
        'conf/catalina.properties': CATALINA_PROPERTIES.replace(
          'STRICT_SERVLET_COMPLIANCE=true',
          'STRICT_SERVLET_COMPLIANCE=false',
        ),
      },
    },
    failSays: 'STRICT_SERVLET_COMPLIANCE',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-223003',
    fail: { files: connector(tlsWith('discardFacades="false"')) },
    failSays: 'discardFacades',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-223004',
    fail: { files: connector(tlsWith('allowBackslash="true"')) },
    failSays: 'allowBackslash',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-223005',
    fail: { files: connector(tlsWith('enforceEncodingInGetWriter="false"')) },
    failSays: 'enforceEncodingInGetWriter',
    pass: {},
  },
  {
    benchmark: STIG,
    control: 'V-223008',
    fail: { config: facts({ approvedConnectors: [{ port: 8443, address: '10.0.0.6' }] }) },
    failSays: 'approvedConnectors',
    pass: {},
    passSays: 'address="10.0.0.5"',
  },
  {
    benchmark: STIG,
    control: 'V-223009',
    fail: { files: connector(CONNECTOR.replace(' address="10.0.0.5"', '')) },
    failSays: 'address',
    pass: {},
  },

  // ------------------------------------------------------------------------------------------ CIS
  {
    benchmark: CIS,
    control: '1.1',
    fail: { files: { 'webapps/examples/index.html': 'x' } },
    failSays: 'examples',
    pass: {},
    passSays: 'webapps/docs',
  },
  {
    benchmark: CIS,
    control: '1.2',
    fail: { config: facts({ approvedConnectors: [{ port: 443 }] }) },
    failSays: 'approvedConnectors',
    pass: {},
    passSays: 'Connector[port=8443]',
  },
  {
    benchmark: CIS,
    control: '2.1',
    fail: { files: info('server.info', 'Apache Tomcat/10.1.60') },
    failSays: 'server.info',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '2.2',
    fail: { files: info('server.number', '10.1.60.0') },
    failSays: 'server.number',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '2.3',
    fail: { files: info('server.built', 'Sep 20 2026 11:06:01 UTC') },
    failSays: 'server.built',
    pass: { files: info('server.built', 'built in 2026') },
  },
  {
    benchmark: CIS,
    control: '2.4',
    fail: { files: connector(tlsWith('xpoweredBy="true"')) },
    failSays: 'xpoweredBy',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '2.5',
    fail: {
      files: {
        'conf/web.xml': w({
          errors: '<error-page><error-code>404</error-code><location>/404.html</location></error-page>',
        }),
      },
    },
    failSays: 'Throwable',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '2.6',
    fail: { files: connector(tlsWith('allowTrace="true"')) },
    failSays: 'allowTrace="true"',
    pass: {},
    passSays: 'allowTrace absent',
  },
  {
    benchmark: CIS,
    control: '2.7',
    fail: { files: connector(CONNECTOR.replace('server="web"', 'server="Apache Tomcat/10.1.60"')) },
    failSays: 'Apache Tomcat',
    pass: {},
    passSays: 'server="web"',
  },
  {
    benchmark: CIS,
    control: '3.1',
    fail: { files: { 'conf/server.xml': s({ server: 'port="8005" shutdown="SHUTDOWN"' }) } },
    failSays: 'SHUTDOWN',
    pass: { files: { 'conf/server.xml': s({ server: 'port="8005" shutdown="c5b0e5f3d1a44a7f9e2b"' }) } },
  },
  {
    benchmark: CIS,
    control: '3.2',
    fail: { files: { 'conf/server.xml': s({ server: 'port="8005" shutdown="c5b0e5f3d1a44a7f9e2b"' }) } },
    failSays: '8005',
    pass: {},
  },
  { benchmark: CIS, control: '4.1', fail: open('.', 0o755), failSays: 'CATALINA_HOME', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.2', fail: open('.', 0o755), failSays: 'CATALINA_BASE', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.3', fail: open('conf', 0o755), failSays: 'conf', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.4', fail: open('logs', 0o755), failSays: 'logs', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.5', fail: open('temp', 0o755), failSays: 'temp', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.6', fail: open('bin', 0o755), failSays: 'bin', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '4.7', fail: open('webapps', 0o755), failSays: 'webapps', pass: {}, passSays: 'mode 750' },
  {
    benchmark: CIS,
    control: '4.8',
    fail: open('conf/catalina.properties', 0o644),
    failSays: 'catalina.properties',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.9',
    fail: open('conf/catalina.policy', 0o644),
    failSays: 'catalina.policy',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.10',
    fail: open('conf/context.xml', 0o644),
    failSays: 'context.xml',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.11',
    fail: open('conf/logging.properties', 0o644),
    failSays: 'logging.properties',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.12',
    fail: open('conf/server.xml', 0o644),
    failSays: 'server.xml',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.13',
    fail: open('conf/tomcat-users.xml', 0o644),
    failSays: 'tomcat-users.xml',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.14',
    fail: open('conf/web.xml', 0o600),
    failSays: 'web.xml',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '4.15',
    fail: open('conf/jaspic-providers.xml', 0o644),
    failSays: 'jaspic-providers.xml',
    pass: {},
    passSays: 'mode 400',
  },
  {
    benchmark: CIS,
    control: '5.1',
    fail: {
      files: {
        'conf/server.xml': s({
          realm: REALM.replace(
            'JNDIRealm" connectionURL="ldaps://ldap.example:636" userPattern="uid={0},ou=people,dc=example"',
            'MemoryRealm"',
          ),
        }),
      },
    },
    failSays: 'MemoryRealm',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '5.2',
    fail: { files: { 'conf/server.xml': s({ realm: REALM.replace('failureCount="5"', 'failureCount="10"') }) } },
    failSays: 'failureCount',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '6.3',
    fail: {
      files: connector(
        `${CONNECTOR}\n<Connector port="8080" address="10.0.0.5" connectionTimeout="20000" scheme="https"/>`,
      ),
    },
    failSays: 'scheme="https"',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '6.4',
    fail: {
      files: connector(
        `${CONNECTOR}\n<Connector port="8080" address="10.0.0.5" connectionTimeout="20000" secure="true"/>`,
      ),
    },
    failSays: 'secure="true"',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '6.5',
    fail: { files: connector(sslWith('protocols="TLSv1+TLSv1.2"')) },
    failSays: 'TLSv1',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '7.1',
    fail: { files: { 'webapps/app/WEB-INF/classes/logging.properties': null } },
    failSays: 'logging.properties',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '7.2',
    fail: { files: { 'conf/logging.properties': 'handlers = java.util.logging.ConsoleHandler\n' } },
    failSays: 'FileHandler',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '7.3',
    fail: {
      files: { 'conf/server.xml': s(noAccessLog), 'conf/context.xml': '<Context logEffectiveWebXml="true"/>\n' },
    },
    failSays: 'AccessLogValve',
    pass: {},
  },
  { benchmark: CIS, control: '7.4', fail: open('logs', 0o755), failSays: 'logs', pass: {}, passSays: 'mode 750' },
  { benchmark: CIS, control: '7.5', fail: { files: logPattern('%h %t') }, failSays: '%u', pass: {} },
  {
    benchmark: CIS,
    control: '7.6',
    fail: {
      files: {
        'conf/logging.properties': `${LOGGING}1catalina.org.apache.juli.AsyncFileHandler.directory = \${catalina.base}/applogs\n`,
        'applogs/a.log': '',
      },
      modes: { applogs: 0o755 },
    },
    failSays: 'applogs',
    pass: {},
    passSays: 'logs mode 750',
  },
  {
    benchmark: CIS,
    control: '8.1',
    fail: {
      files: {
        'conf/catalina.properties': CATALINA_PROPERTIES.replace(
          'package.access=sun.,org.apache.catalina.,',
          'package.access=sun.,',
        ),
      },
    },
    failSays: 'org.apache.catalina.',
    pass: {},
  },
  { benchmark: CIS, control: '9.1', fail: { files: host('autoDeploy="true"') }, failSays: 'autoDeploy', pass: {} },
  {
    benchmark: CIS,
    control: '9.2',
    fail: { files: host('deployOnStartup="true"') },
    failSays: 'deployOnStartup',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.2',
    fail: { files: managerContext(SESSIONS) },
    failSays: 'answers every address',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.3',
    fail: { files: managerContext(SESSIONS) },
    failSays: 'answers every address',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.4',
    // The login crosses a plain-HTTP connector: on TLS-only connectors it cannot travel in clear.
    fail: {
      files: {
        ...managerWeb(
          `${MANAGER_SERVLET_ONLY.replace(/<user-data-constraint>.*?<\/user-data-constraint>/, '')}<login-config><auth-method>BASIC</auth-method></login-config>`,
        ),
        ...connector(PLAIN),
      },
    },
    failSays: 'CONFIDENTIAL',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.5',
    fail: {
      files: {
        'conf/server.xml': s({
          contexts: `${APP_CONTEXT}\n${MANAGER_CONTEXT.replace('path="/mgr-7f3" docBase="mgr-7f3"', 'path="/manager" docBase="mgr-7f3"')}`,
        }),
      },
    },
    failSays: '/manager',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.6',
    fail: {
      files: {
        'conf/catalina.properties': CATALINA_PROPERTIES.replace(
          'org.apache.catalina.STRICT_SERVLET_COMPLIANCE=true\n',
          '',
        ),
      },
    },
    failSays: 'STRICT_SERVLET_COMPLIANCE',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.7',
    fail: { files: connector(tlsWith('discardFacades="false"')) },
    failSays: 'discardFacades',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.8',
    fail: { files: connector(tlsWith('encodedSolidusHandling="decode"')) },
    failSays: 'encodedSolidusHandling',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.9',
    fail: { files: connector(CONNECTOR.replace('connectionTimeout="20000"', 'connectionTimeout="120000"')) },
    failSays: '120000',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.10',
    fail: { files: connector(tlsWith('maxHttpHeaderSize="65536"')) },
    failSays: '65536',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.11',
    fail: {
      files: {
        'conf/web.xml': w({ constraints: '' }),
        'conf/server.xml': s({
          connectors: `${CONNECTOR}\n<Connector port="8080" address="10.0.0.5" connectionTimeout="20000"/>`,
        }),
      },
    },
    failSays: 'CONFIDENTIAL',
    pass: {},
    passSays: 'security-constraint /* CONFIDENTIAL',
  },
  {
    benchmark: CIS,
    control: '10.12',
    fail: {
      files: {
        'conf/server.xml': s({
          contexts: `<Context path="/app" docBase="app"><Resources allowLinking="true"/></Context>\n${MANAGER_CONTEXT}`,
        }),
      },
    },
    failSays: 'allowLinking',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.13',
    fail: {
      files: {
        'conf/server.xml': s({
          contexts: `<Context path="/app" docBase="app" privileged="true"/>\n${MANAGER_CONTEXT}`,
        }),
      },
    },
    failSays: 'privileged',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.14',
    fail: {
      files: {
        'conf/server.xml': s({
          contexts: `<Context path="/app" docBase="app" crossContext="true"/>\n${MANAGER_CONTEXT}`,
        }),
      },
    },
    failSays: 'crossContext',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.15',
    fail: { files: connector(tlsWith('enableLookups="true"')) },
    failSays: 'enableLookups',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.16',
    fail: {
      files: {
        'conf/server.xml': s({ listeners: '<Listener className="org.apache.catalina.security.SecurityListener"/>' }),
      },
    },
    failSays: 'JreMemoryLeakPreventionListener',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.17',
    fail: {
      files: {
        'conf/server.xml': s({
          listeners: '<Listener className="org.apache.catalina.core.JreMemoryLeakPreventionListener"/>',
        }),
      },
    },
    failSays: 'SecurityListener',
    pass: {},
  },
  {
    benchmark: CIS,
    control: '10.18',
    fail: {
      files: { 'conf/context.xml': CONTEXT_XML.replace('logEffectiveWebXml="true"', 'logEffectiveWebXml="false"') },
    },
    failSays: 'logEffectiveWebXml',
    pass: {},
    passSays: 'metadata-complete="true"',
  },
  {
    benchmark: CIS,
    control: '10.19',
    fail: { files: { 'conf/server.xml': s({ realm: REALM.replace(/\s*<CredentialHandler[^>]*\/>/, '') }) } },
    failSays: 'CredentialHandler',
    pass: {},
    passSays: 'SecretKeyCredentialHandler',
  },
];

interface Entry {
  control: string;
  status: string;
  notes: string[];
  evidence: { subject: string; found: string }[];
  findings: { ruleId: string; message: string }[];
}

const audits = new Map<string, Promise<Entry[]>>();

/** The base of a variant, audited against a benchmark (each base and benchmark once). */
function auditOf(v: Variant, benchmark: BenchmarkId): Promise<Entry[]> {
  const key = `${benchmark} ${JSON.stringify(v)}`;
  const hit = audits.get(key);
  if (hit) return hit;
  const run = (async () => {
    const dir = base(v.files ?? {}, v.config);
    for (const [path, mode] of Object.entries(v.modes ?? {})) chmodSync(join(dir, path), mode);
    let out = '';
    let err = '';
    await main(['audit', dir, '--benchmark', benchmark, '--format', 'json', ...(v.args ?? [])], {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd: dir,
    });
    expect(err).toBe('');
    return (JSON.parse(out) as { controls: Entry[] }).controls;
  })();
  audits.set(key, run);
  return run;
}

/** What an assessor reads of a control: its evidence, findings and notes, as one text. */
const said = (e: Entry): string =>
  [...e.evidence.map((x) => `${x.subject} ${x.found}`), ...e.findings.map((f) => f.message), ...e.notes].join('\n');

describe.each(BENCHMARKS)('%s: each automatic control fails and passes as its check text says', (benchmark) => {
  for (const row of rows.filter((r) => r.benchmark === benchmark))
    it(`${row.control}`, async () => {
      const failed = (await auditOf(row.fail, benchmark)).find((c) => c.control === row.control)!;
      expect(failed.status, said(failed)).toBe(row.failStatus ?? 'fail');
      expect(said(failed)).toContain(row.failSays);
      const passed = (await auditOf(row.pass, benchmark)).find((c) => c.control === row.control)!;
      expect(passed.status, said(passed)).toBe('pass');
      expect(passed.evidence.length).toBeGreaterThan(0);
      if (row.passSays) expect(said(passed)).toContain(row.passSays);
    });
});

describe('the table', () => {
  it('has a row for every control a rule or an examiner decides, in every release of both benchmarks', () => {
    const want = new Set<string>();
    for (const b of BENCHMARKS) {
      const deciding = rulesByControl(b);
      // The releases share their decisions (the examiners and the rules' benchmarks name no release).
      for (const release of RELEASES[b])
        for (const c of release.controls) if (deciding.has(c.id) || EXAMINERS[`${b}:${c.id}`]) want.add(`${b}:${c.id}`);
    }
    const have = rows.map((r) => `${r.benchmark}:${r.control}`);
    expect(new Set(have).size).toBe(have.length);
    expect([...want].filter((k) => !have.includes(k))).toEqual([]);
    expect(have.filter((k) => !want.has(k))).toEqual([]);
  });

  it('judges the older releases as the newest', async () => {
    // The fail variant of every row under --benchmark-version of the older release: same status.
    for (const b of BENCHMARKS) {
      const older = RELEASES[b][1]!.version;
      for (const row of rows.filter((r) => r.benchmark === b).slice(0, 5)) {
        const v = { ...row.fail, args: [...(row.fail.args ?? []), '--benchmark-version', older] };
        const e = (await auditOf(v, b)).find((c) => c.control === row.control)!;
        expect(e.status, `${b} ${older} ${row.control}`).toBe(row.failStatus ?? 'fail');
      }
    }
  }, 300_000);
});

void me;
