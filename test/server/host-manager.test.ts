import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basicCredentials } from '../../src/server/host-manager.js';
import { forbiddenPage, unauthorizedPage } from '../../src/server/host-manager-pages.js';
import { makeBase, serverXml, startContainer, type Container } from './harness.js';
import { ask } from './http.js';

const ADMIN = 'admin:s3cret';
const SPAN = { file: 'server.xml', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };

/** Drives a handler with a recording response (what the body would be, even for HEAD). */
function invoke(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  method: string,
  url: string,
  auth: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = {
      method,
      url,
      httpVersion: '1.1',
      headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
      socket: { remoteAddress: '127.0.0.1' },
    } as unknown as IncomingMessage;
    let body = '';
    const headers = new Map<string, unknown>();
    const res = {
      statusCode: 200,
      headersSent: false,
      setHeader: (k: string, v: unknown) => headers.set(k.toLowerCase(), v),
      write: (chunk: string) => {
        body += chunk;
        return true;
      },
      end: (chunk?: string) => {
        if (chunk) body += chunk;
        resolve({ status: res.statusCode, body });
      },
    };
    handler(req, res as unknown as ServerResponse);
  });
}

let c: Container;
const text = (cmd: string, opts: { method?: string; auth?: string; host?: string } = {}) =>
  ask(c.port, `/host-manager/text/${cmd}`, {
    method: opts.method,
    auth: opts.auth ?? ADMIN,
    headers: opts.host ? { host: opts.host } : {},
  });

describe('host manager text interface', () => {
  beforeAll(async () => {
    c = await startContainer(makeBase(serverXml()));
  });
  afterAll(async () => {
    await c.dispose();
  });

  it('list answers OK - Listed hosts and one [name]:[aliases] line per host, as text/plain;charset=utf-8', async () => {
    const r = await text('list');
    expect(r.status).toBe(200);
    expect(r.text).toBe('OK - Listed hosts\n[localhost]:[]\n');
    expect(r.headers['content-type']).toBe('text/plain;charset=utf-8');
    expect(r.headers['cache-control']).toBe('private');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.headerOrder.slice(0, 4)).toEqual([
      'cache-control',
      'x-frame-options',
      'x-content-type-options',
      'content-type',
    ]);
  });

  it('add creates the appBase, lower-cases the name and aliases, and the host serves its webapps at once', async () => {
    mkdirSync(join(c.base, 'one.example', 'ROOT'), { recursive: true });
    writeFileSync(join(c.base, 'one.example', 'ROOT', 'index.html'), 'one root\n');
    const r = await text('add?name=one.example&aliases=www.one.example,%20One.Example,,x.one.example');
    expect(r.text).toBe('OK - Host [one.example] added\n');
    expect((await text('list')).text).toBe(
      'OK - Listed hosts\n[localhost]:[]\n[one.example]:[www.one.example,one.example,x.one.example]\n',
    );
    expect(existsSync(join(c.base, 'conf', 'Catalina', 'one.example'))).toBe(true);
    const page = await ask(c.port, '/', { headers: { host: 'WWW.ONE.example:8080' } });
    expect(page.text).toBe('one root\n');
    expect((await ask(c.port, '/', { headers: { host: 'unknown.example' } })).text).toBe('localhost root\n');
  });

  it('add with every parameter records them, with the text interface boolean rules', async () => {
    const r = await text(
      'add?name=two.example&appBase=apps2&manager=true&autoDeploy=false&deployOnStartup=no&deployXML=false&copyXML=TRUE&unpackWARs=false',
    );
    expect(r.text).toBe('OK - Host [two.example] added\n');
    expect(existsSync(join(c.base, 'apps2'))).toBe(true);
    const h = c.registry.get('two.example')!;
    // deployOnStartup=no keeps the default true; copyXML=TRUE is not exactly "true", so it stays false.
    expect([h.appBase, h.manager, h.autoDeploy, h.deployOnStartup, h.deployXML, h.copyXML, h.unpackWARs]).toEqual([
      'apps2',
      true,
      false,
      true,
      false,
      false,
      false,
    ]);
  });

  it('never echoes CR or LF from a parameter: a FAIL line stays one line (no forged OK line)', async () => {
    const a = await text('add?name=x%0D%0AOK%20-%20Host%20%5Bevil%5D%20added');
    expect(a.text).toBe('FAIL - Invalid host name [x%0D%0AOK - Host [evil] added] was specified\n');
    const r = await text('remove?name=nohost%0Aextra');
    expect(r.text).toBe('FAIL - Host name [nohost%0Aextra] does not exist\n');
    expect(r.text.split('\n')).toHaveLength(2);
  });

  it('add refuses a missing or empty name and an existing host (any case)', async () => {
    expect((await text('add')).text).toBe('FAIL - Invalid host name [null] was specified\n');
    expect((await text('add?name=')).text).toBe('FAIL - Invalid host name [] was specified\n');
    expect((await text('add?name=localhost')).text).toBe('FAIL - Host already exists with host name [localhost]\n');
    expect((await text('add?name=LocalHost')).text).toBe('FAIL - Host already exists with host name [LocalHost]\n');
  });

  it("add refuses a relative appBase that leaves the base, with Tomcat's path check text", async () => {
    const r = await text('add?name=out.example&appBase=../outside');
    expect(r.text).toBe(
      `FAIL - Unable to use [${join(c.base, '..', 'outside')}] as that is outside the expected directory [${c.base}]\n`,
    );
    expect(c.registry.get('out.example')).toBeUndefined();
  });

  it('add refuses an absolute appBase outside the base unless allowed', async () => {
    const r = await text(`add?name=abs.example&appBase=${encodeURIComponent('/tmp/tollgate-abs-appbase')}`);
    expect(r.text).toBe(
      `FAIL - Unable to use [/tmp/tollgate-abs-appbase] as that is outside the expected directory [${c.base}]\n`,
    );
  });

  it.each([['conf'], ['.'], ['conf/Catalina'], ['webapps/..']])(
    'add refuses appBase=%s, which would make conf/ servable',
    async (appBase) => {
      const r = await text(`add?name=leak.example&appBase=${encodeURIComponent(appBase)}`);
      expect(r.text).toMatch(
        /^FAIL - Unable to use \[.*\] as that would make the configuration directory \[.*conf\] servable\n$/,
      );
      expect(c.registry.get('leak.example')).toBeUndefined();
    },
  );

  it('add refuses a host named conf (its default appBase is the name)', async () => {
    expect((await text('add?name=conf')).text).toMatch(
      /^FAIL - Unable to use \[.*\/conf\] as that would make the configuration directory/,
    );
  });

  it('stop takes a host out of routing and start puts it back; each refuses a repeat', async () => {
    await text('add?name=three.example');
    mkdirSync(join(c.base, 'three.example', 'ROOT'), { recursive: true });
    writeFileSync(join(c.base, 'three.example', 'ROOT', 'index.html'), 'three\n');
    expect((await ask(c.port, '/', { headers: { host: 'three.example' } })).text).toBe('three\n');
    expect((await text('stop?name=three.example')).text).toBe('OK - Host [three.example] stopped\n');
    expect((await text('stop?name=three.example')).text).toBe('FAIL - Host [three.example] is already stopped\n');
    expect((await ask(c.port, '/', { headers: { host: 'three.example' } })).text).toBe('localhost root\n');
    expect((await text('start?name=three.example')).text).toBe('OK - Host [three.example] started\n');
    expect((await text('start?name=three.example')).text).toBe('FAIL - Host [three.example] is already started\n');
    expect((await ask(c.port, '/', { headers: { host: 'three.example' } })).text).toBe('three\n');
  });

  it('remove removes the host but never its files', async () => {
    await text('add?name=four.example');
    expect((await text('remove?name=four.example')).text).toBe('OK - Removed host [four.example]\n');
    expect(c.registry.get('four.example')).toBeUndefined();
    expect(existsSync(join(c.base, 'four.example'))).toBe(true);
  });

  it.each(['remove', 'start', 'stop'])(
    "%s refuses a missing name, an unknown host and the manager's own host",
    async (cmd) => {
      expect((await text(cmd)).text).toBe('FAIL - Invalid host name [null] was specified\n');
      expect((await text(`${cmd}?name=`)).text).toBe('FAIL - Invalid host name [] was specified\n');
      expect((await text(`${cmd}?name=nope.example`)).text).toBe('FAIL - Host name [nope.example] does not exist\n');
      expect((await text(`${cmd}?name=localhost`)).text).toBe(`FAIL - Cannot ${cmd} your own host [localhost]\n`);
    },
  );

  it("persist without the StoreConfig listener answers Tomcat's FAIL line", async () => {
    expect((await text('persist')).text).toBe('FAIL - Please enable StoreConfig to use this feature\n');
  });

  it('an unknown command, /text and /text/ answer Unknown command', async () => {
    expect((await text('bogus')).text).toBe('FAIL - Unknown command [/bogus]\n');
    expect((await text('')).text).toBe('FAIL - Unknown command [/]\n');
    expect((await ask(c.port, '/host-manager/text', { auth: ADMIN })).text).toBe('FAIL - Unknown command [/text]\n');
  });

  it('POST is not supported by the text interface: 405 with an HTML report', async () => {
    const r = await text('list', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(r.headers['cache-control']).toBeUndefined();
    expect(r.text).toContain('HTTP method POST is not supported by this URL');
  });

  it('PUT and DELETE are 405, an unknown method 501, OPTIONS lists GET, HEAD, OPTIONS (as observed on Tomcat 10.1.60)', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const r = await text('list', { method });
      expect([r.status, r.headers['cache-control'], r.headers['x-frame-options']]).toEqual([405, 'private', 'DENY']);
      expect(r.text).toContain(`HTTP method ${method} is not supported by this URL`);
    }
    const patch = await text('list', { method: 'PATCH' });
    expect([patch.status, patch.headers['connection']]).toEqual([501, 'close']);
    expect(patch.text).toContain('Method [PATCH] is not implemented by this Servlet for this URI');
    const o = await text('list', { method: 'OPTIONS' });
    expect([o.status, o.headers['allow'], o.headers['content-length'], o.headers['cache-control']]).toEqual([
      200,
      'GET, HEAD, OPTIONS',
      '0',
      'private',
    ]);
  });

  it('TRACE is refused before authentication, without the application headers', async () => {
    const r = await ask(c.port, '/host-manager/text/list', { method: 'TRACE' });
    expect([r.status, r.headers['allow'], r.headers['cache-control'], r.headers['www-authenticate']]).toEqual([
      405,
      'HEAD, GET, OPTIONS',
      undefined,
      undefined,
    ]);
    expect(r.text).toContain('TRACE method is not allowed');
  });

  it('HEAD list answers the GET headers without a body', async () => {
    const r = await text('list', { method: 'HEAD' });
    expect([r.status, r.headers['content-type'], r.body.length]).toEqual([200, 'text/plain;charset=utf-8', 0]);
  });

  it.each(['add?name=head.example', 'remove?name=one.example', 'stop?name=one.example', 'persist'])(
    'HEAD %s changes nothing',
    async (cmd) => {
      const before = (await text('list')).text;
      const r = await text(cmd, { method: 'HEAD' });
      expect([r.status, r.body.length]).toEqual([200, 0]);
      expect((await text('list')).text).toBe(before);
    },
  );

  it.each(['add', 'remove', 'start', 'stop', 'persist'])(
    'HEAD /%s is refused with a FAIL line in Tomcat style',
    async (cmd) => {
      const { createHostManagerHandler } = await import('../../src/server/host-manager.js');
      const { realmFromConfig } = await import('../../src/server/realm.js');
      const { parseTomcatUsers } = await import('../../src/parser/index.js');
      const users = parseTomcatUsers(
        '<tomcat-users><user username="admin" password="s3cret" roles="admin-script"/></tomcat-users>',
        'users.xml',
      ).users;
      const realm = realmFromConfig(users, [
        {
          tag: 'Realm',
          className: { value: 'org.apache.catalina.realm.UserDatabaseRealm', span: SPAN },
          attributes: {},
          children: [],
          span: SPAN,
        },
      ]).realm;
      const handler = createHostManagerHandler({ registry: c.registry, realm });
      // Node never sends a HEAD body, so the handler is driven with a recording response to read the line.
      const r = await invoke(handler, 'HEAD', `/host-manager/text/${cmd}?name=one.example`, ADMIN);
      expect(r.status).toBe(200);
      expect(r.body).toBe(`FAIL - Tried to use command [/${cmd}] via a HEAD request but GET is required\n`);
    },
  );
});

describe('host manager authentication', () => {
  let clock = 1_000_000;
  beforeAll(async () => {
    c = await startContainer(makeBase(serverXml()), { clock: () => clock });
  });
  afterAll(async () => {
    await c.dispose();
  });
  afterEach(() => {
    clock += 301_000;
  });

  it('no credentials: 401 with the Basic challenge, Cache-Control private and the manager 401 page', async () => {
    const r = await ask(c.port, '/host-manager/text/list');
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Basic realm="Tomcat Host Manager Application"');
    expect(r.headers['content-type']).toBe('text/html;charset=UTF-8');
    expect(r.headers['cache-control']).toBe('private');
    expect(r.text).toBe(unauthorizedPage('/host-manager'));
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
  });

  it('a wrong password, an unknown user and a malformed header are all the same 401', async () => {
    for (const opts of [
      { auth: 'admin:wrong' },
      { auth: 'ghost:s3cret' },
      { headers: { authorization: 'Basic !!!' } },
      { headers: { authorization: 'Bearer x' } },
    ]) {
      const r = await ask(c.port, '/host-manager/text/list', opts);
      expect(r.status).toBe(401);
      expect(r.text).toBe(unauthorizedPage('/host-manager'));
    }
  });

  it('admin-gui alone is not enough: 403 with the manager 403 page', async () => {
    const r = await ask(c.port, '/host-manager/text/list', { auth: 'gui:s3cret' });
    expect(r.status).toBe(403);
    expect(r.headers['content-type']).toBe('text/html;charset=UTF-8');
    expect(r.text).toBe(forbiddenPage('/host-manager'));
  });

  it('a user with admin-gui and admin-script gets in', async () => {
    expect((await ask(c.port, '/host-manager/text/list', { auth: 'both:s3cret' })).status).toBe(200);
  });

  it('five failures lock the user: the right password then gets 401 until 300 s have passed', async () => {
    for (let i = 0; i < 5; i++)
      expect((await ask(c.port, '/host-manager/text/list', { auth: 'admin:wrong' })).status).toBe(401);
    const locked = await ask(c.port, '/host-manager/text/list', { auth: ADMIN });
    expect(locked.status).toBe(401);
    expect(locked.text).toBe(unauthorizedPage('/host-manager'));
    clock += 299_000;
    expect((await ask(c.port, '/host-manager/text/list', { auth: ADMIN })).status).toBe(401);
    clock += 1_000;
    expect((await ask(c.port, '/host-manager/text/list', { auth: ADMIN })).status).toBe(200);
  });

  it('a locked unknown user looks exactly like a locked known one', async () => {
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 6; i++)
      known.push((await ask(c.port, '/host-manager/text/list', { auth: 'admin:wrong' })).text);
    for (let i = 0; i < 6; i++)
      unknown.push((await ask(c.port, '/host-manager/text/list', { auth: 'nobody:wrong' })).text);
    expect(unknown).toEqual(known);
  });

  it('only the text interface exists: other paths under the context are 404 without authentication', async () => {
    expect((await ask(c.port, '/host-manager/html/list')).status).toBe(404);
    expect((await ask(c.port, '/host-manager/')).status).toBe(404);
    const root = await ask(c.port, '/host-manager?x=1');
    expect([root.status, root.headers['location']]).toEqual([302, '/host-manager/?x=1']);
  });

  it('requests from a non-loopback address are refused with 403 before authentication', async () => {
    const { createHostManagerHandler } = await import('../../src/server/host-manager.js');
    const { realmFromConfig } = await import('../../src/server/realm.js');
    const { listen } = await import('./http.js');
    const handler = createHostManagerHandler({
      registry: c.registry,
      realm: realmFromConfig(null, []).realm,
      remoteAddressAllowed: () => false,
    });
    const s = await listen(handler);
    try {
      expect((await ask(s.port, '/host-manager/text/list', { auth: ADMIN })).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('host manager with digest passwords', () => {
  it('a SHA-256 digest.sh password in tomcat-users.xml logs in with the plain password', async () => {
    const users = `<tomcat-users><user username="hash" password="70af84d05a8e5dfa18a2fe8850f7a835$1000$f569bd2fd70de947f4c4ed189e9b37f05237c0f0d08e744c5ba21c06e535f394" roles="admin-script"/></tomcat-users>`;
    const realm = `<Realm className="org.apache.catalina.realm.LockOutRealm"><Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase">
        <CredentialHandler className="org.apache.catalina.realm.MessageDigestCredentialHandler" algorithm="SHA-256"/></Realm></Realm>`;
    const d = await startContainer(makeBase(serverXml({ realm }), users));
    try {
      expect((await ask(d.port, '/host-manager/text/list', { auth: 'hash:pw-sha256' })).status).toBe(200);
      expect(
        (
          await ask(d.port, '/host-manager/text/list', {
            auth: 'hash:70af84d05a8e5dfa18a2fe8850f7a835$1000$f569bd2fd70de947f4c4ed189e9b37f05237c0f0d08e744c5ba21c06e535f394',
          })
        ).status,
      ).toBe(401);
    } finally {
      await d.dispose();
    }
  });
});

describe('Basic credentials', () => {
  it('decode as ISO-8859-1, split at the first colon, and keep a missing password null', () => {
    const b = (s: string) => `Basic ${Buffer.from(s, 'latin1').toString('base64')}`;
    expect(basicCredentials(b('a:b:c'))).toEqual({ username: 'a', password: 'b:c' });
    expect(basicCredentials(b('nocolon'))).toEqual({ username: 'nocolon', password: null });
    expect(basicCredentials(b('j\u00f6rg:p'))).toEqual({ username: 'j\u00f6rg', password: 'p' });
    expect(basicCredentials(`bAsIc ${Buffer.from('u:p').toString('base64')}`)).toEqual({
      username: 'u',
      password: 'p',
    });
    expect(basicCredentials('Basic a')).toBeNull();
    expect(basicCredentials(undefined)).toBeNull();
  });

  it('the 401 and 403 pages carry the context path', () => {
    expect(unauthorizedPage('/hm')).toContain('<link href="/hm/images/favicon.ico"');
    expect(forbiddenPage('/hm')).toContain('<a href="/hm/html">');
  });
});

describe('host manager on an instance sharing its state store (a fleet behind a balancer)', () => {
  let f: Container;
  beforeAll(async () => {
    f = await startContainer(makeBase(serverXml()), { sharedStore: 'redis://127.0.0.1:6379' });
  });
  afterAll(async () => {
    await f.dispose();
  });
  const fleetText = (cmd: string) => ask(f.port, `/host-manager/text/${cmd}`, { auth: ADMIN });

  it('refuses add, remove, start and stop with a FAIL line saying why, and changes nothing', async () => {
    for (const cmd of ['add?name=fleet.example', 'remove?name=localhost', 'start?name=x', 'stop?name=x']) {
      const r = await fleetText(cmd);
      expect(r.status).toBe(200);
      expect(r.text).toBe(
        `FAIL - Host changes are refused on an instance that shares its state store [redis://127.0.0.1:6379] with others: [${cmd.split('?')[0]}] would reach this instance only. Change server.xml on every instance and reload them (SIGHUP)\n`,
      );
    }
    expect(f.registry.get('fleet.example')).toBeUndefined();
  });

  it('still answers list', async () => {
    const r = await fleetText('list');
    expect(r.text).toMatch(/^OK - Listed hosts\n/);
  });
});
