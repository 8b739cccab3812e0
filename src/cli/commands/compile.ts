import { relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { compile, TollgateInputError, writeModules } from '../../api/compile.js';
import type { TomcatTarget } from '../../filters/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { stringOption, targetOption } from '../options.js';
import { skippedLine, stylish } from '../plan-output.js';

export const compileCommand: Command = {
  builder: (y: Argv) =>
    y
      .option('base', stringOption('base', 'CATALINA_BASE directory or tollgate.chain.json', { demandOption: true }))
      .option('out', stringOption('out', 'Output directory', { demandOption: true }))
      .option('strict', { type: 'boolean', default: false, describe: 'Write nothing when lint finds any error' })
      .option('target', targetOption(true)),
  run: (argv: Record<string, unknown>, io: Io) => {
    let result;
    try {
      result = compile(String(argv['base']), { cwd: io.cwd, target: argv['target'] as TomcatTarget });
    } catch (e) {
      if (e instanceof TollgateInputError) throw new UsageError(e.message);
      throw e;
    }
    // Lint errors are shown, and stop the build only under --strict: whether a context gets a module is the plan's to say.
    if (result.lintErrors.length) io.stderr(stylish(result.lintErrors, result.base, io));
    if (argv['strict'] === true && result.lintErrors.length > 0) {
      io.stderr(`tollgate compile: --strict: ${result.lintErrors.length} lint error(s), no module written\n`);
      return Promise.resolve(1);
    }
    for (const file of writeModules(result.modules, resolve(io.cwd, String(argv['out']))))
      io.stdout(`wrote ${relative(io.cwd, file)}\n`);
    for (const s of result.skipped) io.stderr(skippedLine('compile', s, io));
    io.stdout(
      `tollgate compile: ${result.modules.length} module(s) written, ${result.skipped.length} context(s) skipped\n`,
    );
    return Promise.resolve(result.skipped.length > 0 ? 1 : 0);
  },
};
