/**
 * web.xml <error-page> dispatch: parsing, merging, the runtime's ERROR
 * dispatch under the static servlet, and `tollgate serve` end to end. The
 * behaviour held here is Tomcat 10.1.60's as observed by
 * test/conformance/error-page.conformance.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mergeErrorPages } from '../../src/chain/merge.js';
import { parseWebXml } from '../../src/parser/index.js';
import {
  createContextRuntime,
  ERROR_ATTRIBUTES,
  type ContextMiddleware,
  type ErrorPageEntry,
} from '../../src/runtime/context.js';
import type { Exchange } from '../../src/runtime/exchange.js';
import type { DispatcherType, RuntimeFilter } from '../../src/runtime/types.js';
import { startContainer, type Container } from '../../src/server/container.js';
import { createStaticHandler } from '../../src/server/static.js';
import { ask } from './http.js';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tg-errpage-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const webXml = (body: string, attrs = 'xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app ${attrs}>\n${body}\n</web-app>\n`;
const parse = (file: string, text: string) => parseWebXml(text, file).webXml!;

describe('parsing and merging <error-page>', () => {
  it('reads code, exception-type and default pages in document order', () => {
    const x = parse(
      '/w/web.xml',
      webXml(`<error-page><error-code> 404 </error-code><location>/e/404.html</location></error-page>
<error-page><exception-type>java.lang.Throwable</exception-type><location>/e/t.html</location></error-page>
<error-page><location>/e/any.html</location></error-page>`),
    );
    expect(
      x.errorPages!.map((p) => [p.errorCode?.value ?? null, p.exceptionType?.value ?? null, p.location?.value ?? null]),
    ).toEqual([
      ['404', null, '/e/404.html'],
      [null, 'java.lang.Throwable', '/e/t.html'],
      [null, null, '/e/any.html'],
    ]);
    expect(x.errorPages![0]!.location!.span.file).toBe('/w/web.xml');
  });

  it("keeps the application's page over tomcat-web.xml's over the defaults', a later page of one file over an earlier one", () => {
    const global = parse(
      '/conf/web.xml',
      webXml(
        '<error-page><error-code>404</error-code><location>/g404.html</location></error-page><error-page><error-code>403</error-code><location>/g403.html</location></error-page><error-page><location>/gany.html</location></error-page>',
      ),
    );
    const host = parse(
      '/conf/Catalina/localhost/web.xml.default',
      webXml('<error-page><error-code>403</error-code><location>/h403.html</location></error-page>'),
    );
    const tomcatWeb = parse(
      '/app/WEB-INF/tomcat-web.xml',
      webXml(
        '<error-page><error-code>404</error-code><location>/t404.html</location></error-page><error-page><error-code>500</error-code><location>/t500.html</location></error-page>',
      ),
    );
    const app = parse(
      '/app/WEB-INF/web.xml',
      webXml(
        '<error-page><error-code>500</error-code><location>/first.html</location></error-page><error-page><error-code>500</error-code><location>/a500.html</location></error-page><error-page><location>/aany.html</location></error-page>',
      ),
    );
    const merged = mergeErrorPages(global, host, app, tomcatWeb);
    const byKey = Object.fromEntries(merged.map((p) => [p.exceptionType ?? p.errorCode, `${p.origin}:${p.location}`]));
    expect(byKey).toEqual({
      500: 'app:/a500.html',
      0: 'app:/aany.html',
      404: 'tomcat-web:/t404.html',
      403: 'host:/h403.html',
    });
  });

  it('leaves out pages Tomcat refuses; a Servlet 2.2 descriptor may give a relative location', () => {
    const bad = parse(
      '/a/web.xml',
      webXml(
        '<error-page><error-code>4x4</error-code><location>/x.html</location></error-page><error-page><error-code>404</error-code></error-page><error-page><error-code>410</error-code><location>rel.html</location></error-page><error-page><error-code>+404</error-code><location>/ok.html</location></error-page>',
      ),
    );
    expect(mergeErrorPages(null, null, bad).map((p) => [p.errorCode, p.location])).toEqual([[404, '/ok.html']]);
    const old = parse(
      '/b/web.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.2//EN" "http://java.sun.com/j2ee/dtds/web-app_2_2.dtd">\n<web-app><error-page><error-code>404</error-code><location>rel.html</location></error-page></web-app>\n',
    );
    expect(old.generation).toBe('2.2');
    expect(mergeErrorPages(null, null, old).map((p) => p.location)).toEqual(['/rel.html']);
  });
});

// ---------------------------------------------------------------- runtime

interface Probe {
  /** dispatcher type and path of every filter run, in order */
  runs: string[];
  attrs: Record<string, unknown> | null;
}

/** A filter that records its runs; `act` may answer instead of continuing. */
function probeFilter(name: string, probe: Probe, act?: (ex: Exchange) => boolean | Promise<boolean>): RuntimeFilter {
  return {
    name,
    doFilter(ex, next) {
      probe.runs.push(`${name}:${ex.request.dispatcherType}:${ex.request.pathWithinContext}`);
      if (ex.request.dispatcherType === 'ERROR' && probe.attrs === null) {
        probe.attrs = Object.fromEntries(
          ex.request
            .getAttributeNames()
            .filter((n) => n.startsWith('jakarta.'))
            .map((n) => [n, ex.request.getAttribute(n)]),
        );
      }
      if (!act) return next();
      const r = act(ex);
      if (typeof r === 'boolean') return r ? next() : undefined;
      return r.then((go) => (go ? next() : undefined));
    },
  };
}

let server: Server | null = null;
let mw: ContextMiddleware | null = null;
afterEach(async () => {
  mw?.destroy();
  mw = null;
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
  }
});

/**
 * A context at /app over a docBase: filters[i] runs for the dispatchers in dispatchers[i] on every path;
 * the static servlet downstream.
 */
async function serveApp(opts: {
  files: Record<string, string>;
  errorPages: ErrorPageEntry[];
  filters: RuntimeFilter[];
  dispatchers: DispatcherType[][];
}): Promise<number> {
  const docBase = tree(opts.files);
  mw = createContextRuntime({
    contextPath: '/app',
    filters: opts.filters,
    errorPages: opts.errorPages,
    selectChain: (ex) => opts.dispatchers.flatMap((d, i) => (d.includes(ex.request.dispatcherType) ? [i] : [])),
    servletNameOf: () => 'default',
  });
  const serve = createStaticHandler({ docBase, contextPath: '/app' });
  const m = mw;
  server = createServer((req, res) => m(req, res, () => void serve(req, res)));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const PAGES = {
  'index.html': '<p>index</p>\n',
  'errors/404.html': '<p>not found</p>\n',
  'errors/any.txt': 'any error\n',
  'WEB-INF/403.html': '<p>forbidden</p>\n',
};

describe('the ERROR dispatch', () => {
  it("serves the static servlet's 404 page with status 404, the page's type and length, no validators, through the ERROR filters only", async () => {
    const probe: Probe = { runs: [], attrs: null };
    const port = await serveApp({
      files: PAGES,
      errorPages: [{ errorCode: 404, location: '/errors/404.html' }],
      filters: [probeFilter('req', probe), probeFilter('err', probe), probeFilter('both', probe)],
      dispatchers: [['REQUEST'], ['ERROR'], ['REQUEST', 'ERROR']],
    });
    const r = await ask(port, '/app/missing.html?q=1');
    expect(r.status).toBe(404);
    expect(r.text).toBe('<p>not found</p>\n');
    expect(r.headers['content-type']).toBe('text/html');
    expect(r.headers['content-length']).toBe('17');
    expect(r.headers['etag']).toBeUndefined();
    expect(r.headers['last-modified']).toBeUndefined();
    expect(r.headers['accept-ranges']).toBeUndefined();
    expect(probe.runs).toEqual([
      'req:REQUEST:/missing.html',
      'both:REQUEST:/missing.html',
      'err:ERROR:/errors/404.html',
      'both:ERROR:/errors/404.html',
    ]);
    expect(probe.attrs).toEqual({
      [ERROR_ATTRIBUTES.statusCode]: 404,
      [ERROR_ATTRIBUTES.message]: 'The requested resource [/app/missing.html] is not available',
      [ERROR_ATTRIBUTES.requestUri]: '/app/missing.html',
      [ERROR_ATTRIBUTES.servletName]: 'default',
    });
  });

  it('a filter that refuses (sendError 403): headers it set before survive, the page may live under WEB-INF, any method gets it', async () => {
    const probe: Probe = { runs: [], attrs: null };
    const port = await serveApp({
      files: PAGES,
      errorPages: [{ errorCode: 403, location: '/WEB-INF/403.html' }],
      filters: [
        probeFilter('deny', probe, (ex) => {
          ex.response.setHeader('X-Before', 'kept');
          ex.response.setHeader('Content-Length', '999');
          ex.response.sendError(403);
          // Set after sendError: Tomcat's suspended response ignores it; here the page's own header wins.
          return false;
        }),
      ],
      dispatchers: [['REQUEST']],
    });
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const r = await ask(port, '/app/index.html', { method });
      expect(r.status, method).toBe(403);
      expect(r.text, method).toBe('<p>forbidden</p>\n');
      expect(r.headers['x-before'], method).toBe('kept');
      expect(r.headers['content-length'], method).toBe('17');
    }
    const head = await ask(port, '/app/index.html', { method: 'HEAD' });
    expect(head.status).toBe(403);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe('17');
  });

  it('an asynchronous filter that refuses after an await: the dispatch completes the response', async () => {
    const probe: Probe = { runs: [], attrs: null };
    const port = await serveApp({
      files: PAGES,
      errorPages: [{ errorCode: 0, location: '/errors/any.txt' }],
      filters: [
        probeFilter('later', probe, async (ex) => {
          await new Promise((r) => setTimeout(r, 20));
          ex.response.sendError(429, 'slow down');
          return false;
        }),
      ],
      dispatchers: [['REQUEST']],
    });
    const r = await ask(port, '/app/index.html');
    expect(r.status).toBe(429);
    expect(r.text).toBe('any error\n');
    expect(r.headers['content-type']).toBe('text/plain');
  });

  it("a status's own page beats the default page; without either the report is sent", async () => {
    const port = await serveApp({
      files: PAGES,
      errorPages: [
        { errorCode: 0, location: '/errors/any.txt' },
        { errorCode: 404, location: '/errors/404.html' },
        { errorCode: 0, exceptionType: 'java.lang.Throwable', location: '/errors/404.html' },
      ],
      filters: [],
      dispatchers: [],
    });
    expect((await ask(port, '/app/nope')).text).toBe('<p>not found</p>\n');
    const put = await ask(port, '/app/index.html', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.text).toBe('any error\n');
    expect(put.headers['allow']).toBe('OPTIONS, GET, HEAD, POST');
    mw!.destroy();
  });

  it('no page: the container report as before', async () => {
    const port = await serveApp({ files: PAGES, errorPages: [], filters: [], dispatchers: [] });
    const r = await ask(port, '/app/nope');
    expect(r.status).toBe(404);
    expect(r.text).toMatch(/<title>HTTP Status 404 – Not Found<\/title>/);
  });

  it('a missing location ends with the status and no body (Content-Length 0, none on HEAD); no second dispatch', async () => {
    const probe: Probe = { runs: [], attrs: null };
    const port = await serveApp({
      files: PAGES,
      errorPages: [
        { errorCode: 410, location: '/errors/gone.html' },
        { errorCode: 404, location: '/errors/404.html' },
      ],
      filters: [
        probeFilter('gone', probe, (ex) =>
          ex.request.dispatcherType === 'REQUEST' ? (ex.response.sendError(410), false) : true,
        ),
      ],
      dispatchers: [['REQUEST', 'ERROR']],
    });
    const r = await ask(port, '/app/index.html');
    expect(r.status).toBe(410);
    expect(r.text).toBe('');
    expect(r.headers['content-length']).toBe('0');
    expect(r.headers['content-type']).toBeUndefined();
    expect(probe.runs).toEqual(['gone:REQUEST:/index.html', 'gone:ERROR:/errors/gone.html']);
    const head = await ask(port, '/app/index.html', { method: 'HEAD' });
    expect(head.status).toBe(410);
    expect(head.headers['content-length']).toBeUndefined();
  });

  it('an ERROR filter refusing the page: its status, no body, the page of that status is not dispatched', async () => {
    const probe: Probe = { runs: [], attrs: null };
    const port = await serveApp({
      files: PAGES,
      errorPages: [
        { errorCode: 404, location: '/errors/404.html' },
        { errorCode: 403, location: '/WEB-INF/403.html' },
      ],
      filters: [
        probeFilter('lock', probe, (ex) => (ex.response.setHeader('X-Lock', 'yes'), ex.response.sendError(403), false)),
      ],
      dispatchers: [['ERROR']],
    });
    const r = await ask(port, '/app/missing');
    expect(r.status).toBe(403);
    expect(r.text).toBe('');
    expect(r.headers['x-lock']).toBe('yes');
    expect(probe.runs).toEqual(['lock:ERROR:/errors/404.html']);
  });

  it('a filter that throws: 500, served the 500 page', async () => {
    const port = await serveApp({
      files: { ...PAGES, 'errors/500.html': '<p>oops</p>\n' },
      errorPages: [{ errorCode: 500, location: '/errors/500.html' }],
      filters: [
        {
          name: 'Thrower',
          doFilter(ex, next) {
            if (ex.request.dispatcherType === 'ERROR') return next();
            throw new Error('boom');
          },
        },
      ],
      dispatchers: [['REQUEST', 'ERROR']],
    });
    const r = await ask(port, '/app/index.html');
    expect(r.status).toBe(500);
    expect(r.text).toBe('<p>oops</p>\n');
  });

  it("the REQUEST chain's commit hooks play no part in the page (Tomcat forwards the unwrapped response)", async () => {
    const port = await serveApp({
      files: PAGES,
      errorPages: [{ errorCode: 404, location: '/errors/404.html' }],
      filters: [
        {
          name: 'Hooker',
          doFilter(ex, next) {
            ex.response.onBeforeCommit((e) => e.response.setHeader('X-Hook', e.request.dispatcherType));
            return next();
          },
        },
      ],
      dispatchers: [['REQUEST']],
    });
    const ok = await ask(port, '/app/index.html');
    expect(ok.headers['x-hook']).toBe('REQUEST');
    const page = await ask(port, '/app/missing');
    expect(page.status).toBe(404);
    expect(page.text).toBe('<p>not found</p>\n');
    expect(page.headers['x-hook']).toBeUndefined();
  });

  it('refuses invalid errorPages options with a clear TypeError', () => {
    expect(() => createContextRuntime({ errorPages: [{ errorCode: 404, location: 'relative.html' }] })).toThrow(
      /errorPages\[0\] must have an integer errorCode and a location starting with "\/"/,
    );
    expect(() => createContextRuntime({ errorPages: [{ errorCode: 4.5, location: '/x' }] })).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------- serve

describe('tollgate serve', () => {
  let c: Container;
  beforeAll(async () => {
    const SERVER = `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1"/>
<Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false"/></Engine></Service></Server>\n`;
    const base = tree({
      'conf/server.xml': SERVER,
      'conf/web.xml':
        webXml(`<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet>
<servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>
<filter><filter-name>g</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class><init-param><param-name>hstsEnabled</param-name><param-value>false</param-value></init-param></filter>
<filter-mapping><filter-name>g</filter-name><url-pattern>/*</url-pattern><dispatcher>ERROR</dispatcher></filter-mapping>
<error-page><error-code>404</error-code><location>/errors/global-404.html</location></error-page>
<error-page><error-code>405</error-code><location>/errors/405.html</location></error-page>`),
      'webapps/app/WEB-INF/web.xml':
        webXml(`<filter><filter-name>deny</filter-name><filter-class>org.apache.catalina.filters.RemoteAddrFilter</filter-class><init-param><param-name>allow</param-name><param-value>10\\.1\\.1\\.1</param-value></init-param></filter>
<filter-mapping><filter-name>deny</filter-name><url-pattern>/deny/*</url-pattern></filter-mapping>
<error-page><error-code>403</error-code><location>/errors/403.html</location></error-page>`),
      'webapps/app/index.html': '<p>index</p>\n',
      'webapps/app/errors/global-404.html': '<p>global 404</p>\n',
      'webapps/app/errors/403.html': '<p>app 403</p>\n',
      'webapps/app/errors/405.html': '<p>405</p>\n',
    });
    c = await startContainer({ base, port: 0 });
  });
  afterAll(async () => {
    await c?.stop();
  });

  it("merges conf/web.xml's pages with the application's and runs the ERROR filter on them", async () => {
    const nf = await ask(c.port, '/app/missing.html');
    expect(nf.status).toBe(404);
    expect(nf.text).toBe('<p>global 404</p>\n');
    expect(nf.headers['x-frame-options']).toBe('DENY');
    const ok = await ask(c.port, '/app/index.html');
    expect(ok.headers['x-frame-options']).toBeUndefined();
    const deny = await ask(c.port, '/app/deny/x');
    expect(deny.status).toBe(403);
    expect(deny.text).toBe('<p>app 403</p>\n');
  });

  it('WEB-INF and TRACE are refused before the REQUEST filters, their pages served', async () => {
    const webInf = await ask(c.port, '/app/WEB-INF/web.xml');
    expect(webInf.status).toBe(404);
    expect(webInf.text).toBe('<p>global 404</p>\n');
    const trace = await ask(c.port, '/app/deny/x', { method: 'TRACE' });
    expect(trace.status).toBe(405);
    expect(trace.text).toBe('<p>405</p>\n');
    expect(trace.headers['allow']).toBe('HEAD, DELETE, POST, GET, OPTIONS, PUT');
  });
});
