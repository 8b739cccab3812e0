import type { Argv } from 'yargs';
import yargsFactory from 'yargs/yargs';
import type { Command, Io } from './command.js';
import { UsageError } from './command.js';
import { chainCommand } from './commands/chain.js';
import { lintCommand } from './commands/lint.js';
import { convertCommand } from './commands/convert.js';
import { schemaCommand } from './commands/schema.js';
import { compileCommand } from './commands/compile.js';
import { serveCommand } from './commands/serve.js';
import { lspCommand } from './commands/lsp.js';
import { reportCommand } from './commands/report.js';
import { toolVersion } from '../lint/docs.js';
import { auditCommand } from './commands/audit.js';

// yargs 17 (CommonJS) is bundled into dist/bundle/cli.cjs, whose compiled code bin/tollgate.js keeps in
// V8's code cache: loaded through require, its 20 files were compiled on every start.
const yargs = yargsFactory as unknown as (args: string[]) => Argv;

/** Every command, in the order `--help` lists them. Each lives in ./commands/<name>.ts. */
export const commands: Command[] = [lintCommand, auditCommand, chainCommand, compileCommand, serveCommand, schemaCommand, convertCommand, reportCommand, lspCommand];

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

/**
 * yargs names an unknown `--bogus-flag` twice (as `bogus-flag, bogusFlag`, its camel-case copy) and
 * does not say whether a name was an option or a stray argument: name each once, as the user typed it.
 */
function unknownArgumentsMessage(message: string, argv: string[]): string {
  const m = /^Unknown arguments?: (.*)$/s.exec(message);
  if (!m) return message;
  const names = m[1]!.split(', ');
  const camel = new Set(names.filter((n) => n.includes('-')).map((n) => n.replace(/-+([^-])/g, (_, c: string) => c.toUpperCase())));
  const typedOption = (n: string): string | undefined =>
    argv.find((a) => (n.length === 1 ? /^-[^-]/.test(a) && a.slice(1).split('=')[0]!.includes(n) : a.startsWith('--') && a.slice(2).split('=')[0]!.replace(/^no-/, '') === n));
  const options: string[] = [];
  const args: string[] = [];
  for (const n of names) {
    if (camel.has(n)) continue;
    const typed = typedOption(n);
    if (typed) options.push(typed.split('=')[0]!);
    else args.push(n);
  }
  const parts: string[] = [];
  if (options.length) parts.push(`unknown option${options.length > 1 ? 's' : ''} ${options.join(', ')}`);
  if (args.length) parts.push(`unexpected argument${args.length > 1 ? 's' : ''} ${args.join(', ')}`);
  return parts.join('; ');
}

/** A value yargs refused (unknown option, bad choice, a coerce that threw): thrown by `fail` so no handler runs. */
class ArgumentError extends Error {}

/** Runs the CLI on `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let exitCode = 0;
  const cli = yargs(argv)
    .scriptName('tollgate')
    .strict()
    .demandCommand(1, 'Name a command: ' + commands.map((c) => c.name.split(' ')[0]).join(', '))
    .recommendCommands()
    .help()
    .version(toolVersion())
    .exitProcess(false)
    // Throwing (rather than recording the message) is what stops yargs: a handler that returned would
    // let the command run with the refused value replaced by its default.
    .fail((msg, err) => {
      throw new ArgumentError(unknownArgumentsMessage(msg ?? err?.message ?? 'invalid arguments', argv));
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
  let output = '';
  try {
    await cli.parseAsync(argv, {}, (_err, _parsed, text) => {
      output = text;
    });
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    const name = commands.map((c) => c.name.split(' ')[0]!).find((n) => n === argv[0]);
    const who = name ? `tollgate ${name}` : 'tollgate';
    // One line, like every other usage failure (yargs spreads "Invalid values" over three).
    io.stderr(`${who}: ${err.message.replace(/:?\s*\n\s*/g, ': ')} (${who} --help lists the options)\n`);
    return 2;
  }
  if (output) io.stdout(output + '\n');
  return exitCode;
}
