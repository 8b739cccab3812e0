import { describe, expect, it } from 'vitest';
import { effectiveChain, mergeWebApp, resolveServlet, selectorTableOf } from '../../src/chain/index.js';
import type { Dispatcher } from '../../src/model/index.js';
import { appXml, filter, globalXml, mapping, servlet, servletMapping, STANDARD_GLOBAL, welcome } from './helpers.js';

const global = globalXml(
  STANDARD_GLOBAL + filter('G1') + filter('G2') + mapping('G2', { servlets: ['default'] }) + mapping('G1'),
);
const order = (
  app: ReturnType<typeof mergeWebApp>,
  path: string,
  d: Dispatcher = 'REQUEST',
  exists?: (p: string) => boolean,
): string[] => effectiveChain(app, path, d, exists).entries.map((e) => e.filter.name);

describe('resolveServlet (the Mapper)', () => {
  const app = mergeWebApp(
    global,
    null,
    appXml(
      ['exact', 'api', 'v2', 'do', 'root', 'all'].map((s) => servlet(`s_${s}`)).join('') +
        servletMapping('s_exact', '/exact') +
        servletMapping('s_api', '/api/*') +
        servletMapping('s_v2', '/api/v2/*') +
        servletMapping('s_do', '*.do') +
        servletMapping('s_root', ''),
    ),
  );

  it.each([
    ['/exact', 's_exact', 'exact', '/exact'],
    ['/exact/', 'default', 'default', '/exact/'],
    ['/api', 's_api', 'path', '/api'],
    ['/api/x', 's_api', 'path', '/api/x'],
    ['/api/v2', 's_v2', 'path', '/api/v2'],
    ['/api/v2/y/z', 's_v2', 'path', '/api/v2/y/z'],
    ['/api/a.do', 's_api', 'path', '/api/a.do'],
    ['/apix/a', 'default', 'default', '/apix/a'],
    ['/a.do', 's_do', 'extension', '/a.do'],
    ['/', 's_root', 'context-root', '/'],
    ['/x/index.jsp', 'jsp', 'extension', '/x/index.jsp'],
    ['/x.html', 'default', 'default', '/x.html'],
    ['/API/x', 'default', 'default', '/API/x'],
  ])('%s goes to %s (%s)', (path, servletName, kind, requestPath) => {
    expect(resolveServlet(app, path)).toMatchObject({ servletName, kind, requestPath });
  });

  it('redirects the bare context path unless a "/*" servlet takes it', () => {
    expect(resolveServlet(app, '')).toBeNull();
    const all = mergeWebApp(global, null, appXml(servlet('all') + servletMapping('all', '/*')));
    expect(resolveServlet(all, '')).toMatchObject({ servletName: 'all', kind: 'path', requestPath: '' });
  });

  it('finds no servlet when the app moved the default servlet away from "/"', () => {
    const m = mergeWebApp(global, null, appXml(servletMapping('default', '/static/*')));
    expect(resolveServlet(m, '/other.html')).toBeNull();
    expect(effectiveChain(m, '/other.html').entries).toEqual([]);
  });
});

describe('welcome files', () => {
  const files = new Set(['/page.html', '/sub/page.html', '/index.html', '/jspdir/index.html']);
  const exists = (p: string): boolean => files.has(p);

  it('serves the first welcome file that exists through the default servlet, and filters see its path', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(
        filter('W_ROOT') +
          mapping('W_ROOT', { urls: ['/'] }) +
          filter('W_PAGE') +
          mapping('W_PAGE', { urls: ['/page.html', '/sub/page.html'] }) +
          welcome('nothing.html', 'page.html'),
      ),
    );
    expect(resolveServlet(app, '/', exists)).toMatchObject({
      servletName: 'default',
      requestPath: '/page.html',
      welcomeFile: 'page.html',
    });
    expect(order(app, '/', 'REQUEST', exists)).toEqual(['W_PAGE', 'G1', 'G2']);
    expect(order(app, '/sub/', 'REQUEST', exists)).toEqual(['W_PAGE', 'G1', 'G2']);
  });

  it('maps a welcome file to an exact servlet mapping without a file', () => {
    const app = mergeWebApp(global, null, appXml(servlet('svc') + servletMapping('svc', '/svc') + welcome('svc')));
    expect(resolveServlet(app, '/', exists)).toMatchObject({ servletName: 'svc', kind: 'exact', requestPath: '/svc' });
  });

  it('maps a welcome file by extension without a file, except for the resource-only jsp servlet', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(servlet('doer') + servletMapping('doer', '*.do') + welcome('index.do')),
    );
    expect(resolveServlet(app, '/', exists)).toMatchObject({
      servletName: 'doer',
      kind: 'extension',
      requestPath: '/index.do',
    });
    const jsp = mergeWebApp(global, null, appXml(welcome('index.jsp', 'index.html')));
    expect(resolveServlet(jsp, '/jspdir/', exists)).toMatchObject({
      servletName: 'default',
      requestPath: '/jspdir/index.html',
    });
    expect(resolveServlet(jsp, '/', () => false)).toMatchObject({ servletName: 'default', requestPath: '/' });
  });

  it('lets the context-root filter pattern "" and "/" match only when no welcome file is used', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(filter('SLASH') + mapping('SLASH', { urls: ['/'] }) + filter('EMPTY') + mapping('EMPTY', { urls: [''] })),
    );
    expect(order(app, '/', 'REQUEST', () => false)).toEqual(['SLASH', 'EMPTY', 'G1', 'G2']);
    expect(order(app, '/', 'REQUEST', exists)).toEqual(['G1', 'G2']);
  });
});

describe('effectiveChain (ApplicationFilterFactory)', () => {
  it('runs url-pattern mappings first, then servlet-name mappings, each in mapping order', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(
        filter('B') +
          filter('C') +
          filter('D') +
          mapping('B', { servlets: ['default'] }) +
          mapping('C') +
          mapping('D', { urls: ['*.html'], servlets: ['default'] }),
      ),
    );
    const chain = effectiveChain(app, '/index.html');
    expect(chain.entries.map((e) => e.filter.name)).toEqual(['C', 'D', 'G1', 'B', 'G2']);
    expect(chain.entries.map(({ matchedBy: { kind, value } }) => ({ kind, value }))).toEqual([
      { kind: 'url-pattern', value: '/*' },
      { kind: 'url-pattern', value: '*.html' },
      { kind: 'url-pattern', value: '/*' },
      { kind: 'servlet-name', value: 'default' },
      { kind: 'servlet-name', value: 'default' },
    ]);
  });

  it('runs a filter mapped twice once, at its first place', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(
        filter('F') +
          filter('H') +
          filter('K') +
          mapping('F') +
          mapping('H', { servlets: ['default'] }) +
          mapping('K', { urls: ['*.html'] }) +
          mapping('F', { urls: ['*.html'] }) +
          mapping('H') +
          mapping('K'),
      ),
    );
    const chain = effectiveChain(app, '/index.html');
    expect(chain.entries.map((e) => e.filter.name)).toEqual(['F', 'K', 'H', 'G1', 'G2']);
    // H runs where its second mapping (url-pattern /*, line 10) put it, not at its servlet-name mapping.
    expect(chain.entries[2]!.mapping.mapping.span.line).toBe(10);
    expect(chain.entries[2]!.matchedBy).toMatchObject({ kind: 'url-pattern', value: '/*', span: { line: 10 } });
  });

  it('matches servlet-name "*" against whatever servlet is selected', () => {
    const app = mergeWebApp(global, null, appXml(filter('D') + mapping('D', { servlets: ['*'] })));
    expect(order(app, '/none.jsp')).toEqual(['G1', 'D']);
    expect(effectiveChain(app, '/none.jsp').entries[1]!.matchedBy).toMatchObject({
      kind: 'servlet-name',
      value: '*',
      span: { line: 4 },
    });
  });

  it('keeps each mapping to its dispatcher types', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(
        ['REQ', 'FWD', 'INC', 'ERR', 'BOTH', 'ASY'].map((n) => filter(n)).join('') +
          mapping('REQ') +
          mapping('FWD', { urls: ['/*'], dispatchers: ['FORWARD'] }) +
          mapping('INC', { urls: ['/*'], dispatchers: ['INCLUDE'] }) +
          mapping('ERR', { urls: ['/*'], dispatchers: ['ERROR'] }) +
          mapping('BOTH', { urls: ['/*'], dispatchers: ['REQUEST', 'ERROR'] }) +
          mapping('ASY', { urls: ['/*'], dispatchers: ['ASYNC'] }),
      ),
    );
    expect(order(app, '/a.html')).toEqual(['REQ', 'BOTH', 'G1', 'G2']);
    expect(order(app, '/a.html', 'FORWARD')).toEqual(['FWD']);
    expect(order(app, '/a.html', 'INCLUDE')).toEqual(['INC']);
    expect(order(app, '/error.html', 'ERROR')).toEqual(['ERR', 'BOTH']);
    expect(order(app, '/a.html', 'ASYNC')).toEqual(['ASY']);
  });

  it('skips a mapped filter that has no definition', () => {
    const app = mergeWebApp(global, null, appXml(mapping('Nope') + filter('A') + mapping('A')));
    expect(order(app, '/x')).toEqual(['A', 'G1', 'G2']);
  });
});

describe('selectorTableOf (what compiled chain modules carry)', () => {
  it('lists filters by index, decoded patterns, effective dispatchers and "*" servlet names', () => {
    const app = mergeWebApp(
      global,
      null,
      appXml(
        filter('A') +
          mapping('A', { urls: ['/enc%20dir/*'], servlets: ['*'], dispatchers: ['error'] }) +
          mapping('Nope'),
      ),
    );
    const { filters, table } = selectorTableOf(app);
    expect(filters.map((f) => f.name)).toEqual(['A', 'G1', 'G2']);
    expect(table.filterMappings[0]).toEqual({
      filter: 0,
      urlPatterns: ['/enc dir/*'],
      servletNames: ['*'],
      dispatchers: ['ERROR'],
    });
    expect(table.filterMappings[1]!.filter).toBe(-1);
    expect(table.servletMappings).toContainEqual({ pattern: '/', servlet: 'default' });
    expect(table.welcomeFiles).toEqual(['index.html']);
    expect(selectorTableOf(app)).toBe(selectorTableOf(app));
  });
});
