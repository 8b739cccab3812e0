import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { compileBase } from '../../compile/index.js';
import type { TomcatTarget } from '../../filters/index.js';
import { lintBase } from '../../lint/engine.js';
import { loadBase, parseChainJson } from '../../parser/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { stringOption, targetOption } from '../options.js';
import { skippedLine, stylish } from '../plan-output.js';

export const compileCommand: Command = {
  name: 'compile',
  describe: 'Write one ES module (and .d.ts) per context Tomcat starts: a Connect-style middleware running its chain on tollgate/runtime',
  builder: (y: Argv) =>
    y
      .option('base', stringOption('base', 'CATALINA_BASE directory or tollgate.chain.json', { demandOption: true }))
      .option('out', stringOption('out', 'Output directory', { demandOption: true }))
      .option('strict', { type: 'boolean', default: false, describe: 'Write nothing when lint finds any error' })
      .option('target', targetOption(true)),
  run: (argv: Record<string, unknown>, io: Io) => {
    const input = resolve(io.cwd, String(argv['base']));
    if (!existsSync(input)) throw new UsageError(`--base ${String(argv['base'])}: no such file or directory`);
    const base = statSync(input).isFile() ? parseChainJson(readFileSync(input, 'utf8'), input).base : loadBase({ base: input });
    const unreadable = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
    if (unreadable) throw new UsageError(unreadable.message);
    const out = resolve(io.cwd, String(argv['out']));
    const target = argv['target'] as TomcatTarget;
    // Lint errors are shown, and stop the build only under --strict: whether a context gets a module is the plan's to say.
    const errors = lintBase(base, { target }).diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) io.stderr(stylish(errors, base, io));
    if (argv['strict'] === true && errors.length > 0) {
      io.stderr(`tollgate compile: --strict: ${errors.length} lint error(s), no module written\n`);
      return Promise.resolve(1);
    }
    const result = compileBase(base, { target });
    for (const m of result.modules) {
      const file = join(out, m.fileName);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, m.code);
      writeFileSync(file.replace(/\.mjs$/, '.d.mts'), m.dts);
      io.stdout(`wrote ${relative(io.cwd, file)}\n`);
    }
    for (const s of result.skipped) io.stderr(skippedLine('compile', s, io));
    io.stdout(`tollgate compile: ${result.modules.length} module(s) written, ${result.skipped.length} context(s) skipped\n`);
    return Promise.resolve(result.skipped.length > 0 ? 1 : 0);
  },
};
