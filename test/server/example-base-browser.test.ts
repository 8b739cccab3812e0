/// <reference lib="dom" />
/**
 * The example base `npm start` serves (examples/base, copied), in Debian's Chromium (installed by .ci/run,
 * driven headless by puppeteer-core as test/report/browser.test.ts does): it renders the index page instead
 * of showing its source (the Content-Type and nosniff that make it so are test/server/example-base.test.ts).
 * The screenshot goes to test-output/serve/ for a person to look at.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainer, type Container } from '../../src/server/container.js';
import { needPackages } from '../system-packages.js';

const repo = join(import.meta.dirname, '..', '..');
let base: string;
let container: Container;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'tg-example-browser-'));
  cpSync(join(repo, 'examples', 'base'), base, { recursive: true });
  container = await startContainer({ base, port: 0, address: '127.0.0.1', log: () => undefined });
});

afterAll(async () => {
  await container?.stop();
  rmSync(base, { recursive: true, force: true });
});

describe('the example base in a browser', () => {
  it('renders its index page in Chromium as a page, not as source', async () => {
    needPackages('chromium');
    const browser = await puppeteer.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 900, height: 600 });
      // 127.0.0.1 is no Host of server.xml: the engine's defaultHost (localhost) answers, as in Tomcat.
      const response = await page.goto(`http://127.0.0.1:${container.port}/`);
      expect(response?.status()).toBe(200);
      expect(await page.evaluate(() => document.contentType)).toBe('text/html');
      expect(await page.$eval('h1', (el) => el.textContent)).toBe('tollgate example base');
      expect(await page.$$eval('li a', (els) => els.length)).toBe(3);
      // Shown as source, the body would hold the markup as text.
      expect(await page.evaluate(() => document.body.innerText)).not.toContain('<h1>');
      const out = join(repo, 'test-output', 'serve');
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, 'example-index.png') });
    } finally {
      await browser.close();
    }
  });
});
