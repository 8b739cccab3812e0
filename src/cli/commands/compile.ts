import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { compileBase } from '../../compile/index.js';
import type { TomcatTarget } from '../../filters/index.js';
import { formatStylish } from '../../lint/formatters/stylish.js';
import { loadBase, parseChainJson } from '../../parser/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { stringOption, targetOption } from '../options.js';

export const compileCommand: Command = {
  name: 'compile',
  describe: 'Write one ES module (and .d.ts) per context: a Connect-style middleware running its chain on tollgate/runtime',
  builder: (y: Argv) =>
    y
      .option('base', stringOption('base', 'CATALINA_BASE directory or tollgate.chain.json', { demandOption: true }))
      .option('out', stringOption('out', 'Output directory', { demandOption: true }))
      .option('target', targetOption(true)),
  run: (argv: Record<string, unknown>, io: Io) => {
    const input = resolve(io.cwd, String(argv['base']));
    if (!existsSync(input)) throw new UsageError(`--base ${String(argv['base'])}: no such file or directory`);
    const base = statSync(input).isFile() ? parseChainJson(readFileSync(input, 'utf8'), input).base : loadBase({ base: input });
    const unreadable = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
    if (unreadable) throw new UsageError(unreadable.message);
    const out = resolve(io.cwd, String(argv['out']));
    const result = compileBase(base, { target: argv['target'] as TomcatTarget });
    for (const m of result.modules) {
      const file = join(out, m.fileName);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, m.code);
      writeFileSync(file.replace(/\.mjs$/, '.d.mts'), m.dts);
      io.stdout(`wrote ${relative(io.cwd, file)}\n`);
    }
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) io.stderr(formatStylish({ diagnostics: errors, files: base.files, lintedFiles: [], cwd: io.cwd, repoRoot: io.cwd, color: false, version: '' }));
    for (const s of result.skipped) io.stderr(`tollgate compile: no module for ${s.host}${s.contextPath || '/'}: ${s.reason}\n`);
    return Promise.resolve(result.skipped.length > 0 ? 1 : 0);
  },
};
