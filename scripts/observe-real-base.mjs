#!/usr/bin/env node
/**
 * The real-base fixture of issue 17: Debian's stock conf/ plus generated
 * applications with a mix of fatal and non-fatal mistakes, and what real
 * Tomcat 10.1 does with each.
 *
 *   node scripts/observe-real-base.mjs
 *
 * 1. Writes test/fixtures/real-base/base: conf/server.xml, web.xml, context.xml
 *    and tomcat-users.xml copied from Debian's tomcat10 package
 *    (/usr/share/tomcat10/etc), conf/web.xml with a global
 *    HttpHeaderSecurityFilter and, after it, a global RemoteIpFilter appended
 *    (a lint finding that stops nothing), and the applications of APPS below.
 * 2. Boots Tomcat (CATALINA_HOME, default /usr/share/tomcat10) on a copy whose
 *    only Connector listens on a free 127.0.0.1 port, asks every context for
 *    /<context>/index.html, and reads from the log which contexts failed.
 * 3. Writes test/fixtures/real-base/observed.json, which
 *    test/plan/real-base.test.ts holds plan, compile and serve to (no Tomcat
 *    needed there). Tomcat is always stopped, also on errors and Ctrl-C.
 * Test tooling only: nothing here ships.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { CATALINA_HOME, freePort, startTomcat, tempDir, tomcatVersion } from './tomcat-process.mjs';

const repo = join(import.meta.dirname, '..');
const fixture = join(repo, 'test', 'fixtures', 'real-base');
const STOCK_CONF = process.env.TOMCAT_STOCK_CONF ?? join(CATALINA_HOME, 'etc');
const STARTUP_TIMEOUT_MS = 180_000;

// ------------------------------------------------------------------ the applications

const F = 'org.apache.catalina.filters.';
const webApp = (body) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const param = (k, v) => `    <init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`;
/** A <filter> of Tomcat's package with init-params, mapped to /* unless `mapped` is false. */
const filter = (name, cls, params = {}, { mapped = true, dispatchers = [] } = {}) =>
  `  <filter>\n    <filter-name>${name}</filter-name>\n    <filter-class>${cls.includes('.') ? cls : F + cls}</filter-class>\n` +
  Object.entries(params)
    .map(([k, v]) => param(k, v) + '\n')
    .join('') +
  '  </filter>' +
  (mapped
    ? `\n  <filter-mapping><filter-name>${name}</filter-name><url-pattern>/*</url-pattern>${dispatchers.map((d) => `<dispatcher>${d}</dispatcher>`).join('')}</filter-mapping>`
    : '');
const only = (body) => ({ 'WEB-INF/web.xml': webApp(body) });

/**
 * Each application: its files besides index.html, and what the mistake is. `fallback` puts a page
 * for /<name>/index.html into ROOT, to see where Tomcat sends the requests of a context it did not start.
 */
const APPS = {
  // Plain applications: no descriptor, an empty one, a Servlet 2.5 one, welcome files, MIME types.
  ROOT: {},
  'plain-no-descriptor': {},
  'plain-empty-webxml': only(''),
  'plain-servlet25': {
    'WEB-INF/web.xml':
      '<?xml version="1.0"?>\n<web-app xmlns="http://java.sun.com/xml/ns/javaee" version="2.5"><display-name>old</display-name></web-app>\n',
  },
  'plain-welcome': only(
    '<welcome-file-list><welcome-file>home.html</welcome-file><welcome-file>index.html</welcome-file></welcome-file-list>',
  ),
  'plain-mime': only('<mime-mapping><extension>tg</extension><mime-type>text/x-tollgate</mime-type></mime-mapping>'),
  'plain-session': only('<session-config><session-timeout>5</session-timeout></session-config>'),
  'plain-error-page': only('<error-page><error-code>404</error-code><location>/index.html</location></error-page>'),
  'plain-context-xml': {
    'META-INF/context.xml': '<?xml version="1.0" encoding="UTF-8"?>\n<Context reloadable="false"/>\n',
  },
  'plain-tomcat-web-xml': {
    'WEB-INF/tomcat-web.xml': webApp('<session-config><session-timeout>7</session-timeout></session-config>'),
  },
  'nested#path': {},
  'versioned##2': {},
  // Clean filters.
  'clean-cors': only(
    filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.support.credentials': 'true' }),
  ),
  'clean-expires': only(
    filter('expires', 'ExpiresFilter', {
      'ExpiresByType text/html': 'access plus 1 hour',
      ExpiresDefault: 'access plus 1 day',
    }),
  ),
  'clean-headers': only(
    filter('headers', 'HttpHeaderSecurityFilter', {
      hstsMaxAgeSeconds: '31536000',
      antiClickJackingOption: 'SAMEORIGIN',
    }),
  ),
  'clean-setenc': only(filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' })),
  'clean-adc': only(filter('adc', 'AddDefaultCharsetFilter', { encoding: 'UTF-8' })),
  'clean-remote-addr': only(filter('addr', 'RemoteAddrFilter', { allow: '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1' })),
  'clean-remote-cidr': only(filter('cidr', 'RemoteCIDRFilter', { allow: '127.0.0.0/8, ::1/128' })),
  'clean-remote-ip': only(
    filter('ip', 'RemoteIpFilter', { internalProxies: '10\\.0\\.0\\.1', protocolHeader: 'X-Forwarded-Proto' }),
  ),
  'clean-rate-limit': only(filter('rate', 'RateLimitFilter', { bucketRequests: '1000', bucketDuration: '60' })),
  'clean-failed-request': only(filter('failed', 'FailedRequestFilter')),
  'clean-session-init': only(filter('init', 'SessionInitializerFilter')),
  'clean-webdav': only(filter('webdav', 'WebdavFixFilter')),
  'clean-two-filters': only(
    filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }) +
      '\n' +
      filter('headers', 'HttpHeaderSecurityFilter', { hstsEnabled: 'false' }),
  ),
  'clean-unmapped-filter': only(
    filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' }, { mapped: false }),
  ),
  'clean-servlet-mapping': only(
    '<servlet-mapping><servlet-name>default</servlet-name><url-pattern>/static/*</url-pattern></servlet-mapping>',
  ),
  'clean-redefines-global': only(
    filter('globalHeaders', 'HttpHeaderSecurityFilter', { antiClickJackingOption: 'DENY' }, { mapped: false }),
  ),
  // Mistakes Tomcat starts with: lint findings of every severity, none of which stops a context.
  'warn-cors-any-origin': only(filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*' })),
  'warn-cors-unknown-param': only(
    filter('cors', 'CorsFilter', {
      'cors.allowed.origins': 'https://a.example',
      'cors.allowed.origin': 'https://b.example',
    }),
  ),
  'warn-cors-no-origins': only(filter('cors', 'CorsFilter', { 'cors.preflight.maxage': '600' })),
  'warn-cors-headers-star': only(
    filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.allowed.headers': '*' }),
  ),
  'warn-expires-unknown-param': only(
    filter('expires', 'ExpiresFilter', { ExpiresDefault: 'access plus 1 day', ExpiresDefualt: 'access plus 2 days' }),
  ),
  'warn-setenc-unknown-charset': only(filter('enc', 'SetCharacterEncodingFilter', { encoding: 'NO-SUCH-CHARSET' })),
  'warn-setenc-boolean-yes': only(filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'yes' })),
  'warn-hsts-max-age-negative': only(filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '-1' })),
  'warn-hsts-disabled': only(
    filter('headers', 'HttpHeaderSecurityFilter', { hstsEnabled: 'false', blockContentTypeSniffingEnabled: 'no' }),
  ),
  'warn-addr-ipv6-form': only(filter('addr', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|::1' })),
  'warn-cidr-no-prefix': only(filter('cidr', 'RemoteCIDRFilter', { allow: '127.0.0.1, ::1' })),
  'warn-remote-ip-unknown-param': only(filter('ip', 'RemoteIpFilter', { remoteIpProxiesHeader: 'X-Forwarded-By' })),
  'warn-remote-ip-after-addr': only(
    filter('addr', 'RemoteAddrFilter', { allow: '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1' }) +
      '\n' +
      filter('ip', 'RemoteIpFilter'),
  ),
  'warn-unknown-dispatcher': only(
    filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }, { dispatchers: ['REQUEST', 'EVERYTHING'] }),
  ),
  'warn-param-twice': only(
    filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }).replace(
      '</filter>',
      param('encoding', 'ISO-8859-1') + '\n  </filter>',
    ),
  ),
  'warn-filter-never-mapped': only(
    filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }, { mapped: false }),
  ),
  'warn-request-dumper': only(filter('dump', 'RequestDumperFilter')),
  'warn-unusual-pattern': only(
    '<servlet-mapping><servlet-name>default</servlet-name><url-pattern>/files*</url-pattern></servlet-mapping>',
  ),
  'warn-mime-case': only('<mime-mapping><extension>HTML</extension><mime-type>text/plain</mime-type></mime-mapping>'),
  'warn-ratelimit-expose-yes': only(filter('rate', 'RateLimitFilter', { exposeHeaders: 'yes' })),
  'warn-csrf-cache-small': only(filter('csrf', 'RestCsrfPreventionFilter', { pathsAcceptingParams: '/x' })),
  'warn-adc-system': only(filter('adc', 'AddDefaultCharsetFilter', { encoding: 'system' })),
  'warn-webxml-version-31': {
    'WEB-INF/web.xml':
      '<?xml version="1.0"?>\n<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="3.1"></web-app>\n',
  },
  'warn-async-maybe': only(
    filter('enc', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }).replace(
      '</filter-class>',
      '</filter-class>\n    <async-supported>maybe</async-supported>',
    ),
  ),
  'warn-cors-credentials-yes': only(
    filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example', 'cors.support.credentials': 'yes' }),
  ),
  'warn-expires-excluded-empty': only(
    filter('expires', 'ExpiresFilter', { ExpiresDefault: 'access plus 1 day', ExpiresExcludedResponseStatusCodes: '' }),
  ),
  // Mistakes Tomcat refuses the context for.
  'fatal-webxml-malformed': {
    'WEB-INF/web.xml': webApp('  <filter>\n    <filter-name>x</filter-name>\n  </filtr>'),
    fallback: true,
  },
  'fatal-context-xml-malformed': {
    'META-INF/context.xml':
      '<?xml version="1.0" encoding="UTF-8"?>\n<Context>\n  <Valve className="org.apache.catalina.valves.RemoteAddrValve" allow="127\\.0\\.0\\.1"\n</Context>\n',
    fallback: true,
  },
  'fatal-tomcat-web-xml-malformed': { 'WEB-INF/tomcat-web.xml': webApp('<!-- two -- dashes -->') },
  'fatal-hsts-not-a-number': only(filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' })),
  'fatal-cors-credentials-any-origin': {
    ...only(filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' })),
    fallback: true,
  },
  'fatal-duplicate-filter-name': only(
    filter('x', 'SetCharacterEncodingFilter', { encoding: 'UTF-8' }, { mapped: false }) +
      '\n' +
      filter('x', 'SessionInitializerFilter'),
  ),
  'fatal-mapping-undefined-filter': only(
    '<filter-mapping><filter-name>nope</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
  ),
  'fatal-bad-url-pattern': only(
    filter('init', 'SessionInitializerFilter', {}, { mapped: false }) +
      '\n<filter-mapping><filter-name>init</filter-name><url-pattern>api/*</url-pattern></filter-mapping>',
  ),
  'fatal-pattern-mapped-twice': only(
    '<servlet-mapping><servlet-name>default</servlet-name><url-pattern>/x</url-pattern></servlet-mapping><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/x</url-pattern></servlet-mapping>',
  ),
  'fatal-unknown-filter-class': only(filter('cors', 'CorsFiltre', { 'cors.allowed.origins': 'https://a.example' })),
  'fatal-addr-unknown-param': only(
    filter('addr', 'RemoteAddrFilter', { allow: '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1', allwo: 'x' }),
  ),
  'fatal-expires-bad-rule': only(filter('expires', 'ExpiresFilter', { ExpiresDefault: 'access plus one day' })),
  'fatal-unmapped-bad-filter': {
    ...only(filter('headers', 'HttpHeaderSecurityFilter', { antiClickJackingOption: 'NEVER' }, { mapped: false })),
    fallback: true,
  },
  'fatal-servlet-undefined': only(
    '<servlet-mapping><servlet-name>ghost</servlet-name><url-pattern>/ghost</url-pattern></servlet-mapping>',
  ),
  'fatal-filter-without-class': only(
    '<filter><filter-name>x</filter-name></filter><filter-mapping><filter-name>x</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
  ),
};

/** The global filters appended to Debian's conf/web.xml: RemoteIpFilter after a filter that reads the scheme. */
const GLOBAL_FILTERS =
  '\n  <!-- Added by scripts/observe-real-base.mjs: RemoteIpFilter mapped after HttpHeaderSecurityFilter. -->\n' +
  filter('globalHeaders', 'HttpHeaderSecurityFilter', { hstsEnabled: 'false' }) +
  '\n' +
  filter('globalRemoteIp', 'RemoteIpFilter') +
  '\n\n';

function generate() {
  const base = join(fixture, 'base');
  rmSync(base, { recursive: true, force: true });
  mkdirSync(join(base, 'conf'), { recursive: true });
  for (const f of ['server.xml', 'context.xml', 'tomcat-users.xml']) cpSync(join(STOCK_CONF, f), join(base, 'conf', f));
  const web = readFileSync(join(STOCK_CONF, 'web.xml'), 'utf8');
  const at = web.lastIndexOf('</web-app>');
  writeFileSync(join(base, 'conf', 'web.xml'), web.slice(0, at) + GLOBAL_FILTERS + web.slice(at));
  for (const [name, spec] of Object.entries(APPS)) {
    const dir = join(base, 'webapps', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), `<p>${name}</p>\n`);
    for (const [file, text] of Object.entries(spec)) {
      if (file === 'fallback') {
        mkdirSync(join(base, 'webapps', 'ROOT', name), { recursive: true });
        writeFileSync(join(base, 'webapps', 'ROOT', name, 'index.html'), `<p>ROOT/${name}</p>\n`);
        continue;
      }
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  }
  return base;
}

// ------------------------------------------------------------------ running Tomcat

/** A copy of the base Tomcat can run: the only active Connector on 127.0.0.1:port, no shutdown port. */
async function runnableCopy(base) {
  const copy = tempDir('tollgate-real-base-');
  cpSync(base, copy, { recursive: true });
  for (const d of ['lib', 'logs', 'temp', 'work']) mkdirSync(join(copy, d), { recursive: true });
  const port = await freePort();
  const file = join(copy, 'conf', 'server.xml');
  let xml = readFileSync(file, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const connectors = xml.match(/<Connector\b[^>]*>/g) ?? [];
  if (connectors.length !== 1)
    throw new Error(`expected one active Connector in Debian's server.xml, found ${connectors.length}`);
  xml = xml.replace(/<Server\b([^>]*?)\bport="[^"]*"/, '<Server$1port="-1"');
  xml = xml.replace(connectors[0], connectors[0].replace(/\bport="\d+"/, `port="${port}" address="127.0.0.1"`));
  writeFileSync(file, xml);
  writeFileSync(
    join(copy, 'conf', 'catalina.properties'),
    'common.loader="${catalina.base}/lib","${catalina.base}/lib/*.jar","${catalina.home}/lib","${catalina.home}/lib/*.jar"\ntomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar\n',
  );
  writeFileSync(
    join(copy, 'conf', 'logging.properties'),
    'handlers = java.util.logging.ConsoleHandler\n.level = INFO\njava.util.logging.ConsoleHandler.level = ALL\n',
  );
  return { copy, port };
}

function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: 'localhost' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The context path of an application directory name, as Tomcat's ContextName reads it. */
function contextPath(name) {
  const base = name.split('##')[0];
  return base === 'ROOT' ? '' : '/' + base.replace(/#/g, '/');
}

async function main() {
  const base = generate();
  const { copy, port } = await runnableCopy(base);
  const tomcat = await startTomcat(copy, { timeoutMs: STARTUP_TIMEOUT_MS });
  const contexts = [];
  try {
    for (const name of Object.keys(APPS).sort()) {
      const path = contextPath(name);
      const r = await get(port, `${path}/index.html`);
      const marker = /<p>([^<]*)<\/p>/.exec(r.body)?.[1] ?? null;
      contexts.push({ app: name, context: path || '/', status: r.status, servedBy: r.status === 200 ? marker : null });
    }
  } finally {
    await tomcat.stop();
  }
  const log = tomcat.log();
  for (const c of contexts) {
    const p = c.context === '/' ? '' : c.context;
    // A context whose start fails logs the first; a context file Tomcat cannot parse, the second.
    const failed =
      log.includes(`Context [${p}] startup failed due to previous errors`) ||
      new RegExp(
        `Error deploying (?:configuration descriptor|web application directory) \\[[^\\]]*[\\\\/]${c.app.replace(/[#.]/g, '\\$&')}`,
      ).test(log);
    c.started = !failed;
    if (failed && c.servedBy === c.app)
      throw new Error(`inconsistent observation for ${c.app}: failure logged, but it answered with its own page`);
  }
  const lines = log
    .split('\n')
    .filter((l) => /SEVERE|startup failed|Error deploying|Parse error|Exception:/.test(l))
    .map((l) => l.replace(copy, '$CATALINA_BASE').trim());
  const observed = {
    tomcat: tomcatVersion(),
    how: "scripts/observe-real-base.mjs: Debian's stock conf (server.xml, web.xml with a global HttpHeaderSecurityFilter and RemoteIpFilter appended, context.xml, tomcat-users.xml) and the applications it generates; catalina.sh run on a copy listening on 127.0.0.1, then GET /<context>/index.html (Host: localhost). started: no failure logged for the context (a started context may still answer 404, e.g. when it maps the default servlet elsewhere than /); status and servedBy (the <p> marker of the page that answered) are what Tomcat answered.",
    started: contexts.filter((c) => c.started).length,
    refused: contexts.filter((c) => !c.started).length,
    contexts,
    log: [...new Set(lines)].slice(0, 200),
  };
  writeFileSync(join(fixture, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stdout.write(
    `${observed.tomcat}: ${observed.started} contexts started, ${observed.refused} refused; wrote ${join(fixture, 'observed.json')}\n`,
  );
}

if (!existsSync(join(CATALINA_HOME, 'bin', 'catalina.sh'))) {
  process.stderr.write(`no Tomcat at ${CATALINA_HOME} (apt-get install tomcat10)\n`);
  process.exit(2);
}
await main();
