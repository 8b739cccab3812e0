/// <reference lib="dom" />
/**
 * The report in a real browser: Debian's Chromium (installed by .ci/run), headless, driven by
 * puppeteer-core. Screenshots go to test-output/report/ for a person to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBase } from '../../src/parser/index.js';
import { buildReportData, renderReport } from '../../src/report/index.js';
import { cleanup, filter, tree } from '../lint/helpers.js';

const repo = join(import.meta.dirname, '..', '..');
const out = join(repo, 'test-output', 'report');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
  cleanup();
});

function write(name: string, base: string, label: string): string {
  const file = join(out, `${name}.html`);
  writeFileSync(file, renderReport(buildReportData(loadBase({ base }), base, { label })));
  return file;
}

async function ask(page: import('puppeteer-core').Page, path: string, addr = '127.0.0.1'): Promise<string> {
  await page.$eval('input[name=path]', (el, v) => ((el as HTMLInputElement).value = v), path);
  await page.$eval('input[name=addr]', (el, v) => ((el as HTMLInputElement).value = v), addr);
  await page.click('#urlform button');
  await page.waitForFunction(() => document.querySelector('#answer')!.textContent!.length > 0);
  return page.$eval('#answer', (el) => el.textContent ?? '');
}

describe('tollgate report in headless Chromium', () => {
  it('shows the example base: hosts, contexts, chains, and the URL box answers as tollgate chain does', async () => {
    const file = write('example', join(repo, 'examples', 'base'), 'examples/base');
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => errors.push(`request ${r.url()}`));
    await page.setViewport({ width: 1200, height: 1400 });
    await page.goto(`file://${file}`);
    expect(await page.$eval('h1', (el) => el.textContent)).toBe('tollgate report: examples/base');
    const tree = await page.$eval('.tree', (el) => el.textContent ?? '');
    expect(tree).toContain('localhost');
    expect(tree).toContain('partners.localhost');
    expect(await page.$$eval('.tree .badge.ok', (els) => els.length)).toBe(5);
    const answer = await ask(page, '/api/items');
    // The same order tollgate chain --path /api/items prints (README): the app's filters, then the global one.
    expect(answer).toMatch(/setCharacterEncoding.*CorsFilter.*RestCSRF.*httpHeaderSecurity/s);
    expect(answer).toContain('context /api');
    expect(await ask(page, '/no-such-context/x')).toContain('context /');
    await page.screenshot({ path: join(out, 'example.png'), fullPage: false });
    // Narrow window: nothing overflows the page sideways.
    await page.setViewport({ width: 400, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: join(out, 'example-narrow.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a base with findings, a refused context, and which filter answers first for a client', async () => {
    const webXml = (body: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">\n${body}\n</web-app>\n`;
    const base = tree({
      'conf/web.xml': webXml(
        '<servlet><servlet-name>default</servlet-name><servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class></servlet><servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern></servlet-mapping>',
      ),
      'webapps/admin/WEB-INF/web.xml': webXml(
        filter('lan', 'RemoteAddrFilter', { allow: '10\\.\\d+\\.\\d+\\.\\d+' }) +
          filter('cors', 'CorsFilter', { 'cors.allowed.origins': '*' }),
      ),
      'webapps/broken/WEB-INF/web.xml': webXml(
        filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: 'one year' }),
      ),
    });
    const file = write('findings', base, 'findings');
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 1400 });
    await page.goto(`file://${file}`);
    expect(await page.$eval('.tree', (el) => el.textContent ?? '')).toMatch(/\/broken\s*refused/);
    const findings = await page.$eval('#findings ~ section.file', (el) => el.textContent ?? '');
    expect(findings.length).toBeGreaterThan(0);
    expect(await page.$$eval('.finding', (els) => els.map((e) => e.textContent ?? '').join('\n'))).toMatch(
      /cors-any-origin|filter-param-invalid/,
    );
    expect(await ask(page, '/admin/index.html', '192.168.1.5')).toMatch(
      /lan \(RemoteAddrFilter\) answers first: 403 for client 192\.168\.1\.5/,
    );
    expect(await ask(page, '/admin/index.html', '10.1.2.3')).toContain('No filter refuses this request by address');
    await page.screenshot({ path: join(out, 'findings.png'), fullPage: false });
    await page.close();
  });
});
