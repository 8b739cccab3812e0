import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileBase } from '../../src/compile/index.js';
import { loadBase } from '../../src/parser/index.js';
import { app, cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

const example = join(import.meta.dirname, '..', '..', 'examples', 'base');

describe('tollgate compile', () => {
  it('writes one module and one declaration file per context of the example', () => {
    const r = compileBase(loadBase({ base: example }));
    expect(r.skipped).toEqual([]);
    expect(r.modules.map((m) => m.fileName).sort()).toEqual([
      'localhost/ROOT.mjs',
      'localhost/api.mjs',
      'localhost/intranet.mjs',
      'localhost/static.mjs',
      'partners.localhost/ROOT.mjs',
    ]);
    for (const m of r.modules) {
      expect(m.dts).toContain('declare const middleware: ContextMiddleware;');
      expect(m.code).toContain('export default middleware;');
    }
  });

  it('is byte-identical for the same input', () => {
    const a = compileBase(loadBase({ base: example })).modules.map((m) => m.code + m.dts);
    const b = compileBase(loadBase({ base: example })).modules.map((m) => m.code + m.dts);
    expect(a).toEqual(b);
  });

  it('imports nothing but tollgate/runtime', () => {
    for (const m of compileBase(loadBase({ base: example })).modules) {
      const imports = [...m.code.matchAll(/^import .* from '([^']+)';$/gm)].map((x) => x[1]);
      expect(imports).toEqual(['tollgate/runtime']);
    }
  });

  it("writes the chain in Tomcat's order with validated configs", () => {
    const api = compileBase(loadBase({ base: example })).modules.find((m) => m.fileName === 'localhost/api.mjs')!;
    const names = [...api.code.matchAll(/filterName: "([^"]+)"/g)].map((x) => x[1]);
    expect(names).toEqual(['setCharacterEncoding', 'CorsFilter', 'RestCSRF', 'httpHeaderSecurity']);
    expect(api.code).toContain('"supportsCredentials": true');
  });

  it('gives a context Tomcat refuses no module, says where with file:line:column, and still writes the others', () => {
    const dir = tree({
      ...app(filter('c', 'CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' })),
      'webapps/ok/WEB-INF/web.xml': '<web-app/>',
    });
    const r = compileBase(loadBase({ base: dir }));
    expect(r.modules.map((m) => m.fileName)).toEqual(['localhost/ok.mjs']);
    expect(r.skipped).toEqual([
      {
        host: 'localhost',
        contextPath: '/app',
        state: 'refused',
        reason: expect.stringMatching(
          /^Tomcat does not start it: webapps\/app\/WEB-INF\/web\.xml:7:79: cors\.support\.credentials/,
        ),
        diagnostics: [expect.objectContaining({ ruleId: 'cors-credentials-with-any-origin' })],
      },
    ]);
  });

  it('refuses a filter class it cannot run on Node', () => {
    const dir = tree(
      app(
        '<filter><filter-name>x</filter-name><filter-class>com.example.Custom</filter-class></filter><filter-mapping><filter-name>x</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
      ),
    );
    expect(compileBase(loadBase({ base: dir })).skipped[0]!.reason).toContain('has no Node implementation');
  });
});
