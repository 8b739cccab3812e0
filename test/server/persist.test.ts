import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBase, parseServerXml } from '../../src/parser/index.js';
import { HostRegistry, type VirtualHost } from '../../src/server/hosts.js';
import {
  createServerXmlPersister,
  freeBackupName,
  renderHost,
  rewriteHosts,
  storeConfigEnabled,
} from '../../src/server/persist.js';
import { makeBase, serverXml, startContainer, STORE_CONFIG_LISTENER } from './harness.js';
import { ask } from './http.js';

const ADMIN = 'admin:s3cret';
const EXTRA = `      <!-- a host defined by hand -->
      <Host name="old.example" appBase="oldapps">
        <Alias>www.old.example</Alias>
      </Host>
`;

function hostNames(xml: string): string[] {
  const { serverXml: s, diagnostics } = parseServerXml(xml, 'server.xml', {});
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return s!.services[0]!.engine!.hosts.map((h) => h.name.value).sort();
}

function host(partial: Partial<VirtualHost> & { name: string }): VirtualHost {
  return {
    aliases: [],
    appBase: partial.name,
    appBasePath: `/b/${partial.name}`,
    autoDeploy: true,
    deployOnStartup: true,
    deployXML: true,
    copyXML: false,
    unpackWARs: true,
    manager: false,
    state: 'started',
    inServerXml: false,
    ...partial,
  };
}

describe('persist over HTTP', () => {
  it('without the StoreConfig listener the file is never touched', async () => {
    const c = await startContainer(makeBase(serverXml()));
    try {
      const before = readFileSync(join(c.base, 'conf', 'server.xml'));
      await ask(c.port, '/host-manager/text/add?name=new.example', { auth: ADMIN });
      expect((await ask(c.port, '/host-manager/text/persist', { auth: ADMIN })).text).toBe(
        'FAIL - Please enable StoreConfig to use this feature\n',
      );
      expect(readFileSync(join(c.base, 'conf', 'server.xml')).equals(before)).toBe(true);
      expect(readdirSync(join(c.base, 'conf')).filter((f) => f.startsWith('server.xml.'))).toEqual([]);
    } finally {
      await c.dispose();
    }
  });

  it('with the listener: new hosts go after the last Host, removed ones go, everything else stays byte for byte', async () => {
    const original = serverXml({ storeConfig: true, extraHosts: EXTRA });
    const c = await startContainer(makeBase(original));
    try {
      await ask(c.port, '/host-manager/text/add?name=new.example&aliases=www.new.example,alt.example', { auth: ADMIN });
      await ask(
        c.port,
        '/host-manager/text/add?name=p2.example&appBase=webapps2&autoDeploy=false&deployOnStartup=false&deployXML=false&unpackWARs=false&copyXML=true',
        { auth: ADMIN },
      );
      await ask(c.port, '/host-manager/text/remove?name=old.example', { auth: ADMIN });
      const r = await ask(c.port, '/host-manager/text/persist', { auth: ADMIN });
      expect(r.text).toBe('OK - Configuration persisted\n');
      const written = readFileSync(join(c.base, 'conf', 'server.xml'), 'utf8');
      const added =
        '\n      <Host appBase="new.example" deployXML="true" name="new.example"\n          unpackWARs="true">\n' +
        '        <Alias>www.new.example</Alias>\n        <Alias>alt.example</Alias>\n      </Host>' +
        // Byte for byte what Tomcat's StoreConfig wrote for this host (recorded on Tomcat 10.1).
        '\n      <Host appBase="webapps2" autoDeploy="false" copyXML="true"\n          deployOnStartup="false" deployXML="false" name="p2.example" unpackWARs="false">\n      </Host>';
      const localhostEnd = original.indexOf('</Host>') + '</Host>'.length;
      const expected =
        original.slice(0, localhostEnd) +
        added +
        original.slice(localhostEnd).replace(EXTRA, '      <!-- a host defined by hand -->\n');
      expect(written).toBe(expected);
      expect(hostNames(written)).toEqual(['localhost', 'new.example', 'p2.example']);
    } finally {
      await c.dispose();
    }
  });

  it("keeps a backup under StoreConfig's name, numbered within the same second", async () => {
    const c = await startContainer(makeBase(serverXml({ storeConfig: true })));
    try {
      const file = join(c.base, 'conf', 'server.xml');
      const first = readFileSync(file);
      await ask(c.port, '/host-manager/text/add?name=b1.example', { auth: ADMIN });
      await ask(c.port, '/host-manager/text/persist', { auth: ADMIN });
      const second = readFileSync(file);
      await ask(c.port, '/host-manager/text/persist', { auth: ADMIN });
      const backups = readdirSync(join(c.base, 'conf'))
        .filter((f) => f.startsWith('server.xml.'))
        .sort();
      expect(backups).toHaveLength(2);
      for (const b of backups) expect(b).toMatch(/^server\.xml\.\d{4}-\d\d-\d\d\.\d\d-\d\d-\d\d-\d+$/);
      const contents = backups.map((b) => readFileSync(join(c.base, 'conf', b)));
      expect(contents.some((b) => b.equals(first))).toBe(true);
      expect(contents.some((b) => b.equals(second))).toBe(true);
      expect(readdirSync(join(c.base, 'conf')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await c.dispose();
    }
  });

  it('a restarted server reading the file has the persisted hosts, and an unchanged host is left alone by the next persist', async () => {
    const c = await startContainer(makeBase(serverXml({ storeConfig: true })));
    const base = c.base;
    try {
      await ask(
        c.port,
        '/host-manager/text/add?name=kept.example&aliases=k.example&appBase=keptapps&autoDeploy=false',
        { auth: ADMIN },
      );
      await ask(c.port, '/host-manager/text/persist', { auth: ADMIN });
      await c.close();
      const restarted = await startContainer(base);
      try {
        expect((await ask(restarted.port, '/host-manager/text/list', { auth: ADMIN })).text).toBe(
          'OK - Listed hosts\n[localhost]:[]\n[kept.example]:[k.example]\n',
        );
        const h = restarted.registry.get('kept.example')!;
        expect([h.appBase, h.autoDeploy, h.appBasePath]).toEqual(['keptapps', false, join(base, 'keptapps')]);
        const before = readFileSync(join(base, 'conf', 'server.xml'));
        await ask(restarted.port, '/host-manager/text/persist', { auth: ADMIN });
        expect(readFileSync(join(base, 'conf', 'server.xml')).equals(before)).toBe(true);
      } finally {
        await restarted.dispose();
      }
    } catch (err) {
      await c.dispose();
      throw err;
    }
  });

  it('a host removed and added again under the same name is replaced in place', async () => {
    const c = await startContainer(makeBase(serverXml({ storeConfig: true, extraHosts: EXTRA })));
    try {
      await ask(c.port, '/host-manager/text/remove?name=old.example', { auth: ADMIN });
      await ask(c.port, '/host-manager/text/add?name=old.example&appBase=newapps', { auth: ADMIN });
      await ask(c.port, '/host-manager/text/persist', { auth: ADMIN });
      const written = readFileSync(join(c.base, 'conf', 'server.xml'), 'utf8');
      expect(written).toContain(
        '      <!-- a host defined by hand -->\n      <Host appBase="newapps" deployXML="true" name="old.example"\n          unpackWARs="true">\n      </Host>\n    </Engine>',
      );
      expect(written).not.toContain('oldapps');
    } finally {
      await c.dispose();
    }
  });
});

describe('persist crash safety', () => {
  it('a crash between writing the new file and renaming it leaves the old file intact', async () => {
    const base = makeBase(serverXml({ storeConfig: true }));
    const file = join(base, 'conf', 'server.xml');
    const before = readFileSync(file);
    const registry = HostRegistry.fromBase(loadBase({ base }));
    await registry.add({ name: 'crash.example' });
    let written: string | null = null;
    const persister = createServerXmlPersister({
      registry,
      file,
      steps: {
        async writeDurable(path, data) {
          writeFileSync(path, data);
          written = path;
        },
        async replace() {
          throw new Error('simulated crash before rename');
        },
      },
    });
    await expect(persister.persist()).rejects.toThrow('simulated crash');
    expect(written).not.toBeNull();
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(join(base, 'conf')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(registry.get('crash.example')!.inServerXml).toBe(false);
  });

  it('a write that dies half way leaves the old file intact and persist reports the failure', async () => {
    const c = await startContainer(makeBase(serverXml({ storeConfig: true })));
    try {
      const file = join(c.base, 'conf', 'server.xml');
      const before = readFileSync(file);
      // Replace the container's persister with one whose write step fails after half the bytes.
      const { createHostManagerHandler } = await import('../../src/server/host-manager.js');
      const { realmFromConfig } = await import('../../src/server/realm.js');
      const loaded = loadBase({ base: c.base });
      const realm = realmFromConfig(loaded.users, loaded.serverXml!.services[0]!.engine!.realms).realm;
      const persister = createServerXmlPersister({
        registry: c.registry,
        file,
        steps: {
          async writeDurable(path, data) {
            writeFileSync(path, data.subarray(0, data.length >> 1));
            throw new Error('disk full');
          },
        },
      });
      const handler = createHostManagerHandler({ registry: c.registry, realm, persister });
      const { listen } = await import('./http.js');
      const s = await listen(handler);
      try {
        await ask(s.port, '/host-manager/text/add?name=half.example', { auth: ADMIN });
        expect((await ask(s.port, '/host-manager/text/persist', { auth: ADMIN })).text).toBe(
          'FAIL - Failed to persist configuration\n',
        );
      } finally {
        await s.close();
      }
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      await c.dispose();
    }
  });

  it('SIGKILL at random moments during repeated persists always leaves a parseable file with one whole host set', async () => {
    const base = makeBase(
      serverXml({ storeConfig: true, extraHosts: '      <Host name="a1.example" appBase="a1.example"/>\n' }),
    );
    const file = join(base, 'conf', 'server.xml');
    const setA = ['a1.example', 'localhost'];
    const setB = ['b1.example', 'b2.example', 'localhost'];
    const child = fileURLToPath(new URL('./persist-child.ts', import.meta.url));
    let persistsSeen = 0;
    for (let round = 0; round < 8; round++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', child, base], {
        env: { ...process.env, TOLLGATE_PERSIST_CHILD: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      proc.stdout.on('data', (d: Buffer) => (persistsSeen += d.length));
      await new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
      // Let it persist for a random while (a few to a few dozen persists), then kill it mid-flight.
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 60)));
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
      const names = hostNames(readFileSync(file, 'utf8'));
      expect([setA, setB]).toContainEqual(names);
    }
    expect(persistsSeen).toBeGreaterThanOrEqual(8);
    // The survivor still loads as a base.
    const reloaded = HostRegistry.fromBase(loadBase({ base }));
    expect([setA, setB]).toContainEqual(
      reloaded
        .list()
        .map((h) => h.name)
        .sort(),
    );
    // A hang guard, not a measure: the repeated persists and kills are CPU work that a load of 20 stretches.
  }, 600_000);
});

describe('rewriteHosts', () => {
  const file = '/b/conf/server.xml';
  const xml = serverXml({ storeConfig: true });

  it('changes nothing (same bytes) when the registry matches the file', () => {
    const bytes = Buffer.from(xml);
    const out = rewriteHosts(
      bytes,
      file,
      [host({ name: 'localhost', inServerXml: true, appBase: 'webapps' })],
      'Catalina',
    );
    expect(Buffer.from(out!).equals(bytes)).toBe(true);
  });

  it('keeps a UTF-8 BOM, CRLF line ends and non-ASCII comments intact', () => {
    const crlf = '\ufeff' + xml.replace('test server', 'tëst sérver').replace(/\n/g, '\r\n');
    const bytes = Buffer.from(crlf, 'utf8');
    const out = Buffer.from(
      rewriteHosts(
        bytes,
        file,
        [host({ name: 'localhost', inServerXml: true }), host({ name: 'n.example', aliases: ['a.example'] })],
        'Catalina',
      )!,
    );
    expect(out.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = out.toString('utf8');
    expect(text).toContain(
      '</Host>\r\n      <Host appBase="n.example" deployXML="true" name="n.example"\r\n          unpackWARs="true">\r\n        <Alias>a.example</Alias>\r\n      </Host>\r\n',
    );
    expect(text.replace(/\r\n {6}<Host appBase="n\.example"[\s\S]*?<\/Host>/, '')).toBe(crlf);
  });

  it('inserts the first host before </Engine> when the Engine has none', () => {
    const noHosts = xml.replace(/\n {6}<Host name="localhost"[\s\S]*?<\/Host>\n/, '\n');
    const out = Buffer.from(
      rewriteHosts(Buffer.from(noHosts), file, [host({ name: 'only.example' })], 'Catalina')!,
    ).toString();
    expect(out).toContain(
      '\n      <Host appBase="only.example" deployXML="true" name="only.example"\n          unpackWARs="true">\n      </Host>\n    </Engine>',
    );
    expect(hostNames(out)).toEqual(['only.example']);
  });

  it('refuses a file without an Engine', () => {
    expect(rewriteHosts(Buffer.from('<Server><Service/></Server>'), file, [], 'Catalina')).toBeNull();
  });

  it('escapes attribute values and aliases, wrapping past column 60 as StoreConfig does', () => {
    expect(renderHost(host({ name: 'x', appBase: 'a&b"<c>', aliases: ["o'k"] }), '')).toBe(
      '<Host appBase="a&amp;b&quot;&lt;c&gt;" deployXML="true" name="x"\n    unpackWARs="true">\n  <Alias>o&apos;k</Alias>\n</Host>',
    );
  });

  it('names backups as StoreConfig does, in local time, first free number from 0', async () => {
    const base = makeBase(xml);
    const f = join(base, 'conf', 'server.xml');
    const at = new Date(2026, 10, 22, 9, 5, 7);
    expect(await freeBackupName(f, at)).toBe(`${f}.2026-11-22.09-05-07-0`);
    writeFileSync(`${f}.2026-11-22.09-05-07-0`, '');
    expect(await freeBackupName(f, at)).toBe(`${f}.2026-11-22.09-05-07-1`);
  });

  it('StoreConfig counts as enabled under either class name, and only when declared', () => {
    const parse = (x: string) => parseServerXml(x, 'server.xml', {}).serverXml;
    expect(storeConfigEnabled(parse(serverXml({ storeConfig: true })))).toBe(true);
    expect(
      storeConfigEnabled(
        parse(
          serverXml().replace(
            '<!-- no StoreConfig here -->',
            STORE_CONFIG_LISTENER.replace('org.apache.catalina', 'org.vendor.container'),
          ),
        ),
      ),
    ).toBe(true);
    expect(storeConfigEnabled(parse(serverXml()))).toBe(false);
    expect(storeConfigEnabled(null)).toBe(false);
  });
});
