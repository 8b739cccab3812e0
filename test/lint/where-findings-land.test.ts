/**
 * A finding that comes from merging conf/web.xml with an application lands in the application's file,
 * at the mapping the user changes, once per application, with the global place as related information
 * (SARIF relatedLocations, a second code frame in stylish), not once on the shared file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatSarif } from '../../src/lint/formatters/sarif.js';
import { formatStylish } from '../../src/lint/formatters/stylish.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadBase } from '../../src/parser/index.js';
import { cleanup, filter, tree } from './helpers.js';

afterAll(cleanup);

const descriptor = (body: string) =>
  `<?xml version="1.0"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;

describe('remote-ip-after-address-filter across conf/web.xml and the applications', () => {
  const files = {
    // Without a servlet for the path Tomcat runs no filter: the default servlet, as conf/web.xml has it.
    'conf/web.xml': descriptor(
      '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>\n' +
        filter('proxy', 'RemoteIpFilter', { internalProxies: '10\\.0\\.0\\.1' }),
    ),
    'webapps/a/WEB-INF/web.xml': descriptor(filter('guard', 'RemoteAddrFilter', { allow: '192\\.168\\.1\\.\\d+' })),
    'webapps/b/WEB-INF/web.xml': descriptor(filter('guard', 'RemoteAddrFilter', { allow: '192\\.168\\.1\\.\\d+' })),
    'webapps/c/WEB-INF/web.xml': descriptor(''),
  };
  const dir = tree(files);
  const result = lintBase(loadBase({ base: dir }));
  const found = result.diagnostics.filter((d) => d.ruleId === 'remote-ip-after-address-filter');

  it('is reported once per affected application, at its address filter mapping, and not on conf/web.xml', () => {
    expect(found.map((d) => d.span.file.slice(dir.length + 1))).toEqual([
      'webapps/a/WEB-INF/web.xml',
      'webapps/b/WEB-INF/web.xml',
    ]);
    for (const d of found) {
      expect(readFileSync(d.span.file, 'utf8').slice(d.span.offset, d.span.endOffset)).toMatch(
        /^<filter-mapping><filter-name>guard</,
      );
      expect(d.message).toContain('map a RemoteIpFilter in this application, before "guard"');
      expect(d.related).toEqual([
        expect.objectContaining({ span: expect.objectContaining({ file: join(dir, 'conf/web.xml') }) }),
      ]);
    }
  });

  const input = {
    diagnostics: found,
    files: result.files,
    lintedFiles: [],
    cwd: dir,
    repoRoot: dir,
    color: false,
    version: '0.0.0',
  };

  it('gives SARIF the conf/web.xml mapping as a related location', () => {
    const log = JSON.parse(formatSarif(input)) as {
      runs: {
        results: {
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
          relatedLocations?: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
          }[];
        }[];
      }[];
    };
    const results = log.runs[0]!.results;
    expect(results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual([
      'webapps/a/WEB-INF/web.xml',
      'webapps/b/WEB-INF/web.xml',
    ]);
    for (const r of results)
      expect(r.relatedLocations?.map((l) => l.physicalLocation.artifactLocation.uri)).toEqual(['conf/web.xml']);
  });

  it('shows the conf/web.xml mapping in stylish as a second code frame', () => {
    const text = formatStylish(input);
    const a = text.slice(text.indexOf('webapps/a/WEB-INF/web.xml'), text.indexOf('webapps/b/WEB-INF/web.xml'));
    expect(a).toMatch(
      /note: RemoteIpFilter "proxy" is mapped here, after every mapping of the application \(conf\/web\.xml:\d+:\d+\)\n\s+\d+ \| .*<filter-mapping><filter-name>proxy<.*\n\s+\| +\^+/,
    );
  });
});
