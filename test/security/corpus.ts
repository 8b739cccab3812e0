/**
 * A hostile repository, built at run time in a temp dir (issue 33): what a stranger's pull request can
 * commit to make tollgate read outside the base, block, exhaust memory, or rewrite what its outputs show.
 * test/security/hostile-repo.test.ts runs every command over it; test/fuzz runs its layouts' files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
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
  return { root, base, bigBase: join(root, 'big'), fileCanary, envCanary };
}
