import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { ServerRefusedError, startContainer, type Container } from '../../src/server/container.js';

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');
const auth = 'Basic ' + Buffer.from('deployer:tollgate-demo').toString('base64');

function get(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('tollgate serve on the example base', () => {
  let dir: string;
  let c: Container;
  beforeAll(async () => {
    // A copy, because the host manager writes into the base (appBase directories, server.xml on persist).
    dir = mkdtempSync(join(tmpdir(), 'tollgate-serve-'));
    cpSync(example, dir, { recursive: true });
    c = await startContainer({ base: dir, port: 0 });
  });
  afterAll(async () => {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the default host's ROOT through the global security headers filter", async () => {
    const r = await get(c.port, 'localhost', '/');
    expect(r.status).toBe(200);
    expect(r.body).toContain('tollgate example base');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['strict-transport-security']).toBeUndefined();
  });

  it('routes by Host header and alias, and sends unknown hosts to the default host', async () => {
    expect((await get(c.port, 'partners.localhost', '/')).body).toContain('Partners portal');
    expect((await get(c.port, '127.0.0.1', '/')).body).toContain('tollgate example base');
    expect((await get(c.port, 'nobody.example', '/')).body).toContain('tollgate example base');
  });

  it('lets an application replace a global filter by defining its name', async () => {
    expect((await get(c.port, 'partners.localhost', '/')).headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers 404 for WEB-INF and for paths no context serves', async () => {
    expect((await get(c.port, 'partners.localhost', '/WEB-INF/web.xml')).status).toBe(404);
    // Refused before the chain, as StandardContextValve does: no filter adds its headers.
    const meta = await get(c.port, 'localhost', '/api/meta-inf/context.xml');
    expect(meta.status).toBe(404);
    expect(meta.headers['x-frame-options']).toBeUndefined();
    expect((await get(c.port, 'localhost', '/no-such-file.txt')).status).toBe(404);
  });

  it('protects the host manager with Basic authentication against tomcat-users.xml (a PBKDF2 digest)', async () => {
    const anonymous = await get(c.port, 'localhost', '/host-manager/text/list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Tomcat Host Manager Application"');
    const r = await get(c.port, 'localhost', '/host-manager/text/list', { Authorization: auth });
    expect(r.status).toBe(200);
    expect(r.body.split('\n')[0]).toBe('OK - Listed hosts');
    expect(r.body).toContain('[partners.localhost]:');
  });

  it('serves a host added through the host manager at once; stopped, its requests go to the default host', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(dir, 'newapps', 'ROOT'), { recursive: true });
    writeFileSync(join(dir, 'newapps', 'ROOT', 'index.html'), '<p>the new host</p>\n');
    const add = await get(c.port, 'localhost', '/host-manager/text/add?name=new.localhost&appBase=newapps', {
      Authorization: auth,
    });
    expect(add.body).toMatch(/^OK - /m);
    expect((await get(c.port, 'new.localhost', '/')).body).toContain('the new host');
    expect(
      (await get(c.port, 'localhost', '/host-manager/text/stop?name=new.localhost', { Authorization: auth })).body,
    ).toMatch(/^OK - /m);
    expect((await get(c.port, 'new.localhost', '/')).body).toContain('tollgate example base');
    expect(
      (await get(c.port, 'localhost', '/host-manager/text/start?name=new.localhost', { Authorization: auth })).body,
    ).toMatch(/^OK - /m);
    expect((await get(c.port, 'new.localhost', '/')).body).toContain('the new host');
  });

  it('creates the appBase directory of a new host when it is missing', async () => {
    const add = await get(c.port, 'localhost', '/host-manager/text/add?name=empty.localhost&appBase=emptyapps', {
      Authorization: auth,
    });
    expect(add.body).toMatch(/^OK - /m);
    expect(existsSync(join(dir, 'emptyapps'))).toBe(true);
  });
});

describe('tollgate serve runs what Tomcat runs', () => {
  function baseWith(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-serve-plan-'));
    cpSync(join(example, 'conf'), join(dir, 'conf'), { recursive: true });
    cpSync(join(example, 'webapps', 'ROOT'), join(dir, 'webapps', 'ROOT'), { recursive: true });
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    return dir;
  }
  const undefinedFilter =
    '<web-app><filter-mapping><filter-name>nope</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>';

  it('a context Tomcat refuses is not mapped: its requests fall through to ROOT', async () => {
    const dir = baseWith({
      'webapps/bad/WEB-INF/web.xml': undefinedFilter,
      'webapps/bad/index.html': 'bad',
      'webapps/ROOT/bad/page.html': 'root',
    });
    const c = await startContainer({ base: dir, port: 0 });
    try {
      expect(c.plan.contexts.find((x) => x.contextPath === '/bad')!.state).toBe('refused');
      expect((await get(c.port, 'localhost', '/bad/index.html')).status).toBe(404);
      const fallen = await get(c.port, 'localhost', '/bad/page.html');
      expect([fallen.status, fallen.body]).toEqual([200, 'root']);
    } finally {
      await c.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lint error that Tomcat starts with does not stop the context; --strict refuses to start', async () => {
    // HttpHeaderSecurityFilter before RemoteIpFilter: a lint error, but Tomcat starts the application.
    const ordered =
      '<web-app><filter><filter-name>h</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class></filter>' +
      '<filter><filter-name>ip</filter-name><filter-class>org.apache.catalina.filters.RemoteIpFilter</filter-class></filter>' +
      '<filter-mapping><filter-name>h</filter-name><url-pattern>/*</url-pattern></filter-mapping><filter-mapping><filter-name>ip</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>';
    const dir = baseWith({ 'webapps/lintonly/WEB-INF/web.xml': ordered, 'webapps/lintonly/index.html': 'ok' });
    const c = await startContainer({ base: dir, port: 0 });
    try {
      expect((await get(c.port, 'localhost', '/lintonly/index.html')).status).toBe(200);
    } finally {
      await c.stop();
    }
    let err = '';
    const code = await main(['serve', '--base', dir, '--port', '0', '--strict'], {
      stdout: () => undefined,
      stderr: (t) => (err += t),
      cwd: dir,
    });
    expect(code).toBe(1);
    expect(err).toMatch(/--strict: \d+ lint error\(s\), not starting/);
    expect(err).toContain('remote-ip-after-address-filter');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a malformed server.xml stops everything, as Tomcat does not start, with file:line:column', async () => {
    const dir = baseWith({
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina">\n  <Engine name="Catalina" defaultHost="localhost">\n    <Host name="localhost" appBase="webapps"></Hots>\n</Engine></Service></Server>\n',
    });
    try {
      await expect(startContainer({ base: dir, port: 0 })).rejects.toBeInstanceOf(ServerRefusedError);
      let err = '';
      const code = await main(['serve', '--base', dir, '--port', '0'], {
        stdout: () => undefined,
        stderr: (t) => (err += t),
        cwd: dir,
      });
      expect(code).toBe(1);
      expect(err).toMatch(
        /Tomcat does not start with this configuration, so neither does serve: conf\/server\.xml:3:\d+: /,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server.xml listener class Tomcat cannot load stops everything, as Tomcat does not start (observed: test/fixtures/tomcat-observed/rules.json)', async () => {
    const dir = baseWith({
      'conf/server.xml':
        '<Server port="-1">\n  <Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListenr"/>\n  <Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
    });
    try {
      await expect(startContainer({ base: dir, port: 0 })).rejects.toBeInstanceOf(ServerRefusedError);
      let err = '';
      const code = await main(['serve', '--base', dir, '--port', '0'], {
        stdout: () => undefined,
        stderr: (t) => (err += t),
        cwd: dir,
      });
      expect(code).toBe(1);
      expect(err).toMatch(
        /Tomcat does not start with this configuration, so neither does serve: conf\/server\.xml:2:\d+: .*StoreConfigLifecycleListener/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a malformed META-INF/context.xml refuses that context only', async () => {
    const dir = baseWith({
      'webapps/ctx/META-INF/context.xml': '<Context><Valve</Context>',
      'webapps/ctx/index.html': 'ctx',
      'webapps/ok/index.html': 'ok',
    });
    const c = await startContainer({ base: dir, port: 0 });
    try {
      const refused = c.plan.contexts.find((x) => x.contextPath === '/ctx')!;
      expect(refused.state).toBe('refused');
      expect(refused.reasons[0]!.span.file).toBe(join(dir, 'webapps', 'ctx', 'META-INF', 'context.xml'));
      expect((await get(c.port, 'localhost', '/ctx/index.html')).status).toBe(404);
      expect((await get(c.port, 'localhost', '/ok/index.html')).status).toBe(200);
    } finally {
      await c.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
