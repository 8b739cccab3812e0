/**
 * A host-manager change Tomcat would partly refuse (issue 32, item 3): a host added whose appBase holds
 * an application with a fatal init-param. As Tomcat's HostManagerServlet, the host is added (OK) and
 * the application is not started; the running configuration is kept (the other contexts of the new
 * host and every existing host go on serving) and one SEVERE line names the reason with
 * file:line:column.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogSink, type LogRecord } from '../../src/runtime/logging.js';
import { startContainer, type Container } from '../../src/server/container.js';
import { makeBase, serverXml } from './harness.js';
import { ask } from './http.js';

const AUTH = 'admin:s3cret';
let base: string;
let c: Container;
const records: LogRecord[] = [];

beforeAll(async () => {
  base = makeBase(serverXml());
  c = await startContainer({ base, port: 0, address: '127.0.0.1' });
  setLogSink((r) => records.push(r));
});
afterAll(async () => {
  setLogSink(null);
  await c.stop();
  rmSync(base, { recursive: true, force: true });
});

describe('host manager add with an application Tomcat refuses', () => {
  it('adds the host, keeps everything running, and logs SEVERE with file:line:column', async () => {
    const apps = join(base, 'shopapps');
    mkdirSync(join(apps, 'ROOT'), { recursive: true });
    writeFileSync(join(apps, 'ROOT', 'index.html'), 'shop root\n');
    const webXml = join(apps, 'broken', 'WEB-INF', 'web.xml');
    mkdirSync(join(apps, 'broken', 'WEB-INF'), { recursive: true });
    writeFileSync(join(apps, 'broken', 'index.html'), 'broken app\n');
    writeFileSync(
      webXml,
      `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>headers</filter-name>
    <filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class>
    <init-param><param-name>antiClickJackingOption</param-name><param-value>BOGUS</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>headers</filter-name><url-pattern>/*</url-pattern></filter-mapping>
</web-app>
`,
    );
    const add = await ask(c.port, '/host-manager/text/add?name=shop.localhost&appBase=shopapps', {
      auth: AUTH,
      headers: { Host: 'localhost' },
    });
    expect(add.status).toBe(200);
    expect(add.text).toMatch(/^OK - /m);

    const severe = records.filter((r) => r.level === 'SEVERE');
    expect(severe.map((r) => r.message)).toHaveLength(1);
    const line = severe[0]!.message;
    expect(line).toMatch(/^host manager: context \[shop\.localhost\/broken\] of the added host does not start: /);
    // The place of the fatal value: web.xml line 6, the column of its <param-value>.
    expect(line).toMatch(new RegExp(`${webXml.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:6:\\d+: `));
    expect(line).toContain('BOGUS');

    // What ran before runs on; the new host's good context serves; the refused one is not mapped (ROOT answers).
    expect((await ask(c.port, '/index.html', { headers: { Host: 'localhost' } })).text).toBe('localhost root\n');
    expect((await ask(c.port, '/index.html', { headers: { Host: 'shop.localhost' } })).text).toBe('shop root\n');
    const broken = await ask(c.port, '/broken/index.html', { headers: { Host: 'shop.localhost' } });
    expect(broken.status).toBe(404);
    expect(broken.headers['x-frame-options']).toBeUndefined();
  });
});
