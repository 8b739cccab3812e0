import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { cleanup, ids, tree } from './helpers.js';

afterAll(cleanup);

const descriptor = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
const undefinedMapping = descriptor(
  '<filter-mapping><filter-name>nope</filter-name><url-pattern>/*</url-pattern></filter-mapping>',
);

describe('what lint reads from a path', () => {
  it('checks a lone conf/web.xml as the defaults of every application', () => {
    const dir = tree({ 'conf/web.xml': undefinedMapping });
    expect(ids(lintBase(loadInput(join(dir, 'conf', 'web.xml'))).diagnostics)).toContain(
      'filter-mapping-undefined-filter',
    );
  });

  it("checks a lone web.xml.default as a host's defaults", () => {
    const dir = tree({ 'conf/Catalina/localhost/web.xml.default': undefinedMapping });
    const file = join(dir, 'conf', 'Catalina', 'localhost', 'web.xml.default');
    const base = loadInput(file);
    expect(base.hosts[0]!.webXmlDefault?.file).toBe(file);
    expect(base.hosts[0]!.contexts).toEqual([]);
    expect(ids(lintBase(base).diagnostics)).toContain('filter-mapping-undefined-filter');
  });

  it('checks the defaults of a base that has no applications', () => {
    const dir = tree({
      'conf/web.xml': undefinedMapping,
      'conf/server.xml':
        '<Server port="-1"><Service name="Catalina"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>',
    });
    expect(ids(lintBase(loadInput(dir)).diagnostics)).toContain('filter-mapping-undefined-filter');
  });

  it("reads an application's mappings of the stock default and jsp servlets without a conf/web.xml", () => {
    const dir = tree({
      'WEB-INF/web.xml': descriptor(
        '<servlet-mapping><servlet-name>default</servlet-name><url-pattern>/static/*</url-pattern></servlet-mapping><servlet-mapping><servlet-name>jsp</servlet-name><url-pattern>*.jspf</url-pattern></servlet-mapping>',
      ),
    });
    expect(lintBase(loadInput(dir)).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
