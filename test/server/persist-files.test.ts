/**
 * What persist leaves on disk besides the Host elements: values it cannot
 * alter, the file's mode, no stale temporary files, and a bounded number of
 * backups that are copies.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeXml, loadBase, parseServerXml } from '../../src/parser/index.js';
import { HostRegistry, type VirtualHost } from '../../src/server/hosts.js';
import {
  createServerXmlPersister,
  PersistError,
  removeStaleTemps,
  rewriteHosts,
  rewriteHostsOffThread,
  rotateBackups,
} from '../../src/server/persist.js';
import { makeBase, serverXml } from './harness.js';

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

const SERVER = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"/>
    </Engine>
  </Service>
</Server>
`;

/** One character of every Unicode plane that has assigned characters, the XML specials, and the white space attributes normalise. */
const EVERY_PLANE =
  'a\u00e9\u0416\u4e2d\u20ac\ud83d\ude00\ud840\udc00\ud87e\udc00\udb40\udc01\udb80\udc00\udbff\udffd&<>"\'\t\n\r z';

/** Each encoding with its byte order mark (if any) and how it writes ASCII text. */
const ENCODINGS: [string, number[], (s: string) => Buffer][] = [
  ['UTF-8', [], (s) => Buffer.from(s, 'utf8')],
  ['UTF-16LE', [0xff, 0xfe], (s) => Buffer.from(s, 'utf16le')],
  ['UTF-16BE', [0xfe, 0xff], (s) => Buffer.from(s, 'utf16le').swap16()],
  ['ISO-8859-1', [], (s) => Buffer.from(s, 'latin1')],
  ['windows-1252', [], (s) => Buffer.from(s, 'latin1')],
  ['US-ASCII', [], (s) => Buffer.from(s, 'latin1')],
];

describe('persist writes values that read back as they were', () => {
  it.each(ENCODINGS)(
    '%s: every Unicode plane, the XML specials, tab, line feed and carriage return round-trip',
    (encoding, bom, encode) => {
      const original = Buffer.concat([Buffer.from(bom), encode(SERVER(encoding))]);
      const hosts = [
        host({ name: 'localhost', appBase: 'webapps', inServerXml: true }),
        host({ name: 'xn--e1afmkfd.example', appBase: `apps/${EVERY_PLANE}`, aliases: [`alias-${EVERY_PLANE}`] }),
      ];
      const written = rewriteHosts(original, 'server.xml', hosts, 'Catalina')!;
      const { source, diagnostics } = decodeXml(written, 'server.xml');
      expect(diagnostics).toEqual([]);
      expect(source.text.slice(source.text.indexOf('?>') + 2)).not.toContain('?');
      const parsed = parseServerXml(source.text, 'server.xml', {});
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const added = parsed.serverXml!.services[0]!.engine!.hosts.find((h) => h.name.value === 'xn--e1afmkfd.example')!;
      expect(added.appBase?.value).toBe(`apps/${EVERY_PLANE}`);
      expect(added.aliases.map((a) => a.value)).toEqual([`alias-${EVERY_PLANE}`]);
      // Everything outside the Host elements is the original bytes.
      const tail = encode('    </Engine>\n  </Service>\n</Server>\n');
      expect(
        Buffer.from(written)
          .subarray(written.length - tail.length)
          .equals(tail),
      ).toBe(true);
    },
  );

  it('ISO-8859-1: a Cyrillic host name is written as character references, not question marks', () => {
    const written = rewriteHosts(
      Buffer.from(SERVER('ISO-8859-1'), 'latin1'),
      'server.xml',
      [host({ name: 'пример.example' })],
      'Catalina',
    )!;
    const text = Buffer.from(written).toString('latin1');
    expect(text).toContain('name="&#1087;&#1088;&#1080;&#1084;&#1077;&#1088;.example"');
    expect(text).not.toContain('??????');
  });

  it('a control character XML 1.0 cannot hold stops the persist instead of writing a file Tomcat cannot read', () => {
    expect(() =>
      rewriteHosts(
        Buffer.from(SERVER('UTF-8')),
        'server.xml',
        [host({ name: 'bad.example', appBase: 'a\u0001b' })],
        'Catalina',
      ),
    ).toThrow(PersistError);
  });

  it('the rewrite on a worker thread gives the same bytes, and the same refusal, as on this one', async () => {
    const original = Buffer.from(SERVER('ISO-8859-1'), 'latin1');
    const hosts = [
      host({ name: 'localhost', appBase: 'webapps', inServerXml: true }),
      host({ name: 'пример.example', aliases: ['a\tb'] }),
    ];
    const offThread = await rewriteHostsOffThread(original, 'server.xml', hosts, 'Catalina');
    expect(Buffer.from(offThread!).equals(Buffer.from(rewriteHosts(original, 'server.xml', hosts, 'Catalina')!))).toBe(
      true,
    );
    await expect(
      rewriteHostsOffThread(original, 'server.xml', [host({ name: 'bad.example', appBase: 'a\u0001b' })], 'Catalina'),
    ).rejects.toThrow(PersistError);
  });

  it('5,000 removals from a 10,000-host file give the file with exactly the other 5,000 hosts, every other byte kept', () => {
    const hosts = Array.from({ length: 10_000 }, (_, i) => `      <Host name="h${i}.example" appBase="h${i}"/>\n`).join(
      '',
    );
    const original = SERVER('UTF-8').replace(
      '      <Host name="localhost" appBase="webapps"/>\n',
      `      <Host name="localhost" appBase="webapps"/>\n${hosts}`,
    );
    const kept = [
      host({ name: 'localhost', inServerXml: true }),
      ...Array.from({ length: 5_000 }, (_, i) =>
        host({ name: `h${2 * i}.example`, appBase: `h${2 * i}`, inServerXml: true }),
      ),
    ];
    const written = Buffer.from(rewriteHosts(Buffer.from(original), 'server.xml', kept, 'Catalina')!).toString('utf8');
    const expected = original.replace(/ {6}<Host name="h(\d+)\.example" appBase="h\d+"\/>\n/g, (line, n: string) =>
      Number(n) % 2 === 0 ? line : '',
    );
    expect(written).toBe(expected);
  });
});

describe('persist leaves the file system tidy', () => {
  async function persistOnce(base: string, name: string, keepBackups?: number): Promise<void> {
    const registry = HostRegistry.fromBase(loadBase({ base }));
    await registry.add({ name });
    let second = 0;
    const persister = createServerXmlPersister({
      registry,
      file: join(base, 'conf', 'server.xml'),
      keepBackups,
      now: () => new Date(2026, 0, 1, 12, 0, second++),
    });
    await persister.persist();
  }

  it("keeps server.xml's mode", async () => {
    const base = makeBase(serverXml({ storeConfig: true }));
    const file = join(base, 'conf', 'server.xml');
    chmodSync(file, 0o644);
    await persistOnce(base, 'mode.example');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    chmodSync(file, 0o640);
    await persistOnce(base, 'mode2.example');
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('removes temporary files a crashed persist left, and only those of dead processes', async () => {
    const base = makeBase(serverXml({ storeConfig: true }));
    const conf = join(base, 'conf');
    const stale = join(conf, '.server.xml.2147483646.a1b2c3.tmp');
    const live = join(conf, `.server.xml.${process.pid}.d4e5f6.tmp`);
    const other = join(conf, '.web.xml.2147483646.a1b2c3.tmp');
    for (const f of [stale, live, other]) writeFileSync(f, 'partial');
    expect(await removeStaleTemps(join(conf, 'server.xml'))).toEqual(['.server.xml.2147483646.a1b2c3.tmp']);
    expect([existsSync(stale), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });

  it('keeps the newest backups only, each a copy of its own (not a link that changes with the live file)', async () => {
    const base = makeBase(serverXml({ storeConfig: true }));
    const conf = join(base, 'conf');
    for (let i = 0; i < 5; i++) await persistOnce(base, `b${i}.example`, 3);
    const backups = readdirSync(conf)
      .filter((f) => /^server\.xml\.\d{4}-/.test(f))
      .sort();
    expect(backups).toHaveLength(3);
    const live = statSync(join(conf, 'server.xml'));
    for (const b of backups) {
      expect(statSync(join(conf, b)).ino).not.toBe(live.ino);
      expect(statSync(join(conf, b)).nlink).toBe(1);
    }
    // The newest backup holds the file as it was before the last persist.
    expect(readFileSync(join(conf, backups[2]!), 'utf8')).toContain('b3.example');
    expect(readFileSync(join(conf, backups[2]!), 'utf8')).not.toContain('b4.example');
  });

  it('orders backups by their time stamp and counter when rotating', async () => {
    const base = makeBase(serverXml());
    const conf = join(base, 'conf');
    const names = [
      'server.xml.2026-01-01.12-00-00-10',
      'server.xml.2026-01-01.12-00-00-9',
      'server.xml.2025-12-31.23-59-59-0',
      'server.xml.bak',
    ];
    for (const n of names) writeFileSync(join(conf, n), '');
    expect(await rotateBackups(join(conf, 'server.xml'), 1)).toEqual([
      'server.xml.2025-12-31.23-59-59-0',
      'server.xml.2026-01-01.12-00-00-9',
    ]);
    expect(existsSync(join(conf, 'server.xml.bak'))).toBe(true);
  });
});
