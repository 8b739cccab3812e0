import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, lintFiles } from './helpers.js';

afterAll(cleanup);

const webXml = (body: string): Record<string, string> => ({
  'webapps/x/WEB-INF/web.xml': `<?xml version="1.0"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`,
});
const filter =
  '    <filter-name>f</filter-name>\n    <filter-class>org.apache.catalina.filters.SessionInitializerFilter</filter-class>\n';
const mapping = '  <filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>';

describe('one root cause, one finding (issue 17)', () => {
  it('a comment inside a tag is one error at the comment, saying what Tomcat does', () => {
    const ds = lintFiles(webXml(`  <filter <!-- note --> >\n${filter}  </filter>\n${mapping}`));
    expect(ds.map((d) => [d.ruleId, d.span.line, d.span.column])).toEqual([['xml-malformed', 3, 11]]);
    expect(ds[0]!.message).toMatch(/a comment cannot stand inside the tag <filter \.\.\.>/);
  });

  it('a misspelt closing tag is one error, and the mapping the parser never reached is not reported as missing', () => {
    const ds = lintFiles(webXml(`  <filter>\n${filter}  </filtr>\n${mapping}`));
    expect(ds.map((d) => [d.ruleId, d.span.line])).toEqual([['xml-malformed', 6]]);
    expect(ds[0]!.message).toContain('</filtr> closes no open element');
  });

  it('in a descriptor read to its end, an unmapped filter is still reported', () => {
    expect(lintFiles(webXml(`  <filter>\n${filter}  </filter>`)).map((d) => d.ruleId)).toEqual(['filter-never-mapped']);
  });
});
