import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';

const repo = join(import.meta.dirname, '..', '..');
const example = join(repo, 'examples', 'base');
const fixture = (name: string): string => join(repo, 'test', 'fixtures', 'ordering', name);

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: repo });
  return { code, out, err };
}

const filterNames = (out: string): string[] => [...out.matchAll(/^\s+\d+\. (\S+)/gm)].map((m) => m[1]!);

interface ChainJson {
  host: string;
  context: string;
  path: string;
  startup: string;
  servlet: { servletName: string; kind: string; requestPath: string; welcomeFile?: string } | null;
  filters: {
    name: string;
    class: string;
    origin: string;
    declared: string;
    initParams: Record<string, string>;
    matchedBy: { kind: string; value: string; at: string };
    mapping: string;
  }[];
}

describe('tollgate chain --path', () => {
  it('lists the filters of one request in order, with where each was declared and what matched', async () => {
    const r = await run(['chain', '--base', example, '--path', '/api/items']);
    expect(r.code).toBe(0);
    expect(filterNames(r.out)).toEqual(['setCharacterEncoding', 'CorsFilter', 'RestCSRF', 'httpHeaderSecurity']);
    expect(r.out).toContain('examples/base/webapps/api/WEB-INF/web.xml:20:3');
  });

  it('prints the order Tomcat ran (host web.xml.default, welcome file) with file:line of the matching url-pattern', async () => {
    const r = await run(['chain', '--base', fixture('host-web-xml-default'), '--host', 'other', '--path', '/']);
    expect(r.code).toBe(0);
    expect(filterNames(r.out)).toEqual(['O', 'G1', 'HD', 'G2']);
    expect(r.out).toMatch(
      /servlet default via "\/" \(default, welcome file "home\.html"\); filters match \/home\.html/,
    );
    expect(r.out).toContain(
      'matched url-pattern "/*" at test/fixtures/ordering/host-web-xml-default/conf/Catalina/other/web.xml.default:10:18',
    );
    expect(r.out).toContain(
      'matched servlet-name "default" at test/fixtures/ordering/host-web-xml-default/conf/web.xml:',
    );
  });

  it('prints JSON with the servlet, the matched mapping and the effective init-params', async () => {
    const r = await run([
      'chain',
      '--base',
      fixture('app-redefines-global'),
      '--path',
      '/redefine/index.html',
      '--format',
      'json',
    ]);
    const doc = JSON.parse(r.out) as ChainJson;
    expect(doc).toMatchObject({ host: 'localhost', context: '/redefine', path: '/index.html', startup: 'starts' });
    expect(doc.servlet).toMatchObject({ servletName: 'default', kind: 'default', requestPath: '/index.html' });
    expect(doc.filters.map((f) => f.name)).toEqual(['G1', 'G2']);
    expect(doc.filters[0]).toMatchObject({
      origin: 'app',
      class: 'probe.ProbeFilter',
      initParams: { probe: 'app', extra: 'from-global' },
    });
    expect(doc.filters[0]!.matchedBy).toMatchObject({ kind: 'url-pattern', value: '/*' });
    expect(doc.filters[0]!.matchedBy.at).toMatch(/ordering\/app-redefines-global\/conf\/web\.xml:\d+:\d+$/);
  });

  it('follows --dispatcher and decodes the path as Tomcat does', async () => {
    expect(
      filterNames(
        (await run(['chain', '--base', fixture('dispatchers'), '--path', '/app/error.html', '--dispatcher', 'error']))
          .out,
      ),
    ).toEqual(['ERR', 'BOTH']);
    expect(
      filterNames(
        (await run(['chain', '--base', fixture('url-pattern-text'), '--path', '/encoded/enc%20dir/a.html?x=1'])).out,
      ),
    ).toEqual(['Q', 'G1', 'G2']);
  });

  it('takes --path relative to --context', async () => {
    const r = await run([
      'chain',
      '--base',
      fixture('context-in-server-xml'),
      '--context',
      '/nested/deep/',
      '--path',
      '/index.html',
    ]);
    expect(r.out).toMatch(/^localhost\/nested\/deep {2}\/index\.html/m);
    expect(filterNames(r.out)).toEqual(['DEEP', 'G1', 'G2']);
  });

  it('says when an unknown Host falls back to the default host', async () => {
    const r = await run([
      'chain',
      '--base',
      fixture('host-selection'),
      '--host',
      'nobody.example',
      '--path',
      '/index.html',
    ]);
    expect(r.out).toMatch(/no host "nobody\.example": the default host localhost answers/);
    expect(filterNames(r.out)).toEqual(['LOCAL', 'G1', 'G2']);
  });

  it('says that no filter runs when no servlet matches', async () => {
    const r = await run([
      'chain',
      '--base',
      fixture('app-remaps-default-servlets'),
      '--path',
      '/static-only/other.html',
    ]);
    expect(r.out).toMatch(/no servlet matches/);
    expect(r.out).toMatch(/no filter runs/);
  });

  it('warns when Tomcat would not start the context, and answers with the context that gets its requests', async () => {
    const alone = await run(['chain', '--base', fixture('duplicate-filter-name'), '--path', '/dup/index.html']);
    expect(alone.code).toBe(0);
    expect(alone.out).toMatch(
      /! localhost\/dup: Tomcat does not start this context: \S*webapps\/dup\/WEB-INF\/web\.xml:8:18: Filter "X" is already defined.*; its requests go to no context \(404\)/,
    );
    const withRoot = await run([
      'chain',
      '--base',
      fixture('failed-context-falls-to-root'),
      '--path',
      '/dup/index.html',
    ]);
    expect(withRoot.out).toMatch(/its requests go to localhost\/$/m);
    expect(filterNames(withRoot.out)).toEqual(['R', 'G1', 'G2']);
  });

  it('warns in the list of contexts, too', async () => {
    const r = await run(['chain', '--base', fixture('duplicate-filter-name'), '--context', '/dup']);
    expect(r.out).toMatch(/^ {2}! Tomcat does not start this context: \S*web\.xml:8:18: Filter "X"/m);
  });
});

describe('tollgate chain without --path', () => {
  it('lists every context with its mappings in order', async () => {
    const r = await run(['chain', '--base', example]);
    expect(r.out).toMatch(/^localhost\/api /m);
    expect(r.out).toMatch(/^partners\.localhost\/ /m);
  });

  it('lists the mappings of one context in Tomcat order, with origin and place', async () => {
    const r = await run(['chain', '--base', fixture('app-maps-global-name'), '--context', '/app']);
    expect(
      r.out
        .split('\n')
        .filter((l) => /^\s+\d+\./.test(l))
        .map((l) => l.trim().replace(/ {2}\(.*$/, '')),
    ).toEqual(['1. G1  probe.ProbeFilter  "/x/*"  [REQUEST]', '2. G2  probe.ProbeFilter  servlet default  [REQUEST]']);
    expect(r.out).toContain('(app, test/fixtures/ordering/app-maps-global-name/webapps/app/WEB-INF/web.xml:3:3)');
    expect(r.out).toContain('(global, test/fixtures/ordering/app-maps-global-name/conf/web.xml:14:3)');
  });

  it('prints JSON per context, for one host', async () => {
    const r = await run(['chain', '--base', fixture('host-web-xml-default'), '--host', 'other', '--format', 'json']);
    const doc = JSON.parse(r.out) as {
      host: string;
      context: string;
      welcomeFiles: string[];
      mappings: { filter: string; origin: string }[];
    }[];
    expect(doc).toHaveLength(1);
    expect(doc[0]).toMatchObject({ host: 'other', context: '/', welcomeFiles: ['home.html'] });
    expect(doc[0]!.mappings.map((m) => `${m.filter}:${m.origin}`)).toEqual([
      'O:app',
      'G2:global',
      'G1:global',
      'HD:host',
    ]);
  });
});

describe('tollgate chain usage errors', () => {
  it.each([
    [['--base', join(repo, 'no-such-dir')], /--base .* is neither a directory/],
    [['--base', example, '--path', 'api/items'], /--path must start with "\/"/],
    [['--base', example, '--path', '/a%zz'], /not followed by two hexadecimal digits/],
    [
      ['--base', example, '--path', '/', '--dispatcher', 'NOPE'],
      /Argument: dispatcher, Given: "NOPE", Choices: "REQUEST", "FORWARD"/,
    ],
    [['--base', example, '--context', '/nope'], /no context "\/nope"/],
    [['--base', example, '--context', '/nope', '--path', '/x'], /no context "\/nope"/],
    [['--base', example, '--home', join(repo, 'no-such-home')], /--home .* does not exist/],
  ])('%j exits 2 with one line', async (args, message) => {
    const r = await run(['chain', ...args]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message);
  });

  it('exits 2 for an unknown option or format', async () => {
    expect((await run(['chain', '--base', example, '--bogus'])).code).toBe(2);
    expect((await run(['chain', '--base', example, '--format', 'xml'])).code).toBe(2);
  });
});
