// Prints docs/severity.md from the rules' metadata: npx tsx scripts/severity-doc.ts > docs/severity.md
// With --rules, writes each rule page's "What Tomcat 10.1 does" section instead: the verdict from the
// rule's metadata and the "Observed on Tomcat" block from test/fixtures/tomcat-observed/rules.json
// (recorded by scripts/observe-rules.ts): npx tsx scripts/severity-doc.ts --rules
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../src/lint/rules/index.js';
import { severityDoc, withTomcatSection } from '../src/lint/severity.js';
import { readRecordings, withObservedBlock } from '../test/conformance/rule-verdicts.js';

if (process.argv.includes('--rules')) {
  const rec = readRecordings();
  for (const { meta } of RULES) {
    const file = join(import.meta.dirname, '..', 'docs', 'rules', `${meta.id}.md`);
    writeFileSync(file, withObservedBlock(withTomcatSection(readFileSync(file, 'utf8'), meta.id), meta.id, rec));
  }
} else {
  process.stdout.write(severityDoc());
}
