// Prints docs/severity.md from the rules' metadata: npx tsx scripts/severity-doc.ts > docs/severity.md
// With --rules, writes each rule page's "What Tomcat 10.1 does" section instead: npx tsx scripts/severity-doc.ts --rules
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../src/lint/rules/index.js';
import { severityDoc, withTomcatSection } from '../src/lint/severity.js';

if (process.argv.includes('--rules')) {
  for (const { meta } of RULES) {
    const file = join(import.meta.dirname, '..', 'docs', 'rules', `${meta.id}.md`);
    writeFileSync(file, withTomcatSection(readFileSync(file, 'utf8'), meta.id));
  }
} else {
  process.stdout.write(severityDoc());
}
