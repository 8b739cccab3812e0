import { relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import {
  MIGRATE_TARGETS,
  migrateBase,
  migrationDiff,
  writeMigration,
  type MigrateTarget,
} from '../../migrate/index.js';
import type { Span } from '../../model/index.js';
import type { Command, Io } from '../command.js';
import { choiceOption } from '../options.js';

async function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const base = resolve(io.cwd, String(argv['base'] ?? '.'));
  const m = migrateBase(base, { to: argv['to'] as MigrateTarget });
  const where = (s: Span): string => {
    const rel = relative(io.cwd, s.file);
    return `${rel && !rel.startsWith('..') ? rel : s.file}:${s.line}:${s.column}`;
  };
  // Nothing is written unless every file could be read and rewritten: a half-migrated base starts on neither version.
  if (m.errors.length) {
    for (const e of m.errors) io.stderr(`${where(e.span)}: error: ${e.message}\n`);
    io.stderr(
      `tollgate migrate: nothing ${argv['write'] ? 'written' : 'rewritten'}: fix the file${m.errors.length > 1 ? 's' : ''} above first\n`,
    );
    return 2;
  }
  const steps = m.files.flatMap((f) => f.steps);
  for (const s of steps)
    io.stderr(`${where(s.span)}: ${s.manual ? 'by hand' : s.note ? 'note' : 'migrated'}: ${s.message}\n`);
  if (argv['write']) {
    const written = writeMigration(m);
    io.stderr(
      `tollgate migrate: rewrote ${written.length} file${written.length === 1 ? '' : 's'} for Tomcat ${m.to}\n`,
    );
  } else {
    io.stdout(migrationDiff(m));
  }
  const manual = steps.filter((s) => s.manual).length;
  if (manual) io.stderr(`tollgate migrate: ${manual} change${manual === 1 ? '' : 's'} left to do by hand (above)\n`);
  return Promise.resolve(manual ? 1 : 0);
}

export const migrateCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('base', { type: 'string', describe: 'CATALINA_BASE to migrate (default: .)' })
      .option('to', choiceOption('to', MIGRATE_TARGETS, 'The Tomcat version to migrate to', { default: '10.1' }))
      .option('write', {
        type: 'boolean',
        default: false,
        describe: 'Rewrite the files in place instead of printing the unified diff',
      }),
  run,
};
