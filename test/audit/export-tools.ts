/// <reference lib="dom" />
/**
 * The assessors' tools the export tests run, for real: inspecjs (Heimdall's own HDF reader),
 * Heimdall Lite (the static page of @mitre/heimdall-lite) in Debian's headless Chromium, and
 * OpenSCAP's `oscap xccdf validate`. Each says in one line what to install when it is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, normalize, sep } from 'node:path';
import puppeteer from 'puppeteer-core';
import { SaxesParser } from 'saxes';
import { expect } from 'vitest';
import { needPackages } from '../system-packages.js';
import * as CKL from './ckl-structure.js';

const require = createRequire(import.meta.url);

/** The package version of an npm dependency, for the report of what validated what. */
export function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
}

// ---- OpenSCAP ----

export const OSCAP = '/usr/bin/oscap';

export interface OscapRun {
  status: number | null;
  output: string;
}

/** `oscap xccdf validate <file>`: the XCCDF 1.2 schema, then OpenSCAP's schematron rules. */
export function oscapValidate(file: string): OscapRun {
  needPackages('openscap-scanner');
  const r = spawnSync(OSCAP, ['xccdf', 'validate', file], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

export function oscapVersion(): string {
  const r = spawnSync(OSCAP, ['--version'], { encoding: 'utf8' });
  return /\(oscap\) ([\d.]+)/.exec(r.stdout)?.[1] ?? 'unknown';
}

// ---- CKL structure ----

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** A checklist read into a tree of elements (saxes: well-formedness is checked on the way). */
export function readXml(xml: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  parser.on('opentag', (t) => {
    const node: XmlNode = { name: t.name, attributes: t.attributes as Record<string, string>, children: [], text: '' };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => {
    stack[stack.length - 1]!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  return root.children[0]!;
}

export const child = (n: XmlNode, name: string): XmlNode | undefined => n.children.find((c) => c.name === name);
export const childrenNamed = (n: XmlNode, name: string): XmlNode[] => n.children.filter((c) => c.name === name);

export const attribute = (vuln: XmlNode, name: string): string =>
  childrenNamed(vuln, 'STIG_DATA').find((d) => child(d, 'VULN_ATTRIBUTE')!.text === name)?.children[1]?.text ?? '';

/** The checklist against ckl-structure.ts: every element in STIG Viewer's order, every value in its vocabulary. */
export function checkCklShape(doc: XmlNode): void {
  expect(doc.name).toBe('CHECKLIST');
  expect(doc.children.map((c) => c.name)).toEqual([...CKL.CHECKLIST]);
  expect(child(doc, 'ASSET')!.children.map((c) => c.name)).toEqual([...CKL.ASSET]);
  const stigs = child(doc, 'STIGS')!;
  expect(stigs.children.map((c) => c.name)).toEqual([CKL.STIGS]);
  const istig = stigs.children[0]!;
  expect(istig.children[0]!.name).toBe(CKL.ISTIG[0]);
  expect(new Set(istig.children.slice(1).map((c) => c.name))).toEqual(new Set([CKL.ISTIG[1]]));
  const info = istig.children[0]!;
  expect(info.children.map((c) => child(c, 'SID_NAME')!.text)).toEqual([...CKL.SI_DATA_NAMES]);
  for (const si of info.children) {
    const names = si.children.map((c) => c.name);
    expect(names[0]).toBe('SID_NAME');
    expect(names.slice(1).every((n) => n === 'SID_DATA') && names.length <= 2).toBe(true);
  }
  const vulns = istig.children.slice(1);
  expect(vulns.length).toBeGreaterThan(0);
  for (const v of vulns) {
    const data = v.children.filter((c) => c.name === 'STIG_DATA');
    expect(v.children.slice(data.length).map((c) => c.name)).toEqual([...CKL.VULN_TAIL]);
    for (const d of data) expect(d.children.map((c) => c.name)).toEqual(['VULN_ATTRIBUTE', 'ATTRIBUTE_DATA']);
    const names = data.map((d) => child(d, 'VULN_ATTRIBUTE')!.text);
    expect(names.slice(0, CKL.STIG_DATA_NAMES.length)).toEqual([...CKL.STIG_DATA_NAMES]);
    expect(names.slice(CKL.STIG_DATA_NAMES.length).every((n) => n === CKL.REPEATED_LAST)).toBe(true);
    expect(CKL.STATUSES).toContain(child(v, 'STATUS')!.text);
    expect(CKL.SEVERITIES).toContain(attribute(v, 'Severity'));
  }
}

// ---- Heimdall Lite in Chromium ----

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

/** Heimdall Lite's static bundle, served as it is from the npm package by a node:http server on 127.0.0.1:0. */
async function serveHeimdall(): Promise<{ server: Server; origin: string }> {
  const root = join(dirname(require.resolve('@mitre/heimdall-lite/package.json')), 'dist');
  expect(existsSync(join(root, 'index.html')), 'npm ci (devDependency @mitre/heimdall-lite)').toBe(true);
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (path === '/' || path.startsWith('/results')) path = '/index.html';
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

export interface HeimdallView {
  /** The status cards' counts: Passed, Failed, Not Applicable, Not Reviewed (and Waived when the page shows it). */
  cards: Record<string, number>;
  /** The control table's rows, as the page shows them: status and id. */
  rows: { status: string; id: string }[];
  /** Requests the page tried to send off 127.0.0.1 (blocked). */
  blocked: string[];
}

/**
 * Opens Heimdall Lite in headless Chromium, loads `file` through its own upload box (as an
 * assessor does), and reads the status cards and the control table (scrolled through until it
 * has `expectedRows` rows, or stops growing); screenshots of the
 * overview and of the table go to `shots` (`<name>-overview.png`, `<name>-controls.png`).
 * Nothing leaves 127.0.0.1: every other request is aborted and listed.
 */
export async function openInHeimdall(
  file: string,
  expectedRows: number,
  shots: string,
  name: string,
): Promise<HeimdallView> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (process.env.CHROMIUM_PATH === undefined) needPackages('chromium');
  const { server, origin } = await serveHeimdall();
  const profile = mkdtempSync(join(tmpdir(), 'tollgate-heimdall-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const blocked: string[] = [];
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      const url = r.url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) void r.continue();
      else {
        blocked.push(url);
        void r.abort();
      }
    });
    await page.setViewport({ width: 1600, height: 1000 });
    await page.goto(`${origin}/`, { waitUntil: 'load', timeout: 120_000 });
    const input = await page.waitForSelector('input[type=file]', { timeout: 120_000 });
    await input!.uploadFile(file);
    await page.waitForFunction(() => location.pathname.startsWith('/results'), { timeout: 120_000 });
    // The cards are drawn once the file is read: wait for the Passed card's number.
    await page.waitForFunction(() => /Passed: \d+/.test(document.body.innerText), { timeout: 120_000 });
    await page.screenshot({ path: join(shots, `${name}-overview.png`) });
    const cards = await page.evaluate(() => {
      const out: Record<string, number> = {};
      for (const m of document.body.innerText.matchAll(/^(Passed|Failed|Not Applicable|Not Reviewed|Waived): (\d+)$/gm))
        out[m[1]!] = Number(m[2]);
      return out;
    });
    // The control table: scrolled into view; its rows carry the status and the control id.
    await page.evaluate(() => {
      const heading = Array.from(document.querySelectorAll('*')).find(
        (e) => e.textContent?.trim() === 'Results View Data',
      );
      heading?.scrollIntoView();
    });
    const fileName = basename(file);
    // Heimdall draws the table's rows as they scroll into view, and may drop the rows scrolled past (76 of 83
    // were in the page once, at the bottom): the rows are collected at every position, in the order first seen.
    const seen = new Map<string, { status: string; id: string }>();
    const collect = async (): Promise<number> => {
      const text = await page.evaluate(() => {
        const t = document.body.innerText;
        return t.slice(t.indexOf('Results View Data'));
      });
      for (const row of parseRows(text, fileName)) if (!seen.has(row.id)) seen.set(row.id, row);
      return seen.size;
    };
    // Up to three sweeps from the top, each collecting afresh (so the rows keep the table's order): on a loaded
    // machine the first rows may not be drawn yet when the first sweep passes them.
    for (let sweep = 0; sweep < 3 && seen.size < expectedRows; sweep++) {
      seen.clear();
      if (sweep > 0) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => new Promise((r) => setTimeout(r, 1_000)));
      }
      for (let i = 0; i < 2000; i++) {
        const before = await collect();
        if (before >= expectedRows) break;
        const atBottom = await page.evaluate(() => {
          window.scrollBy(0, Math.floor(window.innerHeight / 2));
          return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
        });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        if (atBottom) {
          // Heimdall adds rows when the end of the table scrolls into view; on a loaded machine the observer can
          // miss the one scroll that reached the bottom, so a page that does not grow is scrolled back and down
          // again a few times (each waiting at most 20 s for a row in the page that was not collected) before giving up.
          let grew = false;
          for (let nudge = 0; nudge < 2 && !grew; nudge++) {
            await page
              .waitForFunction(
                (f: string, known: string[]) => {
                  const lines = document.body.innerText.split('\n').map((l) => l.trim());
                  for (let j = 0; j + 2 < lines.length; j++)
                    if (
                      /^(Passed|Failed|Not Applicable|Not Reviewed|Profile Error)$/.test(lines[j]!) &&
                      lines[j + 1] === f &&
                      !known.includes(lines[j + 2]!)
                    )
                      return true;
                  return false;
                },
                { timeout: 20_000 },
                fileName,
                [...seen.keys()],
              )
              .catch(() => undefined);
            grew = (await collect()) > before;
            if (!grew) {
              await page.evaluate(() => window.scrollBy(0, -window.innerHeight));
              await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
              await collect();
              await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            }
          }
          if (!grew) break;
        }
      }
    }
    const rows = [...seen.values()];
    // The table's first rows under its header (the heading sticks once scrolled past: measure it from the top).
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      const heading = Array.from(document.querySelectorAll('*')).find(
        (e) => e.textContent?.trim() === 'Results View Data',
      );
      if (heading) window.scrollTo(0, heading.getBoundingClientRect().top - 60);
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(shots, `${name}-controls.png`) });
    return { cards, rows, blocked };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The rows of Heimdall's control table, from the page's text: each is the status, the file name, then the control id. */
function parseRows(text: string, fileName: string): { status: string; id: string }[] {
  const rows: { status: string; id: string }[] = [];
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = 0; i + 2 < lines.length; i++) {
    const status = lines[i]!;
    if (/^(Passed|Failed|Not Applicable|Not Reviewed|Profile Error)$/.test(status) && lines[i + 1] === fileName)
      rows.push({ status, id: lines[i + 2]! });
  }
  return rows;
}
