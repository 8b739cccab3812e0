import { afterAll, describe, expect, it } from 'vitest';
import { loadBase } from '../../src/parser/index.js';
import { DEFAULT_RESOURCES, planBase, type Plan } from '../../src/plan/index.js';
import { cleanup, tree } from '../lint/helpers.js';

afterAll(cleanup);

const webXml =
  '<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n';
const plan = (files: Record<string, string>): Plan => planBase(loadBase({ base: tree(files) }));
const resourcesOf = (p: Plan, path: string) => p.contexts.find((c) => c.contextPath === path)!.run!.resources;

describe("a context's <Resources> element sizes its static resource cache", () => {
  it("has Tomcat's defaults without one: caching on, TTL 5 s, 10240 KB, objects up to 512 KB, no linking", () => {
    const p = plan({ 'webapps/app/WEB-INF/web.xml': webXml });
    expect(resourcesOf(p, '/app')).toEqual({
      cachingAllowed: true,
      cacheTtlMs: 5000,
      cacheMaxBytes: 10240 * 1024,
      cacheObjectMaxBytes: 512 * 1024,
      allowLinking: false,
    });
    expect(DEFAULT_RESOURCES).toEqual(resourcesOf(p, '/app'));
  });

  it("reads the attributes in their units (cacheTtl ms, sizes KB) from the context's own context.xml over conf/context.xml", () => {
    const p = plan({
      'conf/context.xml': '<Context><Resources cacheTtl="100" cachingAllowed="false"/></Context>',
      'webapps/app/WEB-INF/web.xml': webXml,
      'webapps/app/META-INF/context.xml':
        '<Context><Resources cacheTtl="250" cacheMaxSize="2048" cacheObjectMaxSize="64" allowLinking="TRUE"/></Context>',
      'webapps/other/WEB-INF/web.xml': webXml,
    });
    expect(resourcesOf(p, '/app')).toEqual({
      cachingAllowed: true,
      cacheTtlMs: 250,
      cacheMaxBytes: 2048 * 1024,
      cacheObjectMaxBytes: 64 * 1024,
      allowLinking: true,
    });
    // The global element applies whole where the context has none.
    expect(resourcesOf(p, '/other')).toEqual({ ...DEFAULT_RESOURCES, cacheTtlMs: 100, cachingAllowed: false });
  });

  it('keeps the default for a number Java cannot parse, and reads a boolean as true only for "true"', () => {
    const p = plan({
      'webapps/app/WEB-INF/web.xml': webXml,
      'webapps/app/META-INF/context.xml':
        '<Context><Resources cacheTtl="5s" cacheMaxSize=" 100" cachingAllowed="yes"/></Context>',
    });
    expect(resourcesOf(p, '/app')).toEqual({ ...DEFAULT_RESOURCES, cachingAllowed: false });
  });
});

describe("a context's <Manager maxActiveSessions> limits its live sessions", () => {
  const maxOf = (p: Plan, path: string) => p.contexts.find((c) => c.contextPath === path)!.run!.maxActiveSessions;

  it('is -1 (no limit) without one, and the last <Manager> in Tomcat order wins whole', () => {
    const p = plan({
      'conf/context.xml': '<Context><Manager maxActiveSessions="100"/></Context>',
      'webapps/app/WEB-INF/web.xml': webXml,
      'webapps/app/META-INF/context.xml': '<Context><Manager maxActiveSessions="10"/></Context>',
      'webapps/other/WEB-INF/web.xml': webXml,
      'webapps/plain/WEB-INF/web.xml': webXml,
      'webapps/plain/META-INF/context.xml': '<Context><Manager pathname=""/></Context>',
      'webapps/bad/WEB-INF/web.xml': webXml,
      'webapps/bad/META-INF/context.xml': '<Context><Manager maxActiveSessions="ten"/></Context>',
    });
    expect(maxOf(p, '/app')).toBe(10);
    expect(maxOf(p, '/other')).toBe(100);
    // A later <Manager> without the attribute is a new Manager with the default.
    expect(maxOf(p, '/plain')).toBe(-1);
    // Integer.parseInt refuses it: the setter is not called, the default stays.
    expect(maxOf(p, '/bad')).toBe(-1);
    expect(maxOf(plan({ 'webapps/app/WEB-INF/web.xml': webXml }), '/app')).toBe(-1);
  });
});
