import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { refusesStart } from '../../src/lint/severity.js';
import { sharedPath } from '../shared-dir.js';

/**
 * The real-world corpus (../shared/corpus/real-world): what real Tomcat 10.1
 * did with each file, and the real problems its notes name. A file Tomcat
 * started must get no error that says Tomcat refuses it (an error Tomcat starts
 * with, and runs wrongly, may be there) unless a note names one; a file Tomcat
 * refused must get one; every note must be reported near its line with at least
 * its severity.
 */
const root = sharedPath('corpus', 'real-world');
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
  files: {
    name: string;
    file: string;
    tomcat: string;
    deployed?: { how?: string };
    notes: { severity: 'error' | 'warning'; line: number; what: string }[];
  }[];
};

/** Findings that refuse one connector, not the server or a context. */
const CONNECTOR_REFUSALS = new Set(['connector-protocol-not-found', 'connector-tls-without-host-config']);

describe('real-world corpus', () => {
  for (const f of manifest.files) {
    it(`${f.name}: ${f.tomcat}, ${f.notes.length} noted problem(s)`, () => {
      const diagnostics = lintBase(loadInput(join(root, f.file))).diagnostics;
      const near = (line: number) => diagnostics.filter((d) => Math.abs(d.span.line - line) <= 2);
      for (const note of f.notes) {
        const hits = near(note.line).filter((d) =>
          note.severity === 'error' ? d.severity === 'error' : d.severity !== 'info',
        );
        expect(hits, `note at line ${note.line}: ${note.what}`).not.toEqual([]);
      }
      if (f.tomcat === 'started') {
        const errorLines = f.notes.filter((n) => n.severity === 'error').map((n) => n.line);
        // Where the recording replaced the file's connectors by one loopback connector, Tomcat never ran
        // the original ones: that one of them would not start is not contradicted by "started".
        const connectorsRan = !/<Connector> element\(s\) replaced/.test(f.deployed?.how ?? '');
        const unexpected = diagnostics.filter(
          (d) =>
            refusesStart(d) &&
            !errorLines.some((l) => Math.abs(l - d.span.line) <= 2) &&
            (connectorsRan || !CONNECTOR_REFUSALS.has(d.ruleId) || /Server instance is not configured/.test(d.message)),
        );
        expect(unexpected.map((d) => `${d.span.line} ${d.ruleId}: ${d.message}`)).toEqual([]);
      } else {
        expect(diagnostics.some(refusesStart)).toBe(true);
      }
    });
  }
});
