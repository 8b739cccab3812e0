/**
 * Copies the real-world corpus (../shared/corpus/real-world, outside the
 * repository) into test/fuzz/seeds/real-world, so a clean clone fuzzes from
 * the same seeds. Only files whose licence (sources.json) lets them sit in an
 * Apache-2.0 repository are copied: Apache-2.0 and BSD, as of the commit the
 * file was taken from. Run by hand when the corpus changes:
 *   npx tsx test/fuzz/copy-corpus.ts [corpus-dir]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface Entry {
  name: string;
  file: string;
  deployed?: { copy?: string };
}
interface Source {
  name: string;
  licence?: string;
  repository?: string;
  path?: string;
  commit?: string;
}

const corpus = process.argv[2] ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus', 'real-world');
const out = join(import.meta.dirname, 'seeds', 'real-world');
if (!existsSync(join(corpus, 'manifest.json'))) {
  process.stderr.write(`No manifest.json in ${corpus}: pass the corpus directory.\n`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as { files: Entry[] };
const sources = new Map(
  (JSON.parse(readFileSync(join(corpus, 'sources.json'), 'utf8')) as Source[]).map((s) => [s.name, s]),
);
const lines = [
  '# Seeds copied from the real-world corpus',
  '',
  'By test/fuzz/copy-corpus.ts; only Apache-2.0 and BSD files (licence as of the commit taken).',
  '',
  '| file | repository | path | commit | licence |',
  '|---|---|---|---|---|',
];
let copied = 0;
for (const e of manifest.files) {
  const s = sources.get(e.name);
  const licence = s?.licence ?? '';
  if (!/^(Apache-2\.0|BSD)/.test(licence) || /not present at this commit/.test(licence)) continue;
  for (const f of [e.file, e.deployed?.copy].filter((x): x is string => !!x)) {
    mkdirSync(dirname(join(out, f)), { recursive: true });
    copyFileSync(join(corpus, f), join(out, f));
    copied++;
    lines.push(`| ${f} | ${s?.repository ?? ''} | ${s?.path ?? ''} | ${s?.commit ?? ''} | ${licence} |`);
  }
}
writeFileSync(join(out, 'SOURCES.md'), lines.join('\n') + '\n');
process.stdout.write(`${copied} files copied to ${out}\n`, () => process.exit(0));
