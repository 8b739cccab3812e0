/**
 * The example base `npm start` serves (examples/base, copied): its pages go out with the Content-Type
 * of conf/web.xml's MIME table (Tomcat's) or of the application's own mime-mapping, next to
 * HttpHeaderSecurityFilter's nosniff (test/server/example-base-browser.test.ts shows Chromium renders
 * them). It lints clean, as the README's `npx tollgate lint examples/base` shows, and each host writes
 * Tomcat's access log under logs/.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, lint } from '../../src/api/lint.js';
import { startContainer, type Container } from '../../src/server/container.js';
import { ask } from './http.js';

const repo = join(import.meta.dirname, '..', '..');
let base: string;
let container: Container;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'tg-example-'));
  cpSync(join(repo, 'examples', 'base'), base, { recursive: true });
  // The application's own mapping wins over conf/web.xml's for the same extension, as in Tomcat.
  const staticWebXml = join(base, 'webapps', 'static', 'WEB-INF', 'web.xml');
  writeFileSync(
    staticWebXml,
    readFileSync(staticWebXml, 'utf8').replace(
      '</web-app>',
      '<mime-mapping><extension>txt</extension><mime-type>text/x-tollgate</mime-type></mime-mapping>\n</web-app>',
    ),
  );
  writeFileSync(join(base, 'webapps', 'static', 'notes.txt'), 'notes\n');
  container = await startContainer({ base, port: 0, address: '127.0.0.1', log: () => undefined });
});

afterAll(async () => {
  await container?.stop();
  rmSync(base, { recursive: true, force: true });
});

describe('the example base', () => {
  it('lints without a finding: nothing it does not mean to show', async () => {
    const report = await lint(join(repo, 'examples', 'base'));
    expect(formatReport(report, 'stylish')).toBe('');
    expect(report.diagnostics).toEqual([]);
  });

  it("sends each static file with conf/web.xml's type, or the application's own mapping", async () => {
    const types: [string, string][] = [
      ['/', 'text/html'],
      ['/static/index.html', 'text/html'],
      ['/static/assets/site.css', 'text/css'],
      ['/static/assets/app.js', 'text/javascript'],
      ['/static/assets/site.webmanifest', 'application/manifest+json'],
      ['/static/notes.txt', 'text/x-tollgate'],
      ['/api/index.json', 'application/json'],
    ];
    for (const [path, type] of types) {
      const r = await ask(container.port, path, { headers: { Host: 'localhost' } });
      expect([path, r.status, String(r.headers['content-type']).split(';')[0]]).toEqual([path, 200, type]);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it("writes each host's requests to Tomcat's access log under logs/", async () => {
    await ask(container.port, '/static/index.html', { headers: { Host: 'localhost' } });
    await ask(container.port, '/', { headers: { Host: 'partners.localhost' } });
    container.accessLogs.flush();
    const logs = readdirSync(join(base, 'logs')).sort();
    expect(logs.map((f) => f.replace(/\.\d{4}-\d{2}-\d{2}\./, '.<date>.'))).toEqual([
      'localhost_access_log.<date>.txt',
      'partners.localhost_access_log.<date>.txt',
    ]);
    const lines = (file: string) =>
      readFileSync(join(base, 'logs', file), 'utf8')
        .trim()
        .split('\n');
    expect(lines(logs[0]!)).toContainEqual(
      expect.stringMatching(/^127\.0\.0\.1 - - \[[^\]]+\] "GET \/static\/index\.html HTTP\/1\.1" 200 \d+$/),
    );
    expect(lines(logs[1]!)).toEqual([expect.stringMatching(/^127\.0\.0\.1 - - \[[^\]]+\] "GET \/ HTTP\/1\.1" \d{3} /)]);
  });
});
