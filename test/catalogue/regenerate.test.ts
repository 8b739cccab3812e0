import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate, SOURCES } from '../../scripts/generate-catalogue.mjs';

const generateVersion = generate as (version: string) => string;

// The committed catalogues are what scripts/TomcatCatalogue.java reads from the installed jars, byte for byte.
// Needs Java and the jars: tomcat10 (10.1) and libtomcat9-java (9.0), which .ci/run installs.
describe('src/catalogue is generated from Tomcat itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-catalogue-'));
  for (const version of Object.keys(SOURCES as Record<string, unknown>)) {
    it(`tomcat-${version}.json regenerates byte for byte`, () => {
      try {
        const fresh = generateVersion(version);
        const committed = readFileSync(join('src', 'catalogue', `tomcat-${version}.json`), 'utf8');
        const installed = (JSON.parse(fresh) as { version: string }).version;
        const recorded = (JSON.parse(committed) as { version: string }).version;
        expect(
          installed,
          `the installed Tomcat ${version} is ${installed}, the catalogue was read from ${recorded}: run node scripts/generate-catalogue.mjs`,
        ).toBe(recorded);
        expect(fresh === committed, 'node scripts/generate-catalogue.mjs changes the committed file').toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
