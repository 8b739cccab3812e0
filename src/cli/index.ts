import { createRequire } from 'node:module';
import type { Argv } from 'yargs';
import type { Command, Io } from './command.js';
import { UsageError } from './command.js';
import { chainCommand } from './commands/chain.js';
import { lintCommand } from './commands/lint.js';
import { convertCommand } from './commands/convert.js';
import { schemaCommand } from './commands/schema.js';
import { compileCommand } from './commands/compile.js';
import { serveCommand } from './commands/serve.js';

// yargs 17 through require: its CommonJS build loads in a quarter of the time of the
// ESM build of yargs 18, which is most of a lint run's cold start on one file.
const yargs = createRequire(import.meta.url)('yargs/yargs') as (args: string[]) => Argv;

/** Every command, in the order `--help` lists them. Each lives in ./commands/<name>.ts. */
const commands: Command[] = [lintCommand, chainCommand, compileCommand, serveCommand, schemaCommand, convertCommand];

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

/** Runs the CLI on `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let exitCode = 0;
  let usageFailure: string | null = null;
  const cli = yargs(argv)
    .scriptName('tollgate')
    .strict()
    .demandCommand(1, 'Name a command: ' + commands.map((c) => c.name.split(' ')[0]).join(', '))
    .recommendCommands()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((msg, err) => {
      usageFailure = msg ?? (err ? err.message : 'invalid arguments');
    });
  for (const command of commands) {
    cli.command(command.name, command.describe, command.builder, async (args) => {
      try {
        exitCode = await command.run(args as Record<string, unknown>, io);
      } catch (err) {
        if (err instanceof UsageError) {
          io.stderr(`tollgate ${command.name.split(' ')[0]}: ${err.message}\n`);
          exitCode = 2;
        } else {
          throw err;
        }
      }
    });
  }
  let helpText = '';
  await cli.parseAsync(argv, {}, (_err, _parsed, output) => {
    helpText = output;
  });
  if (usageFailure !== null) {
    if (helpText) io.stderr(helpText + '\n');
    io.stderr(`tollgate: ${usageFailure}\n`);
    return 2;
  }
  if (helpText) io.stdout(helpText + '\n');
  return exitCode;
}
