import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Diagnostic, SourceFile } from '../model/index.js';
import { writeAtomically } from './fix.js';
import { fingerprint, fingerprintLine } from './formatters/sarif.js';

interface BaselineEntry {
  ruleId: string;
  file: string;
  fingerprint: string;
  message: string;
}

/** Fingerprints that survive edits elsewhere in the file (the same as SARIF's partialFingerprints). */
function entries(diagnostics: Diagnostic[], files: Map<string, SourceFile>, root: string): BaselineEntry[] {
  const seen = new Map<string, number>();
  return diagnostics.map((d) => {
    const file = relative(root, d.span.file).split('\\').join('/');
    const content = fingerprintLine(files.get(d.span.file), d.span.line);
    const key = `${d.ruleId}\0${file}\0${content}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return { ruleId: d.ruleId, file, fingerprint: fingerprint(d, file, content, occurrence), message: d.message };
  });
}

/** Records today's findings so that later runs fail only on new ones. */
export function writeBaseline(path: string, diagnostics: Diagnostic[], files: Map<string, SourceFile>): number {
  const list = entries(diagnostics, files, dirname(resolve(path)));
  writeAtomically(path, Buffer.from(JSON.stringify({ version: 1, tool: 'tollgate', findings: list }, null, 2) + '\n'));
  return list.length;
}

export class BaselineError extends Error {}

/** Drops findings recorded in the baseline (each recorded finding absorbs one current finding). */
export function applyBaseline(path: string, diagnostics: Diagnostic[], files: Map<string, SourceFile>): Diagnostic[] {
  let doc: { findings?: BaselineEntry[] };
  try {
    doc = JSON.parse(readFileSync(path, 'utf8')) as { findings?: BaselineEntry[] };
  } catch (e) {
    throw new BaselineError(`${path}: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc.findings)) throw new BaselineError(`${path}: not a tollgate baseline (no "findings" list)`);
  const budget = new Map<string, number>();
  for (const f of doc.findings) budget.set(f.fingerprint, (budget.get(f.fingerprint) ?? 0) + 1);
  const current = entries(diagnostics, files, dirname(resolve(path)));
  return diagnostics.filter((_d, i) => {
    const fp = current[i]!.fingerprint;
    const left = budget.get(fp) ?? 0;
    if (left === 0) return true;
    budget.set(fp, left - 1);
    return false;
  });
}
