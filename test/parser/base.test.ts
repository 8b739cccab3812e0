import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadBase,
  parseContextName,
  parseJavaProperties,
  parseServerXml,
  parseTomcatUsers,
  resolveProperties,
} from '../../src/parser/index.js';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-base-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const app = (name: string) => `<web-app><display-name>${name}</display-name></web-app>`;

describe('context names', () => {
  it('maps ROOT, # and ## as Tomcat does', () => {
    expect(parseContextName('ROOT')).toEqual({ path: '', version: '', name: 'ROOT' });
    expect(parseContextName('foo#bar##2')).toEqual({ path: '/foo/bar', version: '2', name: 'foo#bar##2' });
    expect(parseContextName('ROOT##1.0')).toEqual({ path: '', version: '1.0', name: 'ROOT##1.0' });
  });
});

describe('loadBase', () => {
  it('discovers hosts, aliases and contexts from server.xml, context files and appBase directories', () => {
    const base = tree({
      'conf/server.xml': `<Server><Service name="S"><Engine name="E" defaultHost="a"><Host name="a" appBase="apps"><Alias>www.a</Alias><Context path="/inline" docBase="/elsewhere"/></Host><Host name="b"/></Engine></Service></Server>`,
      'conf/web.xml': app('global'),
      'conf/E/a/web.xml.default': app('host default'),
      'conf/E/a/ext.xml': `<Context docBase="../outside/ext"/>`,
      'outside/ext/WEB-INF/web.xml': app('ext'),
      'apps/ROOT/WEB-INF/web.xml': app('root'),
      'apps/shop#admin##3/WEB-INF/web.xml': app('versioned'),
      'apps/ext/WEB-INF/web.xml': app('shadowed by the context file'),
      'apps/legacy.war': 'PK',
      'webapps/x/index.html': '',
    });
    const b = loadBase({ base });
    expect(b.engineName).toBe('E');
    expect(b.defaultHost).toBe('a');
    const a = b.hosts.find((h) => h.name === 'a')!;
    expect(a.aliases).toEqual(['www.a']);
    expect(a.webXmlDefault).not.toBeNull();
    const byPath = Object.fromEntries(a.contexts.map((c) => [c.path, c]));
    expect(Object.keys(byPath).sort()).toEqual(['', '/ext', '/inline', '/legacy', '/shop/admin']);
    expect(byPath['/inline']!.source).toBe('server-xml');
    expect(byPath['/ext']!.source).toBe('context-file');
    expect(byPath['/ext']!.docBase).toBe(join(base, 'outside', 'ext'));
    expect(byPath['/shop/admin']!.version).toBe('3');
    expect(byPath['/legacy']!.webXml).toBeNull();
    expect(b.diagnostics.map((d) => d.ruleId)).toContain('war-not-read');
    const hostB = b.hosts.find((h) => h.name === 'b')!;
    expect(hostB.appBase).toBe(join(base, 'webapps'));
    expect(hostB.contexts.map((c) => c.path)).toEqual(['/x']);
  });

  it('reads conf/web.xml and catalina.properties from the base only, never the home (Tomcat 10.1.60 logged "No global web.xml found")', () => {
    const home = tree({ 'conf/web.xml': app('from home'), 'conf/catalina.properties': 'from.home=1\n' });
    const base = tree({ 'webapps/ROOT/index.html': '' });
    const b = loadBase({ base, home });
    expect(b.globalWebXml).toBeNull();
    expect(b.properties['from.home']).toBeUndefined();
    expect(b.properties['catalina.home']).toBe(home);
    expect(b.hosts[0]!.name).toBe('localhost');
    expect(b.diagnostics.map((d) => d.ruleId)).not.toContain('base-unreadable');
  });

  it('keeps reading the base when one file is broken', () => {
    const base = tree({
      'conf/server.xml':
        '<Server><Service><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
      'conf/tomcat-users.xml': 'not xml',
      'webapps/broken/WEB-INF/web.xml': '<web-app><filter>',
      'webapps/good/WEB-INF/web.xml':
        '<web-app><filter><filter-name>f</filter-name><filter-class>a.B</filter-class></filter></web-app>',
    });
    const b = loadBase({ base });
    const ctx = Object.fromEntries(b.hosts[0]!.contexts.map((c) => [c.path, c]));
    expect(ctx['/good']!.webXml!.filters).toHaveLength(1);
    const files = b.diagnostics.filter((d) => d.severity === 'error').map((d) => d.span.file);
    expect(files).toContain(join(base, 'webapps', 'broken', 'WEB-INF', 'web.xml'));
    expect(files).toContain(join(base, 'conf', 'tomcat-users.xml'));
  });

  it('reports a missing base instead of throwing', () => {
    const b = loadBase({ base: '/nonexistent/tollgate' });
    expect(b.diagnostics[0]!.ruleId).toBe('base-unreadable');
  });

  it('reads users from the UserDatabase pathname', () => {
    const base = tree({
      'conf/server.xml':
        '<Server><GlobalNamingResources><Resource name="UserDatabase" type="org.apache.catalina.UserDatabase" pathname="conf/users-alt.xml"/></GlobalNamingResources></Server>',
      'conf/users-alt.xml': '<tomcat-users><user username="u" password="p" roles="admin-script"/></tomcat-users>',
    });
    expect(loadBase({ base }).users!.users[0]!.username.value).toBe('u');
  });
});

describe('properties in server.xml', () => {
  it('resolves ${name}, ${name:-default} and reports unresolved names', () => {
    const props = { 'catalina.base': '/b', 'http.port': '8081' };
    expect(resolveProperties('${catalina.base}/x', props).value).toBe('/b/x');
    expect(resolveProperties('${missing:-9}', props).value).toBe('9');
    expect(resolveProperties('${nope}', props)).toEqual({ value: '${nope}', unresolved: ['nope'] });
    const text = '<Server><Service><Connector port="${http.port}" address="${bind.address}"/></Service></Server>';
    const r = parseServerXml(text, 's.xml', props);
    expect(r.serverXml!.services[0]!.connectors[0]!.attributes['port']!.value).toBe('8081');
    const d = r.diagnostics.find((x) => x.ruleId === 'server-unresolved-property')!;
    expect(d.message).toContain('bind.address');
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('${bind.address}');
  });

  it('parses catalina.properties with continuations and escapes', () => {
    expect(parseJavaProperties('a=1\nb = two \\\n  parts\n# c=3\nd:\\u0041')).toEqual({
      a: '1',
      b: 'two parts',
      d: 'A',
    });
  });
});

describe('tomcat-users.xml', () => {
  it('splits roles with their own spans', () => {
    const text =
      '<tomcat-users xmlns="http://tomcat.apache.org/xml"><user username="a" password="p" roles="admin-gui, admin-script"/></tomcat-users>';
    const { users } = parseTomcatUsers(text, 'u.xml');
    const roles = users!.users[0]!.roles;
    expect(roles.map((r) => r.value)).toEqual(['admin-gui', 'admin-script']);
    expect(text.slice(roles[1]!.span.offset, roles[1]!.span.endOffset)).toBe('admin-script');
  });
});
