/**
 * The base of the fleet test (test/server/fleet.test.ts) and of its Tomcat recording
 * (scripts/record-fleet-access-log.ts): the same files, the same requests, so the access log lines
 * tollgate writes behind HAProxy can be held to the lines Tomcat 10.1 wrote for them
 * (test/server/fixtures/tomcat-10.1.60-fleet-access-log.json).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Tomcat's own conf/web.xml (Debian's tomcat10, byte for byte): the default servlet and the MIME table. */
const STOCK_WEB_XML = join(import.meta.dirname, '..', 'conformance', 'fixtures', 'access-log', 'conf', 'web.xml');

/** The Host's access log, and the file its lines are in: `<prefix>.<yyyy-MM-dd><suffix>`. */
export const ACCESS_LOG_PREFIX = 'fleet_access_log';

export const FLEET_SERVER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- The fleet test's server (test/server/fleet-base.ts). The Connector's port is given on the command line. -->
<Server port="-1" shutdown="SHUTDOWN">
  <Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListener"/>
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase"
              factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml" />
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1" connectionTimeout="20000"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      <Valve className="org.apache.catalina.valves.HealthCheckValve"/>
      <Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false">
        <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" buffered="false"
               prefix="${ACCESS_LOG_PREFIX}" suffix=".txt" pattern="combined" />
      </Host>
    </Engine>
  </Service>
</Server>
`;

export const FLEET_USERS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <user username="admin" password="s3cret" roles="admin-script"/>
</tomcat-users>
`;

/** The application `app`: one filter-free descriptor (the reload step breaks it), a text file. */
export const APP_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <display-name>fleet app</display-name>
  <welcome-file-list><welcome-file>a.txt</welcome-file></welcome-file-list>
</web-app>
`;

/** Writes the base into `dir` (made if missing). */
export function writeFleetBase(dir: string): void {
  mkdirSync(join(dir, 'conf'), { recursive: true });
  writeFileSync(join(dir, 'conf', 'server.xml'), FLEET_SERVER_XML);
  writeFileSync(join(dir, 'conf', 'tomcat-users.xml'), FLEET_USERS_XML);
  copyFileSync(STOCK_WEB_XML, join(dir, 'conf', 'web.xml'));
  mkdirSync(join(dir, 'webapps', 'ROOT'), { recursive: true });
  writeFileSync(join(dir, 'webapps', 'ROOT', 'index.html'), '<!doctype html><title>fleet</title><p>root</p>\n');
  mkdirSync(join(dir, 'webapps', 'app', 'WEB-INF'), { recursive: true });
  writeFileSync(join(dir, 'webapps', 'app', 'a.txt'), 'twelve bytes');
  writeFileSync(join(dir, 'webapps', 'app', 'WEB-INF', 'web.xml'), APP_WEB_XML);
}

export interface FleetRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The requests whose lines are compared. Each carries its own User-Agent (`fleet-probe/<index>`), so a
 * line in either instance's log names the request it is for.
 */
const REQUESTS: FleetRequest[] = [
  { method: 'GET', path: '/index.html', headers: {} },
  { method: 'GET', path: '/app/a.txt?x=1&y', headers: { referer: 'http://ref.example/from?a=1' } },
  { method: 'HEAD', path: '/app/a.txt', headers: {} },
  {
    method: 'POST',
    path: '/app/a.txt',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1',
  },
  { method: 'GET', path: '/app', headers: {} },
  { method: 'GET', path: '/app/', headers: {} },
  { method: 'GET', path: '/app/missing.html', headers: {} },
  { method: 'GET', path: '/app/WEB-INF/web.xml', headers: { referer: 'say "hi"' } },
  { method: 'OPTIONS', path: '/app/a.txt', headers: {} },
];
export const FLEET_REQUESTS: FleetRequest[] = REQUESTS.map((r, i) => ({
  ...r,
  headers: { ...r.headers, 'user-agent': `fleet-probe/${i}` },
}));

/** The index of the request a line is for (its User-Agent), or -1. */
export function requestOf(line: string): number {
  const m = /"fleet-probe\/(\d+)"$/.exec(line);
  return m ? Number(m[1]) : -1;
}

/**
 * A combined-format line with its time replaced, and for an error answer (status 400 or more) the byte
 * count too: the error report names the server in its footer, so Tomcat's body and tollgate's differ in
 * length (the test checks tollgate's count against the body the client received instead).
 */
export function normaliseLine(line: string): string {
  const timed = line.replace(/\[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]/, '[TIME]');
  return timed.replace(/" ([45]\d\d) (\d+|-) "/, '" $1 BYTES "');
}

/** The byte count (%b) of a combined line: a number, or 0 for `-`. */
export function bytesOf(line: string): number {
  const m = /" \d{3} (\d+|-) "/.exec(line);
  return m === null || m[1] === '-' ? 0 : Number(m[1]);
}
