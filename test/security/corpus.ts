/**
 * A hostile repository, built at run time in a temp dir (issue 33): what a stranger's pull request can
 * commit to make tollgate read outside the base, block, exhaust memory, or rewrite what its outputs show.
 * test/security/hostile-repo.test.ts runs every command over it; test/fuzz runs its layouts' files.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { bombJar } from './zip.js';

export interface HostileRepo {
  /** The temp dir holding both: remove it when done. */
  root: string;
  /** The CATALINA_BASE the commands are pointed at. */
  base: string;
  /** A base of one application whose web.xml is 3 MB on one line with thousands of findings (the report's size). */
  bigBase: string;
  /**
   * A base Tomcat starts (its conf/ all regular files) whose applications hold the links, devices, FIFOs and
   * loops, and context files naming docBases outside the base, /proc and /dev: what `serve` answers over HTTP
   * and what `audit` exports in every format.
   */
  serveBase: string;
  /** A base the audit accepts (every file read) with bidi overrides in every field and a zip bomb for catalina.jar. */
  auditBase: string;
  /** Paths to request from serveBase, each with the status Tomcat 10.1 gives (allowLinking false unless said). */
  requests: { path: string; status: number }[];
  /** Bytes of a file outside the base that no output may contain. */
  fileCanary: string;
  /** The value of an environment variable of the commands that no output may contain (read via /proc/self/environ). */
  envCanary: string;
}

const WEB_APP = '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">';
/** Control characters and bidi overrides that would rewrite a terminal or reorder a page. */
export const HOSTILE_TEXT = '\u001b]0;pwned\u0007\u001b[2J\u202e\u2066evil\u2069\u009b31m';

/** The layouts, each one file or link: every position a link can take, and the shapes that exhaust a reader. */
export function buildHostileRepo(): HostileRepo {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-hostile-'));
  const base = join(root, 'base');
  const outside = join(root, 'outside');
  const fileCanary = `tollgate-file-canary-${randomBytes(8).toString('hex')}`;
  const envCanary = `tollgate-env-canary-${randomBytes(8).toString('hex')}`;
  const file = (rel: string, text: string | Buffer): void => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  };
  const link = (rel: string, target: string): void => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    symlinkSync(target, join(base, rel));
  };
  mkdirSync(join(outside, 'WEB-INF'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${fileCanary}\n<web-app>${fileCanary}</web-app>\n`);
  writeFileSync(
    join(outside, 'WEB-INF', 'web.xml'),
    `${WEB_APP}<display-name>${fileCanary}</display-name></web-app>\n`,
  );

  // server.xml is real, with control characters in its values; every other conf file is a link out.
  file(
    'conf/server.xml',
    `<Server port="-1" shutdown="${HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '')}"><Service name="Catalina"><Connector port="8080" protocol="${HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '')}"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n`,
  );
  link('conf/tomcat-users.xml', join(outside, 'secret.txt'));
  link('conf/catalina.properties', '/proc/self/environ');
  link('conf/logging.properties', join(outside, 'secret.txt'));
  link('conf/web.xml', '/dev/zero');
  link('conf/context.xml', 'context.xml'); // a link to itself
  link('conf/Catalina/localhost/env.xml', '/proc/self/environ');
  link('conf/Catalina/localhost/secret.xml', join(outside, 'secret.txt'));
  link('conf/Catalina/localhost/zero.xml', '/dev/zero');
  link('conf/Catalina/localhost/urandom.xml', '/dev/urandom');
  link('conf/Catalina/localhost/loop-a.xml', 'loop-b.xml');
  link('conf/Catalina/localhost/loop-b.xml', 'loop-a.xml');
  mkdirSync(join(base, 'conf', 'Catalina', 'localhost'), { recursive: true });
  execFileSync('mkfifo', [join(base, 'conf', 'Catalina', 'localhost', 'fifo.xml')]);
  // A context file naming a docBase outside the base by value, not by link.
  file('conf/Catalina/localhost/byvalue.xml', `<Context docBase="${outside}"/>\n`);

  // catalina.jar: a zip bomb (the lint --profile cis, audit and report --benchmark read it).
  file('lib/catalina.jar', bombJar('lies'));

  // Applications: links in every position (the app folder, WEB-INF, the descriptor), and hostile shapes.
  link('webapps/linked', outside);
  link('webapps/devdir', '/dev');
  link('webapps/procdir', '/proc/self');
  mkdirSync(join(base, 'webapps', 'webinf'), { recursive: true });
  link('webapps/webinf/WEB-INF', join(outside, 'WEB-INF'));
  link('webapps/envapp/WEB-INF/web.xml', '/proc/self/environ');
  link('webapps/zeroapp/WEB-INF/web.xml', '/dev/zero');
  link('webapps/ROOT/index.html', join(outside, 'secret.txt'));
  file('webapps/ROOT/WEB-INF/web.xml', `${WEB_APP}</web-app>\n`);
  mkdirSync(join(base, 'webapps', 'fifoapp', 'WEB-INF'), { recursive: true });
  execFileSync('mkfifo', [join(base, 'webapps', 'fifoapp', 'WEB-INF', 'web.xml')]);
  file('webapps/packed.war', bombJar('claims'));
  // Control characters in every field: names, classes, parameters, patterns, comments, raw in the text.
  file(
    'webapps/controls/WEB-INF/web.xml',
    `${WEB_APP}<!-- ${HOSTILE_TEXT} --><display-name>${HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '')}</display-name>` +
      `<filter><filter-name>f\u202e1</filter-name><filter-class>org.apache.catalina.filters.CorsFilter\u2066</filter-class>` +
      `<init-param><param-name>cors.allowed.origins\u202e</param-name><param-value>*\u009b</param-value></init-param></filter>` +
      `<filter-mapping><filter-name>f\u202e1</filter-name><url-pattern>/\u202e*</url-pattern></filter-mapping>` +
      `<context-param><param-name>raw</param-name><param-value>${HOSTILE_TEXT}</param-value></context-param></web-app>\n`,
  );
  // A 3 MB web.xml on one line with many findings (each a CorsFilter with credentials and any origin).
  const one =
    '<filter><filter-name>c%</filter-name><filter-class>org.apache.catalina.filters.CorsFilter</filter-class><init-param><param-name>cors.support.credentials</param-name><param-value>true</param-value></init-param></filter><filter-mapping><filter-name>c%</filter-name><url-pattern>/*</url-pattern></filter-mapping>';
  const many: string[] = [];
  for (let i = 0, size = 0; size < 3 * 1024 * 1024; i++) {
    const s = one.replace(/%/g, String(i));
    many.push(s);
    size += s.length;
  }
  mkdirSync(join(root, 'big', 'webapps', 'oneline', 'WEB-INF'), { recursive: true });
  writeFileSync(join(root, 'big', 'webapps', 'oneline', 'WEB-INF', 'web.xml'), `${WEB_APP}${many.join('')}</web-app>`);
  // Deep: 100,000 levels of nesting.
  file('webapps/deep/WEB-INF/web.xml', `${WEB_APP}${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</web-app>\n`);
  // Huge: just over the 8 MiB cap.
  file('webapps/huge/WEB-INF/web.xml', `${WEB_APP}<!--${'x'.repeat(8 * 1024 * 1024)}--></web-app>\n`);
  const { serveBase, requests } = buildServeBase(root, outside, fileCanary);
  const auditBase = join(root, 'audit');
  for (const rel of ['conf/server.xml', 'conf/tomcat-users.xml', 'lib/catalina.jar']) {
    mkdirSync(dirname(join(auditBase, rel)), { recursive: true });
    copyFileSync(join(serveBase, rel), join(auditBase, rel));
  }
  const bidi = HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '');
  mkdirSync(join(auditBase, 'webapps', `app${bidi}`, 'WEB-INF'), { recursive: true });
  writeFileSync(
    join(auditBase, 'webapps', `app${bidi}`, 'WEB-INF', 'web.xml'),
    `${WEB_APP}<display-name>${bidi}</display-name><filter><filter-name>f${bidi}</filter-name><filter-class>org.apache.catalina.filters.CorsFilter${bidi}</filter-class></filter>` +
      `<security-constraint><web-resource-collection><web-resource-name>${bidi}</web-resource-name><url-pattern>/${bidi}</url-pattern></web-resource-collection></security-constraint></web-app>\n`,
  );
  return { root, base, bigBase: join(root, 'big'), serveBase, auditBase, requests, fileCanary, envCanary };
}

/** The size of the sparse regular file served whole (streamed: the server's memory must not grow with it). */
export const HUGE_STATIC_BYTES = 64 * 1024 * 1024;

function buildServeBase(
  root: string,
  outside: string,
  fileCanary: string,
): Pick<HostileRepo, 'serveBase' | 'requests'> {
  const base = join(root, 'serve');
  const file = (rel: string, text: string | Buffer): void => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  };
  const link = (rel: string, target: string): void => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    symlinkSync(target, join(base, rel));
  };
  const bidi = HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '');
  file(
    'conf/server.xml',
    `<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1" server="${bidi}"/>` +
      `<Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps">` +
      `<Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>` +
      `</Host></Engine></Service></Server>\n`,
  );
  file(
    'conf/tomcat-users.xml',
    `<tomcat-users><user username="${bidi}" password="${bidi}" roles="manager-gui"/></tomcat-users>\n`,
  );
  file('lib/catalina.jar', bombJar('ratio'));
  // Outside the base, a docBase without a descriptor (so nothing about it is refused at start-up).
  mkdirSync(join(outside, 'plain'), { recursive: true });
  writeFileSync(join(outside, 'plain', 'index.html'), `${fileCanary}\n`);
  mkfifo(join(outside, 'plain', 'fifo.html'));

  const requests: { path: string; status: number }[] = [];
  const expect = (path: string, status: number): void => void requests.push({ path, status });
  /** Every hostile link and special file in one application folder; `linking`: it sets allowLinking="true". */
  const hostileApp = (app: string, linking: boolean): void => {
    const at = app === 'ROOT' ? '' : `/${app}`;
    file(`webapps/${app}/index.html`, 'inside\n');
    file(`webapps/${app}/WEB-INF/web.xml`, `${WEB_APP}<display-name>${bidi}</display-name></web-app>\n`);
    file(`webapps/${app}/${'\u001b[2J\u202e'}.html`, 'a name with controls\n');
    if (linking) file(`webapps/${app}/META-INF/context.xml`, '<Context><Resources allowLinking="true"/></Context>\n');
    link(`webapps/${app}/env.txt`, '/proc/self/environ');
    link(`webapps/${app}/procself`, '/proc/self');
    link(`webapps/${app}/secret.txt`, join(outside, 'secret.txt'));
    link(`webapps/${app}/out`, outside);
    link(`webapps/${app}/zero.txt`, '/dev/zero');
    link(`webapps/${app}/urandom.txt`, '/dev/urandom');
    link(`webapps/${app}/loop-a`, 'loop-b');
    link(`webapps/${app}/loop-b`, 'loop-a');
    link(`webapps/${app}/inside.html`, 'index.html');
    link(`webapps/${app}/self`, '.');
    mkfifo(join(base, 'webapps', app, 'fifo.html'));
    expect(`${at}/index.html`, 200);
    expect(`${at}/%1b%5b2J%e2%80%ae.html`, 200);
    for (const p of ['/env.txt', '/procself/environ', '/procself/status', '/secret.txt', '/out/secret.txt'])
      expect(`${at}${p}`, 404);
    for (const p of ['/zero.txt', '/urandom.txt', '/fifo.html', '/loop-a', '/out/WEB-INF/web.xml'])
      expect(`${at}${p}`, 404);
    // Links that stay inside the application: Tomcat serves them only with allowLinking.
    expect(`${at}/inside.html`, linking ? 200 : 404);
    expect(`${at}/self/index.html`, linking ? 200 : 404);
    // Out of the application by the path itself: Tomcat's normalisation refuses it.
    expect(`${at}/..%2f..%2f..%2foutside/secret.txt`, 400);
    expect(`${at}/WEB-INF/web.xml`, 404);
  };
  hostileApp('ROOT', false);
  hostileApp('linking', true);
  writeFileSync(join(base, 'webapps', 'ROOT', 'huge.bin'), '');
  truncateSync(join(base, 'webapps', 'ROOT', 'huge.bin'), HUGE_STATIC_BYTES);
  expect('/huge.bin', 200);
  // The application folder itself a link out, and WEB-INF a link out.
  link('webapps/linked', outside);
  mkdirSync(join(base, 'webapps', 'webinf'), { recursive: true });
  link('webapps/webinf/WEB-INF', join(outside, 'WEB-INF'));
  file('webapps/webinf/index.html', 'inside\n');
  expect('/linked/secret.txt', 404);
  expect('/webinf/index.html', 404);
  // Context files naming a docBase outside the base, in /proc and in /dev, by value.
  file('conf/Catalina/localhost/byvalue.xml', `<Context docBase="${outside}"/>\n`);
  file('conf/Catalina/localhost/plain.xml', `<Context docBase="${join(outside, 'plain')}"/>\n`);
  file('conf/Catalina/localhost/procapp.xml', '<Context docBase="/proc/self"/>\n');
  file('conf/Catalina/localhost/devapp.xml', '<Context docBase="/dev"/>\n');
  expect('/byvalue/secret.txt', 404);
  expect('/plain/index.html', 404);
  expect('/plain/fifo.html', 404);
  expect('/procapp/environ', 404);
  expect('/procapp/status', 404);
  expect('/devapp/zero', 404);
  expect('/devapp/null', 404);
  return { serveBase: base, requests };
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}
