// Prints docs/severity.md from the rules' metadata: npx tsx scripts/severity-doc.ts > docs/severity.md
import { severityDoc } from '../src/lint/severity.js';

process.stdout.write(severityDoc());
