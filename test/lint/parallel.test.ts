import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { lintBaseInParallel, lintPart } from '../../src/lint/parallel.js';
import { loadBase } from '../../src/parser/index.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-parallel-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(base: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
  return base;
}

const webApp = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
${body}
</web-app>
`;
const filter = (name: string, cls: string, params: Record<string, string> = {}): string =>
  `  <filter><filter-name>${name}</filter-name><filter-class>org.apache.catalina.filters.${cls}</filter-class>${Object.entries(
    params,
  )
    .map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('')}</filter>`;
const mapping = (name: string, pattern = '/*'): string =>
  `  <filter-mapping><filter-name>${name}</filter-name><url-pattern>${pattern}</url-pattern></filter-mapping>`;

/** A base whose findings all belong to one application each (and the shared files' own, the same in every part). */
function localBase(): string {
  const apps: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    const kind = i % 6;
    const body =
      kind === 0
        ? filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' }) +
          mapping('cors')
        : kind === 1
          ? filter('ip', 'RemoteIpFilter', { internalProxie: '10\\.0\\.0\\.1' }) + mapping('ip')
          : kind === 2
            ? filter('unused', 'RequestDumperFilter')
            : kind === 3
              ? `  <!-- tollgate-disable-next-line filter-param-unknown :: kept for the old proxy -->\n${filter('exp', 'ExpiresFilter', { ExpiresDefaul: 'access plus 1 day' })}\n  <!-- tollgate-disable-next-line cors-any-origin :: nothing to silence -->\n${mapping('exp')}`
              : kind === 4
                ? '  <filter><filter-name>broken</filter-name>'
                : filter('hsts', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '0' }) + mapping('hsts');
    apps[`webapps/app${i}/WEB-INF/web.xml`] = webApp(body);
  }
  return write(join(root, 'local'), {
    'conf/server.xml':
      '<Server port="8005" shutdown="SHUTDOWN"><Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n',
    'conf/web.xml': webApp(
      filter('headers', 'HttpHeaderSecurityFilter', { antiClickJackingOption: 'ALLOW-FROM' }) +
        mapping('headers') +
        '\n  <mime-mapping><extension>JSON</extension><mime-type>application/json</mime-type></mime-mapping>',
    ),
    'conf/Catalina/localhost/outside.xml': `<Context docBase="${join(root, 'outside-app')}"/>\n`,
    'webapps/packed.war': 'not a zip',
    'webapps/app3/WEB-INF/tomcat-web.xml': webApp(filter('exp', 'ExpiresFilter', { ExpiresByType: 'text/css' })),
    ...apps,
  });
}

function single(path: string) {
  const r = lintBase(loadBase({ base: path }));
  return { diagnostics: r.diagnostics, suppressed: r.suppressed, files: [...r.files.keys()].sort(), sources: r.files };
}

describe('lint on worker threads', () => {
  it('gives exactly the single-thread findings, suppressions and files, in the same order', async () => {
    write(join(root, 'outside-app'), {
      'WEB-INF/web.xml': webApp(
        filter('x', 'CorsFilter', { 'cors.allowed.origins': 'http://a.example' }) + mapping('x'),
      ),
    });
    const base = localBase();
    const expected = single(base);
    expect(expected.diagnostics.length).toBeGreaterThan(10);
    expect(expected.suppressed.length).toBeGreaterThan(0);
    for (const threads of [2, 3, 5]) {
      const r = await lintBaseInParallel(base, {}, threads);
      expect(r, `${threads} threads`).not.toBeNull();
      expect(r!.diagnostics).toEqual(expected.diagnostics);
      expect(r!.suppressed).toEqual(expected.suppressed);
      expect([...r!.lintedFiles].sort()).toEqual(expected.files);
      // The sources the formats quote: those of every file with a finding.
      for (const d of r!.diagnostics) expect(r!.files.get(d.span.file)).toEqual(expected.sources.get(d.span.file));
    }
  });

  it('declines (null) when a finding depends on contexts of several parts: a global filter no application maps', async () => {
    const base = write(join(root, 'global-unmapped'), {
      'conf/web.xml': webApp(filter('guard', 'RemoteAddrFilter', { allow: '127\\.0\\.0\\.1' })),
      'webapps/a/WEB-INF/web.xml': webApp(mapping('guard')),
      'webapps/b/WEB-INF/web.xml': webApp(''),
      'webapps/c/WEB-INF/web.xml': webApp(''),
    });
    // Single-thread: app a maps the global filter, so it is not reported; a part without a cannot know that.
    expect(single(base).diagnostics.filter((d) => d.ruleId === 'filter-never-mapped')).toEqual([]);
    expect([0, 1, 2].map((i) => lintPart(base, {}, i, 3).exact)).toContain(false);
    expect(await lintBaseInParallel(base, {}, 3)).toBeNull();
  });

  it('declines when a rule reports once per filter pair across contexts (chain order)', async () => {
    const wrongOrder = webApp(
      filter('addr', 'RemoteAddrFilter', { allow: '.*' }) +
        filter('ip', 'RemoteIpFilter') +
        mapping('addr') +
        mapping('ip'),
    );
    const base = write(join(root, 'cross'), {
      'webapps/a/WEB-INF/web.xml': wrongOrder,
      'webapps/b/WEB-INF/web.xml': wrongOrder,
    });
    expect(single(base).diagnostics.some((d) => d.ruleId === 'remote-ip-after-address-filter')).toBe(true);
    expect([0, 1].map((i) => lintPart(base, {}, i, 2).exact)).toContain(false);
    expect(await lintBaseInParallel(base, {}, 2)).toBeNull();
  });
});
