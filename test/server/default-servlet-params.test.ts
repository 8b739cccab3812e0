/**
 * DefaultServlet init-params tollgate does not take over (docs/divergences.md,
 * "DefaultServlet init-params"): an application that sets them in its
 * web.xml gets the stock behaviour. Each assertion is the divergence's test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainer, type Container } from '../../src/server/container.js';

const SERVER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1"/>
<Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>`;
const param = (n: string, v: string) =>
  `<init-param><param-name>${n}</param-name><param-value>${v}</param-value></init-param>`;
const WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class>
    ${param('listings', 'true')}${param('readonly', 'false')}${param('useAcceptRanges', 'false')}${param('allowPostAsGet', 'false')}${param('sortListings', 'true')}${param('showServerInfo', 'false')}${param('fileEncoding', 'UTF-16')}${param('sendfileSize', '1')}
  </servlet>
  <servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>
</web-app>`;

function send(
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let dir: string;
let c: Container;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-default-servlet-'));
  mkdirSync(join(dir, 'conf'));
  writeFileSync(join(dir, 'conf', 'server.xml'), SERVER_XML);
  mkdirSync(join(dir, 'webapps', 'app', 'WEB-INF'), { recursive: true });
  mkdirSync(join(dir, 'webapps', 'app', 'dir'));
  writeFileSync(join(dir, 'webapps', 'app', 'WEB-INF', 'web.xml'), WEB_XML);
  writeFileSync(join(dir, 'webapps', 'app', 'dir', 'a.txt'), 'hello');
  c = await startContainer({ base: dir, port: 0 });
});
afterAll(async () => {
  await c?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('DefaultServlet init-params an application sets are not taken over', () => {
  it('listings=true (with sortListings, showServerInfo): a directory without welcome file is still a 404, no listing page', async () => {
    expect((await send(c.port, 'GET', '/app/dir/')).status).toBe(404);
  });
  it('readonly=false: PUT and DELETE still answer 405, nothing is written', async () => {
    expect((await send(c.port, 'PUT', '/app/dir/new.txt', 'x')).status).toBe(405);
    expect((await send(c.port, 'DELETE', '/app/dir/a.txt')).status).toBe(405);
    expect((await send(c.port, 'GET', '/app/dir/a.txt')).body).toBe('hello');
  });
  it('useAcceptRanges=false: ranges are still served with Accept-Ranges', async () => {
    const r = await send(c.port, 'GET', '/app/dir/a.txt');
    expect(r.headers['accept-ranges']).toBe('bytes');
  });
  it('allowPostAsGet=false: POST still serves the file', async () => {
    expect((await send(c.port, 'POST', '/app/dir/a.txt', '')).status).toBe(200);
  });
  it('fileEncoding and sendfileSize: the bytes go out as stored', async () => {
    const r = await send(c.port, 'GET', '/app/dir/a.txt');
    expect(r.body).toBe('hello');
    expect(r.headers['content-length']).toBe('5');
  });
});
