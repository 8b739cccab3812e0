import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planBase } from '../../src/plan/index.js';
import { loadInput } from '../../src/lint/inputs.js';
import { cleanup, lintFiles, tree } from './helpers.js';

afterAll(cleanup);

/**
 * An application filter with the name of a conf/web.xml filter replaces it and inherits the init-params it
 * does not set (Tomcat 10.1.60, observed by test/conformance/lint-agreement.conformance.test.ts, global-merge).
 */
const xml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const filter = (name: string, cls: string | null, params: Record<string, string>, mapped = false) =>
  `  <filter>\n    <filter-name>${name}</filter-name>\n${cls ? `    <filter-class>org.apache.catalina.filters.${cls}</filter-class>\n` : ''}${Object.entries(
    params,
  )
    .map(([k, v]) => `    <init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>\n`)
    .join(
      '',
    )}  </filter>${mapped ? `\n  <filter-mapping><filter-name>${name}</filter-name><url-pattern>/*</url-pattern></filter-mapping>` : ''}`;
const server =
  '<?xml version="1.0"?>\n<Server port="-1"><Service name="Catalina"><Connector port="8080"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n';

const base = (globalFilter: string, appFilter: string) => ({
  'conf/server.xml': server,
  'conf/web.xml': xml(globalFilter),
  'webapps/app/WEB-INF/web.xml': xml(appFilter),
  'webapps/other/WEB-INF/web.xml': xml(''),
});

describe('filters that inherit init-params from a same-named filter of conf/web.xml', () => {
  it('credentials in the application with origins "*" inherited: the merged filter is refused, reported on the application filter', () => {
    const ds = lintFiles(
      base(
        filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*' }, true),
        filter('cors', 'CorsFilter', { 'cors.support.credentials': 'true' }),
      ),
    );
    const app = ds.filter((d) => d.span.file.includes('webapps/app/') && d.severity === 'error');
    expect(app.map((d) => d.ruleId)).toEqual(['cors-credentials-with-any-origin']);
    expect(app[0]!.message).toContain('inherits from the same-named filter');
    expect(app[0]!.related?.[0]?.span.file).toMatch(/conf\/web\.xml$/);
  });

  it('origins inherited from conf/web.xml: no cors-no-allowed-origins on the application filter', () => {
    const ds = lintFiles(
      base(
        filter('cors', 'CorsFilter', { 'cors.allowed.origins': 'https://a.example' }, true),
        filter('cors', 'CorsFilter', { 'cors.preflight.maxage': '600' }),
      ),
    );
    expect(ds.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('an application filter without origins and nothing to inherit them from is still reported', () => {
    const ds = lintFiles(
      base(
        filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '60' }, true),
        filter('cors', 'CorsFilter', { 'cors.preflight.maxage': '600' }, true),
      ),
    );
    expect(ds.filter((d) => d.severity === 'error').map((d) => d.ruleId)).toEqual(['cors-no-allowed-origins']);
  });

  it('a class-only redefinition inherits an invalid value: an error on the application filter too', () => {
    const ds = lintFiles(
      base(
        filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' }, true),
        filter('headers', 'HttpHeaderSecurityFilter', {}),
      ),
    );
    expect(
      ds
        .filter((d) => d.severity === 'error')
        .map((d) => `${d.ruleId} ${d.span.file.includes('webapps/app/') ? 'app' : 'conf'}`)
        .sort(),
    ).toEqual(['filter-param-invalid app', 'filter-param-invalid conf']);
  });

  it('serve and compile run an application that replaces an invalid global filter with a valid one, and refuse the others', () => {
    const dir = tree(
      base(
        filter('headers', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' }, true),
        filter('headers', null, { hstsMaxAgeSeconds: '60' }),
      ),
    );
    const r = planBase(loadInput(dir));
    expect(r.plans.map((p) => p.contextPath)).toEqual(['/app']);
    expect(r.skipped.map((s) => [s.contextPath, s.state])).toEqual([['/other', 'refused']]);
    expect(r.skipped[0]!.reason).toMatch(
      new RegExp(`^Tomcat does not start it: ${join('conf', 'web.xml')}:\\d+:\\d+: hstsMaxAgeSeconds`),
    );
  });
});
