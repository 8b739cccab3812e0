// Rewrites docs/hardening.md from the control catalogues (src/audit) and the rules' benchmarks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { coverageMarkdown } from '../src/audit/coverage.js';

const path = join(import.meta.dirname, '..', 'docs', 'hardening.md');
writeFileSync(path, coverageMarkdown());
process.stdout.write(`wrote ${path}\n`);
