import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../src/lint/rules/index.js';
import { CHAIN_SCHEMA_URL } from '../src/schema/urls.js';
import { expectedReadme, README } from './readme-facts.js';

describe('README.md says what the code does', () => {
  const text = readFileSync(README, 'utf8');

  it('its rule count, sample chain output and $schema URL match the code (npx tsx test/readme-facts.ts --write fixes them)', async () => {
    expect(text).toContain(`**${RULES.length} rules**`);
    expect(text).toContain(`"$schema": "${CHAIN_SCHEMA_URL}"`);
    expect(text).toBe(await expectedReadme(text));
  });

  it('links every page of docs/', () => {
    const pages = readdirSync(join(dirname(README), 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((p) => !text.includes(`](docs/${p})`))).toEqual([]);
  });

  it('points $schema at the raw JSON file, not a page about it', () => {
    expect(CHAIN_SCHEMA_URL).toMatch(
      /^https:\/\/raw\.githubusercontent\.com\/.*\/schemas\/tollgate\.chain\.schema\.json$/,
    );
  });
});
