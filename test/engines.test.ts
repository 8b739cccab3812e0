import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// semver ships no types: the two functions used here.
const semver = createRequire(import.meta.url)('semver') as {
  subset(sub: string, sup: string): boolean;
  validRange(range: string): string | null;
};

const repo = join(import.meta.dirname, '..');
interface Manifest {
  engines?: { node?: string };
  devEngines?: { runtime?: { name: string; version: string } };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const pkg = manifest(repo);
const nodeOf = (name: string): string | undefined => manifest(join(repo, 'node_modules', name)).engines?.node;

/**
 * Dev dependencies whose engines ask more than devEngines, each with why that is acceptable (README, Install):
 * npm warns (EBADENGINE) and CI runs them on Node 20.
 */
const NEWER_THAN_DEV = {
  'puppeteer-core': 'drives Debian chromium in test/report/browser.test.ts; runs on Node 20 in CI',
  '@mitre/heimdall-lite':
    'static files a system test serves to chromium (test/audit/export-tools.ts); no code runs in Node',
};

describe('engines and dependencies agree', () => {
  const runtime = pkg.engines!.node!;
  const dev = pkg.devEngines!.runtime!.version;

  it('declares the Node lines the package runs on, and what development needs', () => {
    expect(runtime).toBe('^20.12 || ^22 || ^24');
    expect(pkg.devEngines!.runtime!.name).toBe('node');
    expect(semver.validRange(dev)).not.toBeNull();
  });

  it('every dependency and optional peer runs on every Node the package claims', () => {
    for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]) {
      const needs = nodeOf(name);
      if (needs !== undefined) expect(semver.subset(runtime, needs), `${name} needs Node ${needs}`).toBe(true);
    }
  });

  it('every dev dependency runs on the Node development asks for, but the named exceptions', () => {
    const newer: string[] = [];
    for (const name of Object.keys(pkg.devDependencies ?? {})) {
      const needs = nodeOf(name);
      if (needs !== undefined && !semver.subset(dev, needs)) newer.push(name);
    }
    expect(newer.sort()).toEqual(Object.keys(NEWER_THAN_DEV).sort());
  });

  it('development needs at least what the package runs on', () => {
    expect(semver.subset(dev, '>=20.12')).toBe(true);
  });
});
