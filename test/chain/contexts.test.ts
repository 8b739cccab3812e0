import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextsOf, findContext, findHost, mergedOf } from '../../src/chain/index.js';
import type { CatalinaBase } from '../../src/model/index.js';
import { loadBase } from '../../src/parser/index.js';

let dir: string;
let base: CatalinaBase;

const app = (filterName: string): string =>
  `<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"><filter><filter-name>${filterName}</filter-name><filter-class>x.F</filter-class></filter><filter-mapping><filter-name>${filterName}</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-contexts-'));
  const files: Record<string, string> = {
    'conf/server.xml': `<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"><Context path="/nested/deep" docBase="\${catalina.base}/deep"/></Host>
      <Host name="other.example" appBase="other"><Alias>alias.example</Alias></Host>
      <Host name="wildhost" appBase="wild"><Alias>*.wild.example</Alias></Host>
    </Engine></Service></Server>`,
    'conf/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>',
    'webapps/ROOT/WEB-INF/web.xml': app('ROOT'),
    'webapps/nested/WEB-INF/web.xml': app('NESTED'),
    'deep/WEB-INF/web.xml': app('DEEP'),
    'other/ROOT/WEB-INF/web.xml': app('OTHER'),
    'wild/ROOT/WEB-INF/web.xml': app('WILD'),
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  base = loadBase({ base: dir });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findHost (Mapper host selection)', () => {
  it.each([
    ['localhost', 'localhost'],
    ['LOCALHOST:8080', 'localhost'],
    ['other.example', 'other.example'],
    ['Alias.Example:80', 'other.example'],
    ['a.wild.example', 'wildhost'],
    ['a.b.wild.example', 'localhost'],
    ['unknown.example', 'localhost'],
    ['', 'localhost'],
    [undefined, 'localhost'],
  ])('%j is served by %s', (header, host) => {
    expect(findHost(base, header)?.name).toBe(host);
  });
});

describe('findContext', () => {
  it.each([
    ['/', '', '/'],
    ['/index.html', '', '/index.html'],
    ['/nested', '/nested', ''],
    ['/nested/x', '/nested', '/x'],
    ['/nestedx', '', '/nestedx'],
    ['/nested/deep/a', '/nested/deep', '/a'],
    ['/nested/deeper/a', '/nested', '/deeper/a'],
  ])('%s goes to context %j with path %j', (uri, context, path) => {
    const m = findContext(base, 'localhost', uri)!;
    expect(m.context.path).toBe(context);
    expect(m.path).toBe(path);
    expect(m.merged).toBe(mergedOf(base, m.host, m.context));
  });

  it('finds the context on the host the Host header names', () => {
    expect(findContext(base, 'alias.example', '/x')!.merged.filterMappings[0]!.filterName).toBe('OTHER');
  });

  it('keeps the one-host form', () => {
    const host = findHost(base, 'localhost')!;
    expect(findContext(host, '/nested/deep')?.path).toBe('/nested/deep');
  });

  it('lists every context with its merged configuration once', () => {
    const all = contextsOf(base);
    expect(all.map((c) => `${c.host.name}${c.context.path || '/'}`).sort()).toEqual([
      'localhost/',
      'localhost/nested',
      'localhost/nested/deep',
      'other.example/',
      'wildhost/',
    ]);
    expect(contextsOf(base)[0]!.merged).toBe(all[0]!.merged);
  });
});
