/**
 * `tollgate migrate`: rewrites a Tomcat 7/8.5/9 CATALINA_BASE into what Tomcat 10.1 starts, with the
 * least bytes changed. Files are found as lint finds them (loadBase: server.xml, conf/context.xml, the
 * hosts' context files, every application's META-INF/context.xml and WEB-INF/web.xml, conf/web.xml)
 * and each is rewritten from the parser's exact spans; comments, layout, entities and `${...}` stay.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { SourceFile, Span } from '../model/index.js';
import { encodeSource, loadBase, parseXmlTree } from '../parser/index.js';
import { writeAtomically } from '../lint/fix.js';
import { applyEdits } from './edit.js';
import { migrateServerTree } from './server.js';
import { migrateWebXmlTree } from './webxml.js';
import type { Step } from './types.js';

export type { Step } from './types.js';

/** The Tomcat versions `--to` accepts. */
export const MIGRATE_TARGETS = ['10.1'] as const;
export type MigrateTarget = (typeof MIGRATE_TARGETS)[number];

/** One file: its text before and after (equal when only manual steps were found). */
export interface FileMigration {
  path: string;
  source: SourceFile;
  before: string;
  after: string;
  steps: Step[];
}

/** A file the migration cannot read or rewrite, at the place that says why. */
export interface MigrationError {
  span: Span;
  message: string;
}

export interface Migration {
  base: string;
  to: MigrateTarget;
  files: FileMigration[];
  errors: MigrationError[];
}

const ROOTS_SERVER = new Set(['Server', 'Context']);
const ROOTS_WEB = new Set(['web-app', 'web-fragment']);

/** Reads a base and works out every rewrite; writes nothing. */
export function migrateBase(base: string, opts: { to: MigrateTarget }): Migration {
  const loaded = loadBase({ base });
  const out: Migration = { base: loaded.base, to: opts.to, files: [], errors: [] };
  for (const d of loaded.diagnostics) {
    if (d.ruleId === 'base-unreadable' || d.ruleId === 'file-unreadable' || d.ruleId === 'file-too-large')
      out.errors.push({ span: d.span, message: d.message });
  }
  const paths = [...loaded.files.keys()].filter((p) => p.endsWith('.xml') || p.endsWith('.xml.default')).sort();
  for (const path of paths) {
    const source = loaded.files.get(path)!;
    const { doc, diagnostics } = parseXmlTree(source);
    const malformed = diagnostics.find((d) => d.severity === 'error');
    const root = doc.root;
    if (!root || !(ROOTS_SERVER.has(root.name) || ROOTS_WEB.has(root.name))) {
      if (malformed && root?.name !== 'tomcat-users')
        out.errors.push({ span: malformed.span, message: malformed.message });
      continue;
    }
    if (malformed) {
      out.errors.push({
        span: malformed.span,
        message: `${malformed.message} tollgate migrate rewrites only well-formed files.`,
      });
      continue;
    }
    const { edits, steps } = ROOTS_WEB.has(root.name)
      ? migrateWebXmlTree(root, source.text)
      : migrateServerTree(root, source.text);
    if (!edits.length && !steps.length) continue;
    const after = applyEdits(source.text, edits);
    if (after !== source.text && !losslessOnDisk(path, source)) {
      out.errors.push({
        span: root.span,
        message: `${path} cannot be rewritten byte for byte (its bytes do not decode and re-encode to themselves as ${source.encoding}): make the changes below by hand.`,
      });
    }
    out.files.push({ path, source, before: source.text, after, steps });
  }
  return out;
}

function losslessOnDisk(path: string, source: SourceFile): boolean {
  try {
    return Buffer.from(encodeSource(source, source.text)).equals(readFileSync(path));
  } catch {
    return false;
  }
}

/** The migration as a unified diff, paths relative to the base (`a/conf/server.xml`). */
export function migrationDiff(m: Migration): string {
  let out = '';
  for (const f of m.files) {
    if (f.before === f.after) continue;
    const name = relative(m.base, f.path).split('\\').join('/');
    out += createTwoFilesPatch(`a/${name}`, `b/${name}`, f.before, f.after, undefined, undefined, { context: 3 })
      .split('\n')
      .filter((l) => !l.startsWith('====='))
      .join('\n');
  }
  return out;
}

/** Writes every changed file in place (atomically, keeping its encoding, BOM and mode); returns their paths. */
export function writeMigration(m: Migration): string[] {
  const written: string[] = [];
  for (const f of m.files) {
    if (f.before === f.after) continue;
    writeAtomically(f.path, encodeSource(f.source, f.after));
    written.push(f.path);
  }
  return written;
}
