/** Generates a CATALINA_BASE with N webapps, each with a realistic web.xml, for the parse and lint benchmarks. */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const GLOBAL_CANDIDATES = ['/usr/share/tomcat10/conf/web.xml', '/etc/tomcat10/web.xml'];

function appWebXml(i: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
         version="6.0">
  <display-name>Application ${i}</display-name>
  <!-- Cross-origin access for the front end of application ${i}. -->
  <filter>
    <filter-name>CorsFilter</filter-name>
    <filter-class>org.apache.catalina.filters.CorsFilter</filter-class>
    <init-param>
      <param-name>cors.allowed.origins</param-name>
      <param-value>https://app${i}.example.com,https://admin.example.com</param-value>
    </init-param>
    <init-param>
      <param-name>cors.allowed.methods</param-name>
      <param-value>GET,POST,PUT,DELETE,OPTIONS</param-value>
    </init-param>
    <init-param>
      <param-name>cors.support.credentials</param-name>
      <param-value>true</param-value>
    </init-param>
  </filter>
  <filter>
    <filter-name>RemoteIpFilter</filter-name>
    <filter-class>org.apache.catalina.filters.RemoteIpFilter</filter-class>
    <init-param>
      <param-name>internalProxies</param-name>
      <param-value>10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|127\\.0\\.0\\.1</param-value>
    </init-param>
    <init-param>
      <param-name>protocolHeader</param-name>
      <param-value>x-forwarded-proto</param-value>
    </init-param>
  </filter>
  <filter>
    <filter-name>ExpiresFilter</filter-name>
    <filter-class>org.apache.catalina.filters.ExpiresFilter</filter-class>
    <init-param>
      <param-name>ExpiresByType image</param-name>
      <param-value>access plus 10 days</param-value>
    </init-param>
    <init-param>
      <param-name>ExpiresByType text/css</param-name>
      <param-value>access plus 1 month 2 hours</param-value>
    </init-param>
  </filter>
  <filter>
    <filter-name>RestCSRF</filter-name>
    <filter-class>org.apache.catalina.filters.RestCsrfPreventionFilter</filter-class>
  </filter>
  <filter-mapping>
    <filter-name>RemoteIpFilter</filter-name>
    <url-pattern>/*</url-pattern>
  </filter-mapping>
  <filter-mapping>
    <filter-name>CorsFilter</filter-name>
    <url-pattern>/api/*</url-pattern>
  </filter-mapping>
  <filter-mapping>
    <filter-name>ExpiresFilter</filter-name>
    <url-pattern>/static/*</url-pattern>
    <dispatcher>REQUEST</dispatcher>
  </filter-mapping>
  <filter-mapping>
    <filter-name>RestCSRF</filter-name>
    <url-pattern>/api/*</url-pattern>
  </filter-mapping>
  <servlet>
    <servlet-name>api</servlet-name>
    <servlet-class>com.example.Api${i}</servlet-class>
  </servlet>
  <servlet-mapping>
    <servlet-name>api</servlet-name>
    <url-pattern>/api/*</url-pattern>
  </servlet-mapping>
  <session-config>
    <session-timeout>20</session-timeout>
  </session-config>
</web-app>
`;
}

/** Writes the base (once per size) and returns its directory, its descriptor files and their total bytes. */
export function generateBase(root: string, apps: number): { base: string; files: string[]; bytes: number } {
  const base = join(root, `base-${apps}`);
  const files: string[] = [];
  let bytes = 0;
  const globalSrc = GLOBAL_CANDIDATES.find((p) => existsSync(p));
  const global = globalSrc ? readFileSync(globalSrc, 'utf8') : appWebXml(0);
  mkdirSync(join(base, 'conf'), { recursive: true });
  const gPath = join(base, 'conf', 'web.xml');
  writeFileSync(gPath, global);
  files.push(gPath);
  bytes += Buffer.byteLength(global);
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    '<Server port="-1"><Service name="Catalina"><Connector port="8080" address="127.0.0.1"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
  );
  files.push(join(base, 'conf', 'server.xml'));
  for (let i = 0; i < apps; i++) {
    const dir = join(base, 'webapps', `app${i}`, 'WEB-INF');
    mkdirSync(dir, { recursive: true });
    const text = appWebXml(i);
    writeFileSync(join(dir, 'web.xml'), text);
    files.push(join(dir, 'web.xml'));
    bytes += Buffer.byteLength(text);
  }
  return { base, files, bytes };
}

/** `npx tsx bench/generate.ts --sizes 10,100 --out DIR`: writes bases to inspect or lint by hand. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const at = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const out = resolve(at('--out') ?? 'bench/out/bases');
  for (const n of (at('--sizes') ?? '1000').split(',').map(Number)) {
    const { base, files, bytes } = generateBase(out, n);
    console.log(`${base}: ${files.length} files, ${bytes} bytes`);
  }
}
