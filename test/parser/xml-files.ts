/** The XML files the parser tests compare paths on: every one of the tests, the examples and the shared corpus (under 1 MB). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from '../shared-dir.js';

const repo = join(import.meta.dirname, '..', '..');

function xmlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) xmlFiles(p, out);
    else if (e.isFile() && /\.xml(\.default)?$/.test(e.name) && statSync(p).size < 1 << 20) out.push(p);
  }
  return out;
}

export function repoXmlFiles(): string[] {
  return [
    ...xmlFiles(join(repo, 'test')),
    ...xmlFiles(join(repo, 'examples')),
    ...xmlFiles(join(SHARED_DIR, 'corpus')),
    ...xmlFiles(join(SHARED_DIR, 'examples')),
  ];
}
