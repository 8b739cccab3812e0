/**
 * The README's facts that come from the code (the rule count, the sample `tollgate chain` output,
 * the chain document's $schema URL), worked out from the code. test/readme.test.ts fails when the
 * README says otherwise; `npx tsx test/readme-facts.ts --write` rewrites those places in README.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../src/cli/index.js';
import { RULES } from '../src/lint/rules/index.js';
import { CHAIN_SCHEMA_URL } from '../src/schema/urls.js';

export const README = join(import.meta.dirname, '..', 'README.md');
const repo = join(import.meta.dirname, '..');

/** The command the README shows, and what it prints from the repository's root. */
export const CHAIN_SAMPLE_COMMAND = ['chain', '--base', 'examples/base', '--path', '/api/items'];

async function chainSample(): Promise<string> {
  let out = '';
  await main(CHAIN_SAMPLE_COMMAND, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd: repo });
  return out;
}

/** README.md as the code says it should read. */
export async function expectedReadme(text: string): Promise<string> {
  let next = text.replace(/\*\*\d+ rules\*\*/, `**${RULES.length} rules**`);
  next = next.replace(
    /("\$schema": ")[^"]*(tollgate\.chain\.schema\.json")/,
    `$1${CHAIN_SCHEMA_URL.replace(/tollgate\.chain\.schema\.json$/, '')}$2`,
  );
  const command = `$ tollgate ${CHAIN_SAMPLE_COMMAND.join(' ')}\n`;
  const start = next.indexOf('```console\n' + command);
  if (start < 0) throw new Error(`README.md has no \`\`\`console block starting with "${command.trim()}"`);
  const body = start + '```console\n'.length + command.length;
  const end = next.indexOf('```', body);
  return next.slice(0, body) + (await chainSample()) + next.slice(end);
}

if (process.argv.includes('--write')) {
  const text = readFileSync(README, 'utf8');
  const next = await expectedReadme(text);
  if (next !== text) writeFileSync(README, next);
  process.stdout.write(next === text ? 'README.md: up to date\n' : 'README.md: rewritten from the code\n');
}
