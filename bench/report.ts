/**
 * `tollgate report` on the 1,000-app bench base: the page's weight and how long headless Chromium
 * (Debian's, as in the tests) takes to open it (navigation to the load event), median of a few runs.
 *
 *   npx tsx bench/report.ts [--apps 1000] [--runs 5]
 *
 * Goals (issue 22): under 5 MB, and open in under 2 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { loadBase } from '../src/parser/index.js';
import { buildReportData, renderReport } from '../src/report/index.js';
import { generateBase } from './generate.js';

const { values } = parseArgs({
  options: { apps: { type: 'string', default: '1000' }, runs: { type: 'string', default: '5' } },
});
const apps = Number(values.apps);
const runs = Number(values.runs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const scratch = mkdtempSync(join(tmpdir(), 'tg-bench-report-'));
const { base } = generateBase(scratch, apps);
const t = performance.now();
const html = renderReport(buildReportData(loadBase({ base }), base, { label: `${apps} apps` }));
const buildMs = performance.now() - t;
const file = join(base, 'report.html');
writeFileSync(file, html);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
const opens: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    const s = performance.now();
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    opens.push(performance.now() - s);
    await page.close();
  }
} finally {
  await browser.close();
}
rmSync(scratch, { recursive: true, force: true });
const mb = Buffer.byteLength(html) / 1e6;
console.log(`| base | page size | built in | opens in (median of ${runs}, min–max) | goals |`);
console.log('|---|---|---|---|---|');
console.log(
  `| ${apps.toLocaleString('en-US')} apps | ${mb.toFixed(2)} MB | ${buildMs.toFixed(0)} ms | ${median(opens).toFixed(0)} ms (${Math.min(...opens).toFixed(0)}–${Math.max(...opens).toFixed(0)}) | < 5 MB, < 2,000 ms |`,
);
