import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBase } from '../../src/parser/index.js';
import type { CatalinaBase, LoadedContext } from '../../src/model/index.js';

/** The shared example bases (test/fixtures/bases, see its README): what loadBase reads from each. */
const bases = join(import.meta.dirname, '..', 'fixtures', 'bases');
const load = (name: string) => loadBase({ base: join(bases, name) });
const byPath = (b: CatalinaBase, host: string): Record<string, LoadedContext> =>
  Object.fromEntries(b.hosts.find((h) => h.name === host)!.contexts.map((c) => [c.path, c]));
const param = (c: LoadedContext, name: string) => c.webXml!.contextParams.find((p) => p.name.value === name)!.value;

describe('fixture base two-hosts', () => {
  const b = load('two-hosts');

  it('reads without any finding', () => {
    expect(b.diagnostics).toEqual([]);
  });

  it('has two hosts with their aliases, appBases and host default', () => {
    expect(b.hosts.map((h) => [h.name, h.aliases, h.appBase, h.webXmlDefault !== null])).toEqual([
      ['localhost', ['www.example.test'], join(b.base, 'webapps'), false],
      ['api.example.test', [], join(b.base, 'api-apps'), true],
    ]);
    expect(b.globalWebXml!.filters.map((f) => f.name.value)).toEqual(['httpHeaderSecurity']);
    expect(b.users!.users.map((u) => [u.username.value, u.roles.map((r) => r.value)])).toEqual([
      ['admin', ['admin-gui', 'admin-script']],
      ['viewer', ['manager-status']],
    ]);
  });

  it('finds each context where Tomcat finds it', () => {
    const local = byPath(b, 'localhost');
    expect(Object.values(local).map((c) => [c.path, c.version, c.source, c.webXml?.generation ?? null])).toEqual([
      ['', '', 'app-dir', '6.0'],
      ['/docs', '', 'context-file', '3.1'],
      ['/shop/admin', '2', 'app-dir', '4.0'],
      ['/static', '', 'app-dir', null],
      ['/status', '', 'server-xml', null],
    ]);
    expect(local['/docs']!.docBase).toBe(join(b.base, 'external', 'docs'));
    expect(local['/status']!.docBase).toBe(join(b.base, 'external', 'status'));
  });

  it('resolves ${...} from conf/catalina.properties in server.xml and web.xml', () => {
    const connector = b.serverXml!.services[0]!.connectors[0]!;
    expect(connector.attributes['port']!.value).toBe('8080');
    const cors = byPath(b, 'api.example.test')['']!.webXml!.filters.find((f) => f.name.value === 'cors')!;
    expect(cors.initParams[0]!.value.value).toBe('https://www.example.test');
  });
});

describe('fixture base encodings', () => {
  const b = load('encodings');
  const apps = byPath(b, 'localhost');

  it('decodes each descriptor in its own encoding', () => {
    expect(param(apps['/latin1']!, 'greeting').value).toBe('Bonjour caf\u00e9');
    expect(param(apps['/cp1252']!, 'greeting').value).toBe('\u201c5 \u20ac\u201d');
    expect(param(apps['/utf16']!, 'greeting').value).toBe('\u00e9t\u00e9 \u{1f31e}');
    const enc = (app: string) => b.files.get(join(b.base, 'webapps', app, 'WEB-INF', 'web.xml'))!;
    expect([enc('latin1').encoding, enc('cp1252').encoding, enc('utf16').encoding, enc('prefixed').encoding]).toEqual([
      'iso-8859-1',
      'windows-1252',
      'utf-16le',
      'utf-8',
    ]);
    expect([enc('utf16').bom, enc('prefixed').bom]).toEqual([true, true]);
    expect(apps['/latin1']!.webXml!.generation).toBe('2.3');
  });

  it('locates values exactly after non-ASCII text, in UTF-16 code units', () => {
    const v = param(apps['/utf16']!, 'greeting');
    const text = b.files.get(v.span.file)!.text;
    expect(text.slice(v.span.offset, v.span.endOffset)).toBe('\u00e9t\u00e9 \u{1f31e}');
    expect(v.span.endColumn - v.span.column).toBe(6);
    const line = text.split('\n')[v.span.line - 1]!;
    expect(line.indexOf('\u00e9t\u00e9') + 1).toBe(v.span.column);
  });

  it('counts CRLF line endings and tabs in server.xml as one line break and one column', () => {
    const host = b.serverXml!.services[0]!.engine!.hosts[0]!;
    expect(host.appBase!.span).toMatchObject({ line: 7, column: 36, endLine: 7, endColumn: 43 });
    expect(b.files.get(host.appBase!.span.file)!.comments![0]!.value).toContain('caf\u00e9 \u{1f600}');
  });

  it('reads the prefixed descriptor as Tomcat does: not at all', () => {
    expect(apps['/prefixed']!.webXml).toBeNull();
    expect(b.diagnostics.map((d) => [d.ruleId, d.span.file])).toEqual([
      ['xml-wrong-root', join(b.base, 'webapps', 'prefixed', 'WEB-INF', 'web.xml')],
    ]);
  });
});

describe('fixture base broken', () => {
  const b = load('broken');

  it('reports one finding per broken file and still reads the rest', () => {
    const found = b.diagnostics.map((d) => `${d.ruleId} ${d.span.file.slice(b.base.length + 1)}`);
    expect(found.sort()).toEqual([
      'server-unresolved-property conf/server.xml',
      'war-not-read webapps/packed.war',
      'xml-entity-expansion webapps/xxe/WEB-INF/web.xml',
      'xml-external-entity webapps/xxe/WEB-INF/web.xml',
      'xml-malformed webapps/malformed/WEB-INF/web.xml',
      'xml-wrong-root conf/tomcat-users.xml',
      'xml-wrong-root webapps/wrong-root/WEB-INF/web.xml',
    ]);
    const apps = byPath(b, 'localhost');
    expect(apps['/ok']!.webXml!.filters).toHaveLength(1);
    expect(apps['/malformed']!.webXml!.malformed).toBeDefined();
    expect(apps['/xxe']!.webXml!.malformed).toBeDefined();
    expect(apps['/no-class']!.webXml!.filters[0]!.className).toBeNull();
    expect(apps['/inside']!.docBase).toBe(join(b.base, 'webapps', 'inside'));
  });
});
