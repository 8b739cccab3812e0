import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isContextPathValid, loadBase, parseContextName } from '../../src/parser/index.js';
import type { CatalinaBase, LoadedContext } from '../../src/model/index.js';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-discovery-'));
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
const server = (hostAttrs: string) =>
  `<Server><Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" ${hostAttrs}/></Engine></Service></Server>`;
const contexts = (b: CatalinaBase): Record<string, LoadedContext> =>
  Object.fromEntries(b.hosts[0]!.contexts.map((c) => [c.path, c]));

describe('context names (ContextName)', () => {
  it('puts ROOT in front of an empty or version-only name', () => {
    expect(parseContextName('##2')).toEqual({ path: '', version: '2', name: 'ROOT##2' });
    expect(parseContextName('')).toEqual({ path: '', version: '', name: 'ROOT' });
  });

  it('accepts only names whose path is already normalised', () => {
    for (const ok of ['', '/a', '/a/b', '/.git', '/a..b', '/a/']) expect(isContextPathValid(ok), ok).toBe(true);
    for (const bad of ['//a', '/a//b', '/a/./b', '/a/../b', '/a/..', '/a/.', '/a\\b'])
      expect(isContextPathValid(bad), bad).toBe(false);
  });
});

describe('HostConfig discovery rules', () => {
  it('names an app directory and its descriptors as path.join does, whatever form the appBase is written in', () => {
    // other/ exists so that other/../webapps also names webapps for the file system (an absolute appBase is not normalised first).
    const files = {
      'webapps/shop/WEB-INF/web.xml': app('shop'),
      'webapps/shop/WEB-INF/tomcat-web.xml': app('tw'),
      'webapps/shop/META-INF/context.xml': '<Context/>',
      'other/.keep': '',
    };
    for (const appBase of ['webapps', 'webapps/', './webapps//', 'other/../webapps']) {
      const base = tree({ ...files, 'conf/server.xml': server(`appBase="${appBase}"`) });
      for (const written of [appBase, `${base}/${appBase}`]) {
        writeFileSync(join(base, 'conf', 'server.xml'), server(`appBase="${written}"`));
        const b = loadBase({ base });
        const shop = contexts(b)['/shop']!;
        const dir = join(base, 'webapps', 'shop');
        expect(shop.docBase, written).toBe(dir);
        expect(shop.webXml?.file).toBe(join(dir, 'WEB-INF', 'web.xml'));
        expect(shop.tomcatWebXml?.file).toBe(join(dir, 'WEB-INF', 'tomcat-web.xml'));
        expect(shop.contextDef).not.toBeNull();
        expect([...b.files.keys()]).toContain(join(dir, 'META-INF', 'context.xml'));
      }
    }
  });

  it('ignores a context file docBase inside appBase and uses appBase/<name>, as Tomcat does ("will be ignored")', () => {
    const base = tree({
      'conf/server.xml': server('appBase="webapps"'),
      'conf/Catalina/localhost/shop.xml': '<Context docBase="other"/>',
      'webapps/other/WEB-INF/web.xml': app('other'),
      'webapps/shop/WEB-INF/web.xml': app('shop'),
    });
    const c = contexts(loadBase({ base }));
    expect(c['/shop']!.docBase).toBe(join(base, 'webapps', 'shop'));
    expect(c['/shop']!.source).toBe('context-file');
    expect(c['/shop']!.webXml!.file).toBe(join(base, 'webapps', 'shop', 'WEB-INF', 'web.xml'));
    expect(c['/other']!.source).toBe('app-dir');
  });

  it('lets a context file with an external docBase hide the directory of the same name', () => {
    const base = tree({
      'conf/Catalina/localhost/shop.xml': '<Context docBase="${catalina.base}/external/shop"/>',
      'external/shop/WEB-INF/web.xml': app('external'),
      'webapps/shop/WEB-INF/web.xml': app('hidden'),
    });
    const c = contexts(loadBase({ base }));
    expect(c['/shop']!.docBase).toBe(join(base, 'external', 'shop'));
    expect(c['/shop']!.webXml!.file).toBe(join(base, 'external', 'shop', 'WEB-INF', 'web.xml'));
  });

  it('lists a context file pointing at an external WAR without reading it', () => {
    const base = tree({
      'conf/Catalina/localhost/legacy.xml': '<Context docBase="${catalina.base}/wars/legacy.war"/>',
      'wars/legacy.war': 'PK',
    });
    const b = loadBase({ base });
    expect(contexts(b)['/legacy']).toMatchObject({
      source: 'context-file',
      webXml: null,
      docBase: join(base, 'wars', 'legacy.war'),
    });
    expect(b.diagnostics.map((d) => d.ruleId)).toContain('war-not-read');
  });

  it('reads context files from xmlBase instead of conf/<Engine>/<Host>, and web.xml.default there too', () => {
    const base = tree({
      'conf/server.xml': server('appBase="webapps" xmlBase="descriptors"'),
      'descriptors/api.xml': '<Context docBase="/srv/api"/>',
      'descriptors/web.xml.default': app('host default'),
      'conf/Catalina/localhost/unused.xml': '<Context docBase="/srv/unused"/>',
    });
    const b = loadBase({ base });
    expect(Object.keys(contexts(b))).toEqual(['/api']);
    expect(b.hosts[0]!.webXmlDefault!.file).toBe(join(base, 'descriptors', 'web.xml.default'));
  });

  it('skips appBase entries matching deployIgnore (whole name), but not context files', () => {
    const base = tree({
      'conf/server.xml': server('appBase="webapps" deployIgnore="tmp.*|backup"'),
      'conf/Catalina/localhost/backup.xml': '<Context docBase="/srv/backup"/>',
      'webapps/tmp-1/WEB-INF/web.xml': app('tmp'),
      'webapps/backup-old/WEB-INF/web.xml': app('kept: not a whole match'),
      'webapps/app/WEB-INF/web.xml': app('app'),
    });
    expect(Object.keys(contexts(loadBase({ base }))).sort()).toEqual(['/app', '/backup', '/backup-old']);
  });

  it('deploys a dot-directory as Tomcat does, skips META-INF/WEB-INF in any case, and names with invalid paths', () => {
    const base = tree({
      'webapps/.git/HEAD': 'ref',
      'webapps/meta-inf/x': '',
      'webapps/Web-Inf/x': '',
      'webapps/a#.#b/index.html': '',
      'webapps/#lead/index.html': '',
      'webapps/ok/index.html': '',
    });
    expect(Object.keys(contexts(loadBase({ base }))).sort()).toEqual(['/.git', '/ok']);
  });

  it('reads the expanded directory of a WAR, or the WAR alone when unpackWARs is false', () => {
    const files = { 'webapps/shop.war': 'PK', 'webapps/shop/WEB-INF/web.xml': app('expanded') };
    const unpacked = contexts(loadBase({ base: tree({ ...files, 'conf/server.xml': server('appBase="webapps"') }) }));
    expect(unpacked['/shop']!.webXml).not.toBeNull();
    const packed = contexts(
      loadBase({ base: tree({ ...files, 'conf/server.xml': server('appBase="webapps" unpackWARs="false"') }) }),
    );
    expect(packed['/shop']).toMatchObject({ webXml: null });
    expect(packed['/shop']!.docBase.endsWith('shop.war')).toBe(true);
  });

  it('deploys nothing from appBase when both deployOnStartup and autoDeploy are false', () => {
    const files = {
      'webapps/app/WEB-INF/web.xml': app('app'),
      'conf/Catalina/localhost/x.xml': '<Context docBase="/srv/x"/>',
    };
    expect(
      contexts(
        loadBase({ base: tree({ ...files, 'conf/server.xml': server('deployOnStartup="false" autoDeploy="false"') }) }),
      ),
    ).toEqual({});
    expect(
      Object.keys(
        contexts(loadBase({ base: tree({ ...files, 'conf/server.xml': server('deployOnStartup="false"') }) })),
      ).sort(),
    ).toEqual(['/app', '/x']);
  });

  it('treats ROOT##2.xml and a ##2.xml descriptor as the same context, and an upper-case .XML as a descriptor', () => {
    const base = tree({
      'conf/Catalina/localhost/##2.xml': '<Context docBase="/srv/root2"/>',
      'conf/Catalina/localhost/API.XML': '<Context docBase="/srv/api"/>',
      'webapps/ROOT##2/index.html': '',
    });
    const c = loadBase({ base }).hosts[0]!.contexts;
    expect(c.map((x) => [x.path, x.version, x.source])).toEqual([
      ['', '2', 'context-file'],
      ['/API', '', 'context-file'],
    ]);
  });

  it('follows a symbolic link to an application directory in appBase', () => {
    const base = tree({ 'real/app/WEB-INF/web.xml': app('linked') });
    mkdirSync(join(base, 'webapps'));
    symlinkSync(join(base, 'real', 'app'), join(base, 'webapps', 'linked'));
    expect(contexts(loadBase({ base }))['/linked']!.webXml).not.toBeNull();
  });
});

describe('${...} in descriptors of a base', () => {
  it('replaces references in web.xml values from conf/catalina.properties, as observed on Tomcat 10.1.60', () => {
    // Observed: antiClickJackingOption ${my.xfo} with my.xfo=SAMEORIGIN in catalina.properties sent X-Frame-Options: SAMEORIGIN;
    // an unknown ${no.such.prop} stayed literal (and the filter refused it).
    const filter = (v: string) =>
      `<web-app><filter><filter-name>h</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class><init-param><param-name>antiClickJackingOption</param-name><param-value> ${v} </param-value></init-param></filter></web-app>`;
    const base = tree({
      'conf/catalina.properties': 'my.xfo=SAMEORIGIN\nlogs=${catalina.base}/logs\n',
      'webapps/app/WEB-INF/web.xml': filter('${my.xfo}'),
      'webapps/bad/WEB-INF/web.xml': filter('${no.such.prop}'),
      'webapps/dir/WEB-INF/web.xml': filter('${logs}:${java.io.tmpdir}'),
    });
    const b = loadBase({ base });
    const value = (p: string) => contexts(b)[p]!.webXml!.filters[0]!.initParams[0]!.value;
    expect(value('/app').value).toBe('SAMEORIGIN');
    expect(value('/bad').value).toBe('${no.such.prop}');
    expect(value('/dir').value).toBe(`${base}/logs:${base}/temp`);
    // The span still covers what is written in the file.
    const src = b.files.get(join(base, 'webapps', 'app', 'WEB-INF', 'web.xml'))!.text;
    expect(src.slice(value('/app').span.offset, value('/app').span.endOffset)).toBe('${my.xfo}');
    expect(b.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('replaces references in tomcat-users.xml attributes', () => {
    const base = tree({
      'conf/catalina.properties': 'admin.pw=s3cret\n',
      'conf/tomcat-users.xml':
        '<tomcat-users><user username="admin" password="${admin.pw}" roles="admin-gui"/></tomcat-users>',
    });
    expect(loadBase({ base }).users!.users[0]!.password!.value).toBe('s3cret');
  });
});

describe('context descriptors that are not regular files', () => {
  it('says a FIFO or a directory named *.xml in conf/Catalina/localhost was not read, and deploys no context for it', () => {
    const base = tree({ 'conf/server.xml': server('appBase="webapps"'), 'webapps/ROOT/WEB-INF/web.xml': app('root') });
    const localhost = join(base, 'conf', 'Catalina', 'localhost');
    mkdirSync(join(localhost, 'dir.xml'), { recursive: true });
    execFileSync('mkfifo', [join(localhost, 'fifo.xml')]);
    const b = loadBase({ base });
    expect(Object.keys(contexts(b)).sort()).toEqual(['']);
    const said = (name: string) =>
      b.diagnostics
        .filter((d) => d.span.file === join(localhost, name))
        .map((d) => `${d.ruleId} ${d.severity} ${d.message}`);
    expect(said('fifo.xml')).toEqual([
      `file-unreadable error Not reading ${join(localhost, 'fifo.xml')}: it is not a regular file (a device, FIFO or socket), which tollgate never reads.`,
    ]);
    expect(said('dir.xml')).toHaveLength(1);
    expect(said('dir.xml')[0]).toMatch(/^file-unreadable error .*it is a directory/);
  });
});
